package blosc2

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/blosc2go/blosc2/internal/race"
)

// Reference permutations written as directly from blosc/shuffle-generic.c and blosc/bitshuffle-generic.c as
// possible: byte and bit loops, obviously correct, slow.

func refShuffle(dst, src []byte, t int) {
	n := len(src)
	copy(dst[:n], src)
	if t < 1 {
		return
	}
	e := n / t
	for i := 0; i < e; i++ {
		for j := 0; j < t; j++ {
			dst[j*e+i] = src[i*t+j]
		}
	}
}

func refUnshuffle(dst, src []byte, t int) {
	n := len(src)
	copy(dst[:n], src)
	if t < 1 {
		return
	}
	e := n / t
	for i := 0; i < e; i++ {
		for j := 0; j < t; j++ {
			dst[i*t+j] = src[j*e+i]
		}
	}
}

func refBitshuffle(dst, src []byte, t int) {
	n := len(src)
	e8 := n / t / 8 * 8
	for i := range dst[:e8*t] {
		dst[i] = 0
	}
	for i := 0; i < e8; i++ {
		for j := 0; j < t; j++ {
			for b := 0; b < 8; b++ {
				bit := src[i*t+j] >> b & 1
				dst[(8*j+b)*(e8/8)+i/8] |= bit << (i % 8)
			}
		}
	}
	copy(dst[e8*t:n], src[e8*t:])
}

func refBitunshuffle(dst, src []byte, t int) {
	n := len(src)
	e8 := n / t / 8 * 8
	for i := range dst[:e8*t] {
		dst[i] = 0
	}
	for i := 0; i < e8; i++ {
		for j := 0; j < t; j++ {
			for b := 0; b < 8; b++ {
				bit := src[(8*j+b)*(e8/8)+i/8] >> (i % 8) & 1
				dst[i*t+j] |= bit << b
			}
		}
	}
	copy(dst[e8*t:n], src[e8*t:])
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	var b []byte
	for _, f := range bytes.Fields([]byte(s)) {
		var v byte
		if _, err := fmt.Sscanf(string(f), "%02x", &v); err != nil {
			t.Fatalf("bad hex %q", f)
		}
		b = append(b, v)
	}
	return b
}

// forEachISA runs f once per instruction-set level this machine has.
func forEachISA(t *testing.T, f func(t *testing.T)) {
	for _, l := range archISAs {
		t.Run(l.String(), func(t *testing.T) {
			defer useISA(l)()
			f(t)
		})
	}
}

type permFunc func(dst, src []byte, typesize int)

// kernelCase names one permutation, its reference and its generic twin.
type kernelCase struct {
	name     string
	dispatch permFunc // through the kernel table
	generic  permFunc
	ref      permFunc
}

var kernelCases = []kernelCase{
	{"shuffle", shuffle, shuffleGeneric, refShuffle},
	{"unshuffle", unshuffle, unshuffleGeneric, refUnshuffle},
	{"bitshuffle", bitshuffle, bitshuffleGeneric, refBitshuffle},
	{"bitunshuffle", bitunshuffle, bitunshuffleGeneric, refBitunshuffle},
}

func TestShuffleSpecExample(t *testing.T) {
	in := unhex(t, "00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d")
	want := unhex(t, "00 04 08 01 05 09 02 06 0a 03 07 0b 0c 0d")
	forEachISA(t, func(t *testing.T) {
		got := make([]byte, len(in))
		shuffle(got, in, 4)
		if !bytes.Equal(got, want) {
			t.Fatalf("shuffle = % x, want % x", got, want)
		}
		back := make([]byte, len(in))
		unshuffle(back, got, 4)
		if !bytes.Equal(back, in) {
			t.Fatalf("unshuffle = % x, want % x", back, in)
		}
	})
}

func TestBitshuffleSpecExample(t *testing.T) {
	in := unhex(t, "01 00 02 00 03 00 04 00 05 00 06 00 07 00 08 00 ff")
	want := unhex(t, "55 66 78 80 00 00 00 00  00 00 00 00 00 00 00 00  ff")
	forEachISA(t, func(t *testing.T) {
		got := make([]byte, len(in))
		bitshuffle(got, in, 2)
		if !bytes.Equal(got, want) {
			t.Fatalf("bitshuffle = % x, want % x", got, want)
		}
		back := make([]byte, len(in))
		bitunshuffle(back, got, 2)
		if !bytes.Equal(back, in) {
			t.Fatalf("bitunshuffle = % x, want % x", back, in)
		}
	})
}

