package framereader_test

import (
	"errors"
	"runtime"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/hostile"
)

// TestVariableLayoutWithinCap: a variable-size frame whose repeated-value
// index names one stored chunk 268 million times needs 2 GiB to lay out
// its chunk sizes; under a 1 MiB cap it fails with ErrTooLarge having
// allocated little, instead of allocating the layout.
func TestVariableLayoutWithinCap(t *testing.T) {
	c, err := blosc2.Compress(nil, make([]byte, 4096), nil)
	if err != nil {
		t.Fatal(err)
	}
	frame := hostile.VariableLoopingIndex(c, 268_435_450)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	r, err := framereader.NewReaderBytes(frame, framereader.WithMaxMemory(1<<20))
	if err == nil {
		_, err = r.ReadAt(make([]byte, 16), 0)
	}
	runtime.ReadMemStats(&ms)
	if !errors.Is(err, blosc2.ErrTooLarge) {
		t.Fatalf("%v, want ErrTooLarge", err)
	}
	if alloc := ms.TotalAlloc - before; alloc > 64<<20 {
		t.Fatalf("%d bytes allocated", alloc)
	}
}
