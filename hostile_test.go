package blosc2

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2/internal/errs"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// sentinels is errs.BadInput without ErrChecksum: a chunk carries no
// checksum, so the chunk layer never reports one.
var sentinels = slices.DeleteFunc(slices.Clone(errs.BadInput), func(e error) bool { return e == ErrChecksum })

// mustBeSentinel fails unless err wraps one of the package's sentinels.
func mustBeSentinel(t *testing.T, label string, err error) {
	t.Helper()
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("%s: error %q wraps no sentinel", label, err)
}

// decodeAny runs every decoding entry point on chunk; it reports the first
// error, and checks that success means exactly nbytes of output.
func decodeAny(t *testing.T, label string, chunk []byte) error {
	t.Helper()
	out, err := Decompress(nil, chunk, &DParams{Concurrency: 2, MaxMemory: 64 << 20})
	if err != nil {
		mustBeSentinel(t, label, err)
		return err
	}
	h, _ := ParseHeader(chunk)
	if len(out) != h.Nbytes {
		t.Fatalf("%s: decoded %d bytes, header says %d", label, len(out), h.Nbytes)
	}
	if n := h.Nbytes / h.TypeSize; n > 0 {
		if _, err := GetItems(nil, chunk, n/2, n-n/2, nil); err != nil {
			mustBeSentinel(t, label+" getitems", err)
		}
	}
	return nil
}

// TestHostileTruncated cuts every vector at many lengths: each prefix must
// fail with ErrTruncated (or another sentinel), never panic.
func TestHostileTruncated(t *testing.T) {
	for _, v := range testvec.Kind(t, "chunk") {
		chunk := v.Read(t)
		step := max(1, len(chunk)/200)
		for n := 0; n < len(chunk); n += step {
			if err := decodeAny(t, v.File, chunk[:n]); err == nil {
				t.Fatalf("%s cut to %d bytes decoded", v.File, n)
			}
		}
	}
}

// TestHostileMutations flips bytes and writes lying values into the header
// and the first block-start/stream-size words of every vector. Each
// mutant decodes with an error or with exactly nbytes, never panics.
func TestHostileMutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	lies := []uint32{0, 1, 3, 31, 32, 33, 255, 1 << 16, 1<<31 - 1, 1 << 31, 0xFFFFFFFF, 0xFFFFFF01}
	for _, v := range testvec.Kind(t, "chunk") {
		orig := v.Read(t)
		n := 300
		if testing.Short() {
			n = 40
		}
		for i := range n {
			c := append([]byte(nil), orig...)
			switch i % 3 {
			case 0: // random byte flips
				for range 1 + rng.IntN(4) {
					c[rng.IntN(len(c))] ^= byte(1 + rng.IntN(255))
				}
			case 1: // a lying 32-bit field in the header or table
				off := []int{4, 8, 12}[rng.IntN(3)]
				if len(c) > 40 && rng.IntN(2) == 0 {
					off = 32 + 4*rng.IntN(min(8, (len(c)-36)/4))
				}
				binary.LittleEndian.PutUint32(c[off:], lies[rng.IntN(len(lies))])
			case 2: // junk ids and flags
				off := []int{0, 2, 3, 16, 20, 21, 22, 30, 31}[rng.IntN(9)]
				if off < len(c) {
					c[off] = byte(rng.IntN(256))
				}
			}
			decodeAny(t, v.File, c)
		}
	}
}

