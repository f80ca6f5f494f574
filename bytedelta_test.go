package blosc2

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// refDiff and refSum are the BYTEDELTA kernels as plain byte loops,
// independent of the SWAR and vector code.
func refDiff(in []byte) []byte {
	out := make([]byte, len(in))
	var prev byte
	for k, v := range in {
		out[k] = v - prev
		prev = v
	}
	return out
}

func refSum(in []byte) []byte {
	out := make([]byte, len(in))
	var acc byte
	for k, v := range in {
		acc += v
		out[k] = acc
	}
	return out
}

// bytedeltaLengths are 0..100, the vector boundaries of every level and
// their neighbours, and a block of 256 KiB with its neighbours.
func bytedeltaLengths() []int {
	var l []int
	for n := 0; n <= 100; n++ {
		l = append(l, n)
	}
	return append(l, 127, 128, 129, 255, 256, 257, 4095, 4096, 4097, 256<<10-1, 256<<10, 256<<10+1)
}

// checkDeltaKernel runs f (a kernelSet.diffBytes or sumBytes) on in with
// guard bytes past out and compares with want.
func checkDeltaKernel(t *testing.T, what string, f func(out, in []byte), in, want []byte) {
	t.Helper()
	n := len(in)
	out := make([]byte, n+guard)
	for i := range out {
		out[i] = 0x5a
	}
	f(out[:n:n], in)
	if !bytes.Equal(out[:n], want) {
		for i := range want {
			if out[i] != want[i] {
				t.Fatalf("%s len %d: byte %d = %#x, want %#x", what, n, i, out[i], want[i])
			}
		}
	}
	for i, v := range out[n:] {
		if v != 0x5a {
			t.Fatalf("%s len %d: wrote past out at +%d", what, n, i)
		}
	}
}

// TestBytedeltaKernels compares each level's BYTEDELTA kernels with the
// byte loops on every length of bytedeltaLengths, at several alignments of
// the input.
func TestBytedeltaKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 34))
	const maxOff = 3
	buf := randBytes(rng, 256<<10+1+maxOff)
	forEachISA(t, func(t *testing.T) {
		for _, n := range bytedeltaLengths() {
			for off := 0; off <= maxOff; off++ {
				if n > 4097 && off > 1 {
					continue
				}
				in := buf[off : off+n]
				checkDeltaKernel(t, "diffBytes", kernels.diffBytes, in, refDiff(in))
				checkDeltaKernel(t, "sumBytes", kernels.sumBytes, in, refSum(in))
			}
		}
	})
}

// TestBytedeltaKernelsAllOnes uses inputs whose sums wrap at every byte
// (0xff) or never borrow (0x01), where a lost carry or borrow between
// bytes shows.
func TestBytedeltaKernelsAllOnes(t *testing.T) {
	forEachISA(t, func(t *testing.T) {
		for _, v := range []byte{0x01, 0x7f, 0x80, 0xff} {
			for _, n := range []int{15, 16, 17, 31, 32, 33, 63, 64, 65, 200} {
				in := bytes.Repeat([]byte{v}, n)
				checkDeltaKernel(t, "diffBytes", kernels.diffBytes, in, refDiff(in))
				checkDeltaKernel(t, "sumBytes", kernels.sumBytes, in, refSum(in))
			}
		}
	})
}

// FuzzBytedelta compares the BYTEDELTA kernels of every level with the
// generic ones on random data, lengths, alignments and stream counts, for
// both filter ids, and checks the round trip.
func FuzzBytedelta(f *testing.F) {
	for _, s := range []uint8{1, 2, 3, 4, 8, 16, 255} {
		for _, n := range []int{0, 1, 15, 16, 17, 33, 64, 100, 129, 1000, 4099} {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(i*131 + int(s))
			}
			f.Add(src, s, uint8(n%64))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, streams, off uint8) {
		o := min(int(off%64), len(data))
		src := data[o:]
		n := len(src)
		s := max(int(streams), 1)
		for _, l := range archISAs {
			ks := archKernels(l)
			for _, op := range []struct {
				name       string
				kern, want func(out, in []byte)
			}{
				{"diffBytes", ks.diffBytes, genericKernels.diffBytes},
				{"sumBytes", ks.sumBytes, genericKernels.sumBytes},
			} {
				want := make([]byte, n)
				op.want(want, src)
				checkDeltaKernel(t, l.String()+" "+op.name, op.kern, src, want)
				for _, buggy := range []bool{false, true} {
					want := make([]byte, n)
					bytedeltaStreams(want, src, s, buggy, op.want)
					checkDeltaKernel(t, fmt.Sprintf("%s %s streams %d buggy %v", l, op.name, s, buggy),
						func(out, in []byte) { bytedeltaStreams(out, in, s, buggy, op.kern) }, src, want)
				}
			}
			mid, back := make([]byte, n), make([]byte, n)
			bytedeltaStreams(mid, src, s, false, ks.diffBytes)
			bytedeltaStreams(back, mid, s, false, ks.sumBytes)
			if !bytes.Equal(back, src) {
				t.Fatalf("%s streams %d len %d: round trip differs", l, s, n)
			}
		}
	})
}

// BenchmarkBytedelta times the BYTEDELTA filter on a 256 KiB block of 4
// streams at every level, next to copy as BenchmarkShuffle does: MB/s is
// the filter's, copy-MB/s copy's over the same iterations, x-copy their
// ratio.
func BenchmarkBytedelta(b *testing.B) {
	const n = 256 << 10
	rng := rand.New(rand.NewPCG(1, 1))
	src := randBytes(rng, n)
	dst := make([]byte, n)
	for _, c := range []struct {
		name string
		f    permFunc
	}{{"encode", bytedeltaEncode}, {"decode", bytedeltaDecode}} {
		b.Run(c.name, func(b *testing.B) {
			for _, l := range archISAs {
				b.Run(l.String(), func(b *testing.B) {
					defer useISA(l)()
					benchAgainstCopy(b, dst, src, func() { c.f(dst, src, 4) })
				})
			}
		})
	}
}
