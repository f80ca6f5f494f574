package blosc2

import (
	"bytes"
	"testing"
)

// fuzzKernels runs fwd and inv of every instruction-set level on src and
// compares them with the generic twins, with guard bytes past dst, and
// checks the round trip.
func fuzzKernels(t *testing.T, src []byte, ts int, bit bool) {
	n := len(src)
	run := func(ks *kernelSet, dst, src []byte, inverse bool) {
		switch {
		case bit && inverse:
			bitunshuffleWith(ks, dst, src, ts)
		case bit:
			bitshuffleWith(ks, dst, src, ts)
		case inverse:
			ks.unshuffle(dst, src, ts)
		default:
			ks.shuffle(dst, src, ts)
		}
	}
	want := make([]byte, n)
	wantInv := make([]byte, n)
	run(&genericKernels, want, src, false)
	run(&genericKernels, wantInv, src, true)
	got := make([]byte, n+guard)
	for _, l := range archISAs {
		ks := archKernels(l)
		for inverse, exp := range [][]byte{want, wantInv} {
			for i := range got {
				got[i] = 0x5a
			}
			run(&ks, got[:n:n], src, inverse == 1)
			if !bytes.Equal(got[:n], exp) {
				t.Fatalf("%s bit=%v inverse=%v ts %d len %d: differs from generic", l, bit, inverse == 1, ts, n)
			}
			for i, v := range got[n:] {
				if v != 0x5a {
					t.Fatalf("%s bit=%v inverse=%v ts %d len %d: wrote past dst at +%d", l, bit, inverse == 1, ts, n, i)
				}
			}
		}
		back := make([]byte, n)
		run(&ks, back, want, true)
		if !bytes.Equal(back, src) {
			t.Fatalf("%s bit=%v ts %d len %d: round trip differs", l, bit, ts, n)
		}
	}
}

func fuzzSeeds(f *testing.F) {
	for _, ts := range []uint8{1, 2, 3, 4, 8, 12, 16, 17, 24, 255} {
		for _, n := range []int{0, 7, 64, 129, 1000, 4099} {
			src := make([]byte, n)
			for i := range src {
				src[i] = byte(i*131 + int(ts))
			}
			f.Add(src, ts, uint8(n%64))
		}
	}
}

// FuzzShuffle compares the byte shuffle kernels of every level with the
// generic ones on random typesizes, lengths, alignments and data.
func FuzzShuffle(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, ts, off uint8) {
		if ts == 0 {
			ts = 1
		}
		o := min(int(off%64), len(data))
		fuzzKernels(t, data[o:], int(ts), false)
	})
}

// FuzzBitshuffle does the same for the bit shuffle.
func FuzzBitshuffle(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, ts, off uint8) {
		if ts == 0 {
			ts = 1
		}
		o := min(int(off%64), len(data))
		fuzzKernels(t, data[o:], int(ts), true)
	})
}
