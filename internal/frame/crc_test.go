package frame

import (
	"hash/crc32"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestFoldConstants derives the kernel's fold constants from CRC-32C's
// polynomial: {x^(D+31) mod P, x^(D-33) mod P}, bit-reflected, for D =
// 1024 and 128 bits (crc_amd64.s).
func TestFoldConstants(t *testing.T) {
	xpow := func(n int) uint32 { // x^n mod P, P = 0x1EDC6F41 in normal form
		r := uint64(1)
		for range n {
			r <<= 1
			if r&(1<<32) != 0 {
				r ^= 1<<32 | 0x1EDC6F41
			}
		}
		return uint32(r)
	}
	for _, c := range []struct {
		d      int
		lo, hi uint32
	}{{1024, 0x6992cea2, 0x0d3b6092}, {128, 0xf20c0dfe, 0x493c7d27}} {
		if lo, hi := bits.Reverse32(xpow(c.d+31)), bits.Reverse32(xpow(c.d-33)); lo != c.lo || hi != c.hi {
			t.Errorf("fold over %d bits: %#x %#x, the kernel has %#x %#x", c.d, lo, hi, c.lo, c.hi)
		}
	}
}

// TestUpdateCRC: updateCRC equals hash/crc32 for every length around the
// kernel's thresholds and block size, with any starting CRC and any
// alignment.
func TestUpdateCRC(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 70_000)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	lengths := []int{0, 1, 127, 128, 255, 256, 1023, 1024, 1025, 1151, 1152, 4096, 65536, 65599}
	for range 200 {
		lengths = append(lengths, rng.IntN(len(buf)-8))
	}
	for _, n := range lengths {
		for _, off := range []int{0, 1, 7} {
			crc := rng.Uint32()
			p := buf[off : off+n]
			if got, want := updateCRC(crc, p), crc32.Update(crc, castagnoli, p); got != want {
				t.Fatalf("%d bytes at %d from %#x: %#x, hash/crc32 %#x", n, off, crc, got, want)
			}
		}
	}
}

// FuzzUpdateCRC checks the kernel against its twin, hash/crc32.
func FuzzUpdateCRC(f *testing.F) {
	f.Add(uint32(0), make([]byte, 1024))
	f.Add(uint32(0xFFFFFFFF), make([]byte, 3000))
	f.Fuzz(func(t *testing.T, crc uint32, p []byte) {
		if got, want := updateCRC(crc, p), crc32.Update(crc, castagnoli, p); got != want {
			t.Fatalf("%d bytes from %#x: %#x, hash/crc32 %#x", len(p), crc, got, want)
		}
	})
}

func BenchmarkCRC(b *testing.B) {
	for _, n := range []int{4 << 10, 128 << 10, 1 << 20} {
		p := make([]byte, n)
		b.Run("kernel/"+sizeName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for range b.N {
				updateCRC(0, p)
			}
		})
		b.Run("hash-crc32/"+sizeName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for range b.N {
				crc32.Update(0, castagnoli, p)
			}
		})
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return itoa(n>>20) + "MiB"
	}
	return itoa(n>>10) + "KiB"
}

func itoa(n int) string {
	s := ""
	for ; n > 0 || s == ""; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// TestChunkCRCPieces: the checksum of a chunk given in pieces is hash/crc32's
// of their concatenation, whatever the cuts (empty pieces, pieces shorter
// and longer than the kernel's blocks).
func TestChunkCRCPieces(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 300_000)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	want := crc32.Checksum(buf, crc32.MakeTable(crc32.Castagnoli))
	for range 200 {
		var pieces [][]byte
		for rest := buf; len(rest) > 0; {
			n := min(len(rest), rng.IntN(3)*rng.IntN(70_000)+rng.IntN(300))
			pieces = append(pieces, rest[:n])
			rest = rest[n:]
		}
		if got := ChunkCRC(pieces...); got != want {
			t.Fatalf("%d pieces: %#x, want %#x", len(pieces), got, want)
		}
	}
}
