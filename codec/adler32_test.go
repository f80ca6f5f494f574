package codec

import (
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

// TestAdler32: adler32Update (the kernel where there is one) and
// adler32Generic agree with hash/adler32 on lengths around every step and
// block boundary, on bytes of all 0xff (the largest sums: any overflow of
// a lane shows), and when continued from any earlier state.
func TestAdler32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 3*adlerNMax+100)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	ones := make([]byte, len(random))
	for i := range ones {
		ones[i] = 0xff
	}
	var lengths []int
	for _, base := range []int{0, 32, 64, 5536, adlerNMax, 2 * 5536, 2 * adlerNMax, 3 * adlerNMax} {
		for d := -33; d <= 33; d++ {
			if n := base + d; n >= 0 && n <= len(random) {
				lengths = append(lengths, n)
			}
		}
	}
	for _, p := range [][]byte{random, ones} {
		for _, n := range lengths {
			want := adler32.Checksum(p[:n])
			if got := adler32Update(1, p[:n]); got != want {
				t.Fatalf("%d bytes (first %#x): %#08x, hash/adler32 %#08x", n, p[0], got, want)
			}
			if got := adler32Generic(1, p[:n]); got != want {
				t.Fatalf("generic, %d bytes (first %#x): %#08x, hash/adler32 %#08x", n, p[0], got, want)
			}
			// Continued from the state after a prefix.
			k := n / 3
			if got := adler32Update(adler32Update(1, p[:k]), p[k:n]); got != want {
				t.Fatalf("%d bytes in two pieces at %d: %#08x, hash/adler32 %#08x", n, k, got, want)
			}
		}
	}
}

// FuzzAdler32: the kernel against its Go twin from any state (both sums
// anywhere below the modulus), and against hash/adler32 from the start.
func FuzzAdler32(f *testing.F) {
	f.Add(uint16(1), uint16(0), []byte("hello, world"))
	f.Add(uint16(65520), uint16(65520), make([]byte, 6000))
	f.Fuzz(func(t *testing.T, s1, s2 uint16, p []byte) {
		adler := uint32(s2%adlerMod)<<16 | uint32(s1%adlerMod)
		if got, want := adler32Update(adler, p), adler32Generic(adler, p); got != want {
			t.Fatalf("%d bytes from %#08x: %#08x, generic %#08x", len(p), adler, got, want)
		}
		if got, want := adler32Update(1, p), adler32.Checksum(p); got != want {
			t.Fatalf("%d bytes: %#08x, hash/adler32 %#08x", len(p), got, want)
		}
	})
}

func BenchmarkAdler32(b *testing.B) {
	p := make([]byte, 256<<10)
	for i := range p {
		p[i] = byte(i * 7)
	}
	b.Run("ours", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			adler32Update(1, p)
		}
	})
	b.Run("hash-adler32", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for b.Loop() {
			adler32.Checksum(p)
		}
	})
}