// TestHostileNamedErrors checks specific lies against the error they must
// give, and that the message names the culprit.
func TestHostileNamedErrors(t *testing.T) {
	src := make([]byte, 10000)
	for i := range src {
		src[i] = byte(i * 7 / 13)
	}
	p := CParams{Codec: LZ4, Level: 5, TypeSize: 4, Filters: Pipeline(Filter{ID: Shuffle}), BlockSize: 2048}
	good, err := Compress(nil, src, &p)
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(f func(c []byte)) []byte {
		c := append([]byte(nil), good...)
		f(c)
		return c
	}
	for _, tc := range []struct {
		name  string
		chunk []byte
		want  error
		says  string
	}{
		{"short", good[:10], ErrTruncated, "16-byte"},
		{"cbytes past end", good[:len(good)-1], ErrTruncated, "declares"},
		{"negative nbytes", mutate(func(c []byte) { binary.LittleEndian.PutUint32(c[4:], 0x80000000) }), ErrHeader, "negative nbytes"},
		{"zero blocksize", mutate(func(c []byte) { binary.LittleEndian.PutUint32(c[8:], 0) }), ErrHeader, "blocksize"},
		{"huge blocksize", mutate(func(c []byte) { binary.LittleEndian.PutUint32(c[8:], MaxBlockSize+1) }), ErrHeader, "blocksize"},
		{"zero typesize", mutate(func(c []byte) { c[3] = 0 }), ErrHeader, "typesize"},
		{"block start past end", mutate(func(c []byte) { binary.LittleEndian.PutUint32(c[36:], uint32(len(c))) }), ErrCorrupt, "block 1 starts"},
		{"block start in header", mutate(func(c []byte) { binary.LittleEndian.PutUint32(c[32:], 8) }), ErrCorrupt, "block 0 starts"},
		{"stream size past end", mutate(func(c []byte) {
			binary.LittleEndian.PutUint32(c[binary.LittleEndian.Uint32(c[32:]):], 1<<30)
		}), ErrCorrupt, "past the chunk end"},
		{"bad run", mutate(func(c []byte) {
			binary.LittleEndian.PutUint32(c[binary.LittleEndian.Uint32(c[32:]):], 0xFFFFF000)
		}), ErrCorrupt, "bad run"},
		{"codec format 5", mutate(func(c []byte) { c[2] = c[2]&0x1F | 5<<5 }), ErrUnsupported, "codec format 5"},
		{"unregistered user codec", mutate(func(c []byte) { c[2] = c[2]&0x1F | 6<<5; c[22] = 200 }), ErrUnsupported, "codec id 200"},
		{"unknown filter", mutate(func(c []byte) { c[21] = 201 }), ErrUnsupported, "filter id 201"},
		{"special kind 6", mutate(func(c []byte) { c[31] = 6 << 4 }), ErrHeader, "special"},
		{"lazy chunk", mutate(func(c []byte) { c[31] = 0x08 }), ErrUnsupported, "lazy"},
		{"nan typesize 3", mutate(func(c []byte) { c[3] = 3; c[31] = 2 << 4; binary.LittleEndian.PutUint32(c[4:], 9999) }), ErrHeader, "NaN"},
		{"too large for cap", mutate(func(c []byte) {}), ErrTooLarge, "limit"},
	} {
		var err error
		if tc.name == "too large for cap" {
			_, err = Decompress(nil, tc.chunk, &DParams{MaxMemory: 9999})
		} else {
			_, err = Decompress(nil, tc.chunk, nil)
		}
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want %v mentioning %q", tc.name, err, tc.want, tc.says)
		}
	}
}

// TestHostileAllocation checks that a small garbage chunk declaring a huge
// size is refused before the output is allocated.
func TestHostileAllocation(t *testing.T) {
	c := make([]byte, 1024)
	c[0], c[1], c[2], c[3] = 5, 1, 0x05|1<<5, 1
	binary.LittleEndian.PutUint32(c[4:], 1<<30) // nbytes 1 GiB
	binary.LittleEndian.PutUint32(c[8:], 1<<20) // 1024 blocks of 1 MiB
	binary.LittleEndian.PutUint32(c[12:], 1024) // cbytes
	for i := 32; i+4 <= len(c); i += 4 {
		binary.LittleEndian.PutUint32(c[i:], 0x7FFFFFF0) // garbage starts
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Decompress(nil, c, nil)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("garbage decoded")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("refusing a 1 KiB chunk allocated %d bytes", grew)
	}
}

// TestRepeatRanges checks DecompressRange on repeated-value chunks at
// every offset of the period (against a naive fill).
func TestRepeatRanges(t *testing.T) {
	value := []byte{1, 2, 3, 4, 5, 6, 7}
	chunk, err := AppendSpecial(nil, SpecialValue, 7*50, 7, 0, value)
	if err != nil {
		t.Fatal(err)
	}
	for off := 0; off < 30; off++ {
		for _, n := range []int{0, 1, 6, 7, 8, 20, 100} {
			got, err := DecompressRange(nil, chunk, off, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range got {
				if b != value[(off+i)%7] {
					t.Fatalf("off %d n %d: byte %d is %d", off, n, i, b)
				}
			}
		}
	}
}