// The version-2 rule (blosc/bitshuffle-generic.c): bit-unshuffle only blocks whose
// element count is a multiple of 8, trailing bytes and short blocks copied.
func TestBitunshuffleV2(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	forEachISA(t, func(t *testing.T) {
		for _, ts := range []int{1, 2, 3, 4, 7, 8, 16} {
			for n := 0; n <= 300; n++ {
				src := randBytes(rng, n)
				got := make([]byte, n)
				for i := range got {
					got[i] = 0xa5 // must all be overwritten
				}
				bitunshuffleV2(got, src, ts)
				want := make([]byte, n)
				if (n/ts)%8 == 0 {
					refBitunshuffle(want, src, ts)
				} else {
					copy(want, src)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("ts %d n %d: got % x want % x", ts, n, got, want)
				}
			}
		}
		// the C case: a 35-byte block, T = 4: 8 elements + 3 bytes.
		src := make([]byte, 35)
		for i := range src {
			src[i] = byte(i * 7)
		}
		got := make([]byte, 35)
		bitunshuffleV2(got, src, 4)
		if !bytes.Equal(got[32:], src[32:]) {
			t.Fatalf("trailing bytes % x, want % x", got[32:], src[32:])
		}
	})
}

var matrixTypesizes = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 24, 32, 64, 255, 256}

// matrixLengths are 0..300 plus lengths around 512, 1 KiB and 64 KiB, with
// element and byte remainders for every typesize (fewer in short mode).
func matrixLengths(short bool) []int {
	var ls []int
	step := 1
	around := map[int][]int{
		512:      {-9, -1, 0, 1, 7, 63, 100},
		1 << 10:  {-257, -129, -65, -33, -17, -9, -1, 0, 1, 7, 15, 31, 63, 100, 255},
		64 << 10: {-257, -129, -65, -33, -17, -9, -1, 0, 1, 7, 15, 31, 63, 100, 255},
	}
	if short {
		step = 7
		around[512] = []int{-1, 0, 1, 63}
		around[1<<10] = []int{-65, -9, -1, 0, 1, 63}
		around[64<<10] = []int{-17, 0, 255}
	}
	for n := 0; n <= 300; n += step {
		ls = append(ls, n)
	}
	for _, base := range []int{512, 1 << 10, 64 << 10} {
		for _, d := range around[base] {
			ls = append(ls, base+d)
		}
	}
	return ls
}

// short is testing.Short(), also under the race detector, which slows the
// reference loops down tenfold.
func short() bool { return testing.Short() || race.Enabled }

const guard = 64 // bytes past the end of dst that must stay untouched

// checkKernel compares f(src) with exp and checks the guard bytes.
func checkKernel(t *testing.T, what string, f permFunc, exp, src []byte, ts int) {
	t.Helper()
	n := len(src)
	got := make([]byte, n+guard)
	for i := range got {
		got[i] = 0xd7
	}
	f(got[:n:n], src, ts)
	if !bytes.Equal(got[:n], exp) {
		i := 0
		for got[i] == exp[i] {
			i++
		}
		t.Fatalf("%s ts %d len %d: first difference at %d: got %#x want %#x", what, ts, n, i, got[i], exp[i])
	}
	for i, v := range got[n:] {
		if v != 0xd7 {
			t.Fatalf("%s ts %d len %d: wrote past dst at +%d", what, ts, n, i)
		}
	}
}

