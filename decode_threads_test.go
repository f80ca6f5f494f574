package blosc2

import (
	"bytes"
	"cmp"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/blosc2go/blosc2/codec"
)

// TestPaidThreads: a chunk with no filter but shuffle is decoded on one
// goroutine per 768 KiB of output at 32:1 or more under LZ4 and BloscLZ,
// per 384 KiB under zstd, and per two blocks (half of them, rounded up)
// either way; per 256 KiB under LZ4 below that, however many it is
// given; any other keeps every goroutine. The chunks are compressed for real and their headers
// read back.
func TestPaidThreads(t *testing.T) {
	stamps, err := os.ReadFile("testdata/data/nab_nyc_taxi.ts.i64.bin")
	if err != nil {
		t.Fatal(err)
	}
	// tile repeats the timestamps to n bytes, whole elements.
	tile := func(n int) []byte { return bytes.Repeat(stamps, n/len(stamps)+1)[:n/8*8] }
	// random is 1 MiB of bytes below k, from one generator.
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(k int) []byte {
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = byte(rng.IntN(k))
		}
		return b
	}
	// sparse is n zero bytes but for a random one every 512.
	sparse := func(n int) []byte {
		b := make([]byte, n)
		for i := 0; i < n; i += 512 {
			b[i] = byte(rng.IntN(256))
		}
		return b
	}
	noise := random(4) // 2 bits a byte: 2-4:1
	bits := random(2)  // what BloscLZ does not store raw
	for _, tc := range []struct {
		name   string
		src    []byte
		codec  codec.ID
		filter FilterID
		bs     int // 256 KiB when 0
		want   int
	}{
		{"lz4 1MiB 32:1+", sparse(1 << 20), LZ4, NoFilter, 0, 1},
		{"lz4 1.5MiB 32:1+", sparse(3 << 19), LZ4, NoFilter, 0, 2},
		{"lz4 1.5MiB 32:1+ in three blocks", sparse(3 << 19), LZ4, NoFilter, 512 << 10, 2},
		{"lz4 1.5MiB 32:1+ in two blocks", sparse(3 << 19), LZ4, NoFilter, 768 << 10, 1},
		{"lz4 4MiB 32:1+", sparse(4 << 20), LZ4, NoFilter, 0, 5},
		{"lz4 1MiB shuffle 26:1", tile(1 << 20), LZ4, Shuffle, 0, 4},
		{"lz4 1MiB noise", noise, LZ4, NoFilter, 0, 4},
		{"lz4 384KiB noise", noise[:384<<10], LZ4, NoFilter, 0, 1},
		{"lz4 512KiB noise", noise[:512<<10], LZ4, NoFilter, 0, 2},
		{"lz4 1MiB bitshuffle", tile(1 << 20), LZ4, BitShuffle, 0, math.MaxInt},
		{"zstd 1MiB shuffle 32:1+", tile(1 << 20), Zstd, Shuffle, 0, 2},
		{"zstd 1MiB shuffle 32:1+ in two blocks", tile(1 << 20), Zstd, Shuffle, 512 << 10, 1},
		{"zstd 1MiB shuffle 32:1+ in one block", tile(1 << 20), Zstd, Shuffle, 1 << 20, 1},
		{"zstd 512KiB shuffle 32:1+", tile(512 << 10), Zstd, Shuffle, 0, 1},
		{"zstd 1.5MiB shuffle 32:1+", tile(3 << 19), Zstd, Shuffle, 0, 3},
		{"zstd 1.5MiB shuffle 32:1+ in three blocks", tile(3 << 19), Zstd, Shuffle, 512 << 10, 2},
		{"zstd 1MiB noise", noise, Zstd, NoFilter, 0, math.MaxInt},
		{"blosclz 1MiB shuffle 32:1+", tile(1 << 20), BloscLZ, Shuffle, 0, 1},
		{"blosclz 1MiB bits", bits, BloscLZ, NoFilter, 0, math.MaxInt},
	} {
		p := DefaultCParams()
		p.Codec, p.Level, p.TypeSize, p.Filters = tc.codec, 5, 8, [MaxFilters]Filter{5: {ID: tc.filter}}
		p.BlockSize = cmp.Or(tc.bs, 256<<10)
		chunk, err := Compress(nil, tc.src, &p)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var dp DParams
		_, d, err := prepare(chunk, &dp)
		if err != nil || d == nil {
			t.Fatalf("%s: %v (decoder %v)", tc.name, err, d)
		}
		ratio := float64(len(tc.src)) / float64(len(chunk))
		if got := d.paidThreads(); got != tc.want {
			t.Errorf("%s (%.1f:1): %d goroutines, want %d", tc.name, ratio, got, tc.want)
		}
	}
}
