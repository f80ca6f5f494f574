package b2nd_test

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
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

// TestWriteToWithinCap: WriteTo writes a row of chunks at a time; when
// one is larger than WithMaxMemory it writes as many rows of the first
// axis as fit, and gives the same bytes as ReadAll under a larger cap; a
// single row larger than the cap fails with ErrTooLarge.
func TestWriteToWithinCap(t *testing.T) {
	const rows, cols = 40, 1000
	data := make([]byte, rows*cols*8)
	for i := range data {
		data[i] = byte(i * 7 / 3)
	}
	path := filepath.Join(t.TempDir(), "a.b2nd")
	if err := b2nd.WriteFile(path, data, []int64{rows, cols}, "<f8", b2nd.WithChunkShape(20, 10), b2nd.WithBlockShape(5, 10)); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{20 * cols * 8, 50_000, cols * 8} {
		a, err := b2nd.Open(path, b2nd.WithMaxMemory(limit))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		n, err := a.WriteTo(&buf)
		a.Close()
		if err != nil || n != int64(len(data)) || !bytes.Equal(buf.Bytes(), data) {
			t.Errorf("cap %d: %d bytes, %v; equal %v", limit, n, err, bytes.Equal(buf.Bytes(), data))
		}
	}
	a, err := b2nd.Open(path, b2nd.WithMaxMemory(cols*8-1))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.WriteTo(io.Discard); !errors.Is(err, blosc2.ErrTooLarge) {
		t.Errorf("a row of %d bytes under a cap of one less: %v", cols*8, err)
	}
}