// TestShuffleMatrix checks every kernel of every level against the byte-loop
// reference over typesizes x lengths, with the source at several offsets in
// 0..63 (the same bytes at every offset, so one expected output serves all).
func TestShuffleMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	lengths := matrixLengths(short())
	data := randBytes(rng, 64<<10+512)
	buf := make([]byte, len(data)+64)
	for _, kc := range kernelCases {
		t.Run(kc.name, func(t *testing.T) {
			type key struct{ ts, n int }
			expected := map[key][]byte{}
			forEachISA(t, func(t *testing.T) {
				for _, ts := range matrixTypesizes {
					for _, n := range lengths {
						exp, ok := expected[key{ts, n}]
						if !ok {
							exp = make([]byte, n)
							kc.ref(exp, data[:n], ts)
							expected[key{ts, n}] = exp
						}
						offs := []int{0, 1, 7, 13, 32, 63}
						if short() {
							offs = []int{0, 13}
						}
						if n <= 300 {
							offs = []int{0, 1 + n%63, 63 - n%31}
						}
						for _, off := range offs {
							src := buf[off : off+n : off+n]
							copy(src, data)
							checkKernel(t, kc.name, kc.dispatch, exp, src, ts)
						}
					}
				}
			})
		})
	}
}

// TestShuffleGenericVsRef checks the generic twins directly: they finish
// the vector kernels' tails, so they must be right on every architecture.
func TestShuffleGenericVsRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, kc := range kernelCases {
		for _, ts := range matrixTypesizes {
			for _, n := range matrixLengths(true) {
				src := randBytes(rng, n)
				exp := make([]byte, n)
				kc.ref(exp, src, ts)
				checkKernel(t, kc.name+"Generic", kc.generic, exp, src, ts)
			}
		}
	}
}

// TestShuffleUnaligned runs every source offset 0..63 (with destination
// offsets 0..15) for a few sizes: the same bytes at every offset, so one
// expected output serves all.
func TestShuffleUnaligned(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	data := randBytes(rng, 4096)
	buf := make([]byte, 4096+64)
	dstBuf := make([]byte, 4096+16+guard)
	step := 1
	if short() {
		step = 5
	}
	for _, kc := range kernelCases {
		t.Run(kc.name, func(t *testing.T) {
			forEachISA(t, func(t *testing.T) {
				for _, ts := range []int{1, 2, 4, 8, 16, 3, 12, 24} {
					for _, n := range []int{257, 1000, 4096} {
						exp := make([]byte, n)
						kc.ref(exp, data[:n], ts)
						for off := 0; off < 64; off += step {
							src := buf[off : off+n : off+n]
							copy(src, data)
							doff := off % 16
							for i := range dstBuf {
								dstBuf[i] = 0x3c
							}
							kc.dispatch(dstBuf[doff:doff+n:doff+n], src, ts)
							if !bytes.Equal(dstBuf[doff:doff+n], exp) {
								t.Fatalf("ts %d n %d src off %d dst off %d: mismatch", ts, n, off, doff)
							}
							for i, v := range dstBuf[doff+n:] {
								if v != 0x3c {
									t.Fatalf("ts %d n %d off %d: wrote past dst at +%d", ts, n, off, i)
								}
							}
						}
					}
				}
			})
		})
	}
}

// TestShuffleRoundTrip checks inverse(forward(x)) == x.
func TestShuffleRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	forEachISA(t, func(t *testing.T) {
		for _, ts := range matrixTypesizes {
			for _, n := range []int{0, 1, 15, 64, 255, 1000, 4099, 65536 + 13} {
				src := randBytes(rng, n)
				mid, back := make([]byte, n), make([]byte, n)
				shuffle(mid, src, ts)
				unshuffle(back, mid, ts)
				if !bytes.Equal(back, src) {
					t.Fatalf("shuffle round trip ts %d n %d", ts, n)
				}
				bitshuffle(mid, src, ts)
				bitunshuffle(back, mid, ts)
				if !bytes.Equal(back, src) {
					t.Fatalf("bitshuffle round trip ts %d n %d", ts, n)
				}
			}
		}
	})
}

