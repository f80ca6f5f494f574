package b2nd_test

import (
	"bytes"
	"errors"
	"runtime"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/b2nd"
	"github.com/blosc2go/blosc2/internal/hostile"
)

// TestReadAllCapsOutput: ReadAll and ReadSlice allocate the slice the
// array's shape declares, so WithMaxMemory caps it. A 221-byte array of four
// million float64 zeros (one chunk each, recorded as a run in the index,
// as b2nd.zeros writes them) fails with ErrTooLarge under a cap one byte
// short of its 32 MiB, without allocating them, and reads as exactly its
// zeros under a cap of its size; a slice within the cap still reads.
func TestReadAllCapsOutput(t *testing.T) {
	const n = 1 << 22
	src := hostile.B2ndFillZeros(n)
	open := func(limit int) *b2nd.Array {
		a, err := b2nd.NewReaderBytes(src, b2nd.WithMaxMemory(limit))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := open(8*n - 1)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	got, err := a.ReadAll([]byte("kept"))
	runtime.ReadMemStats(&ms)
	if !errors.Is(err, blosc2.ErrTooLarge) || string(got) != "kept" {
		t.Fatalf("%d bytes declaring %d under a cap of one less: %d bytes, %v", len(src), 8*n, len(got), err)
	}
	if alloc := ms.TotalAlloc - before; alloc > 1<<20 {
		t.Fatalf("refusing it allocated %d bytes", alloc)
	}
	if got, err := a.ReadSlice(nil, []int64{10}, []int64{1010}); err != nil || !bytes.Equal(got, make([]byte, 8000)) {
		t.Fatalf("a slice of 8000 bytes: %d bytes, %v", len(got), err)
	}
	got, err = open(8 * n).ReadAll(nil)
	if err != nil || !bytes.Equal(got, make([]byte, 8*n)) {
		t.Fatalf("under a cap of its size: %d bytes, %v", len(got), err)
	}
}