// BenchmarkShuffle measures the kernels of every level on 1 MiB blocks next
// to Go's copy, the bandwidth bound. Memory bandwidth on shared machines
// drifts within seconds, so each iteration times one copy and one kernel
// call back to back: MB/s is the kernel's, copy-MB/s copy's over the same
// iterations and x-copy their ratio.
func BenchmarkShuffle(b *testing.B) {
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(1, 1))
	src := randBytes(rng, n)
	dst := make([]byte, n)
	for _, kc := range kernelCases {
		b.Run(kc.name, func(b *testing.B) {
			for _, ts := range []int{2, 4, 8, 16} {
				b.Run(fmt.Sprintf("ts%d", ts), func(b *testing.B) {
					for _, l := range archISAs {
						b.Run(l.String(), func(b *testing.B) {
							defer useISA(l)()
							benchAgainstCopy(b, dst, src, func() { kc.dispatch(dst, src, ts) })
						})
					}
				})
			}
		})
	}
}

// benchAgainstCopy times kernel, which reads src and writes dst, right
// after a copy of src into dst in each iteration, so both see the same
// machine state: MB/s is the kernel's, copy-MB/s copy's over the same
// iterations and x-copy their ratio.
func benchAgainstCopy(b *testing.B, dst, src []byte, kernel func()) {
	var tCopy, tKernel time.Duration
	for b.Loop() {
		t0 := time.Now()
		copy(dst, src)
		t1 := time.Now()
		kernel()
		tKernel += time.Since(t1)
		tCopy += t1.Sub(t0)
	}
	mbps := func(d time.Duration) float64 {
		return float64(len(src)) * float64(b.N) / d.Seconds() / 1e6
	}
	b.ReportMetric(mbps(tKernel), "MB/s")
	b.ReportMetric(mbps(tCopy), "copy-MB/s")
	b.ReportMetric(tCopy.Seconds()/tKernel.Seconds(), "x-copy")
}

// TestShuffleTileStrides covers the 16-byte tile kernels (typesizes >= 16)
// on row strides (element counts) that alias in the L1 cache, which switch
// amd64 to the strip kernels, and on their neighbours, with element and
// byte remainders.
func TestShuffleTileStrides(t *testing.T) {
	if !tileRowsAlias(4096) || !tileRowsAlias(4096+8) || tileRowsAlias(4096+64) {
		t.Fatal("tileRowsAlias misjudges the usual strides")
	}
	rng := rand.New(rand.NewPCG(17, 18))
	var cases [][2]int // typesize, length
	for _, ts := range []int{16, 17, 24, 32, 48} {
		for _, e := range []int{63, 64, 65, 127, 128, 2048, 2049, 4096, 4097, 4104, 8192 + 3} {
			if ts*e > 200<<10 {
				continue
			}
			cases = append(cases, [2]int{ts, ts * e}, [2]int{ts, ts*e + ts - 1})
		}
	}
	for _, kc := range kernelCases[:2] {
		t.Run(kc.name, func(t *testing.T) {
			exps := make([][]byte, len(cases))
			srcs := make([][]byte, len(cases))
			for i, c := range cases {
				srcs[i] = randBytes(rng, c[1])
				exps[i] = make([]byte, c[1])
				kc.ref(exps[i], srcs[i], c[0])
			}
			forEachISA(t, func(t *testing.T) {
				for i, c := range cases {
					checkKernel(t, kc.name, kc.dispatch, exps[i], srcs[i], c[0])
				}
			})
		})
	}
}

// TestBitshuffleChunks covers blocks of several bitshuffle passes
// (bitChunk elements each) with a shorter last one.
func TestBitshuffleChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	var cases [][2]int // typesize, length
	for _, ts := range []int{2, 3, 16, 24, 255, 256} {
		c := bitChunk(ts)
		cases = append(cases, [2]int{ts, (c + 8) * ts}, [2]int{ts, (2*c+64)*ts + ts - 1}, [2]int{ts, (3*c - 8) * ts})
	}
	for _, kc := range kernelCases[2:] {
		t.Run(kc.name, func(t *testing.T) {
			exps := make([][]byte, len(cases))
			srcs := make([][]byte, len(cases))
			for i, c := range cases {
				srcs[i] = randBytes(rng, c[1])
				exps[i] = make([]byte, c[1])
				kc.ref(exps[i], srcs[i], c[0])
			}
			forEachISA(t, func(t *testing.T) {
				for i, c := range cases {
					checkKernel(t, kc.name, kc.dispatch, exps[i], srcs[i], c[0])
				}
			})
		})
	}
}
