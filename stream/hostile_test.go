package stream

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framewriter"
)

// TestIndexOverMemoryCap: an index that would take more than WithMaxMemory
// allows (here 4,000 chunks: 32,000 bytes of entries against 16 KiB) is
// refused with ErrTooLarge before it is decoded, through the index and
// front to back.
func TestIndexOverMemoryCap(t *testing.T) {
	data := testData(t)[:64000]
	frame, err := EncodeAll(data, nil, WithChunkSize(16))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeAll(frame, nil, WithMaxMemory(16<<10)); !errors.Is(err, blosc2.ErrTooLarge) {
		t.Fatalf("through the index: %v", err)
	}
	r, err := NewReader(struct{ io.Reader }{bytes.NewReader(frame)}, WithMaxMemory(16<<10))
	if err == nil {
		_, err = io.Copy(io.Discard, r)
	}
	if !errors.Is(err, blosc2.ErrTooLarge) {
		t.Fatalf("front to back: %v", err)
	}
	if got, err := DecodeAll(frame, nil, WithMaxMemory(64<<10)); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("within the cap: %v", err)
	}
}

// TestHugeSpecialChunkStreams: a frame holding one 40-byte chunk that
// declares 2^31−40 zero bytes is read front to back and through the index
// in 64 KiB pieces: every byte is a zero and the Reader allocates
// megabytes, not the 2 GiB the chunk declares.
func TestHugeSpecialChunkStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("produces 2 GiB of zeros twice: seconds; run without -short")
	}
	const huge = blosc2.MaxBufferSize &^ 7 // whole float64s: stored as a repeated value
	c, err := blosc2.AppendSpecial(nil, blosc2.SpecialZero, huge, 8, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var frame bytes.Buffer
	w, err := framewriter.NewWriter(struct{ io.Writer }{&frame}, framewriter.WithSpecials(framewriter.SpecialsInline))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteCompressedChunk(c); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, conc := range []int{1, 2} {
		for _, seq := range []bool{true, false} {
			src := frameSource(frame.Bytes(), seq)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			r, err := NewReader(src, WithReaderConcurrency(conc))
			if err != nil {
				t.Fatal(err)
			}
			var z zeroCounter
			_, err = io.Copy(&z, r)
			r.Close()
			runtime.ReadMemStats(&ms)
			if err != nil || z.n != huge || z.nonZero {
				t.Fatalf("conc %d sequential %v: %d bytes, non-zero %v, %v", conc, seq, z.n, z.nonZero, err)
			}
			if alloc := ms.TotalAlloc - before; alloc > 64<<20 {
				t.Fatalf("conc %d sequential %v: %d bytes allocated", conc, seq, alloc)
			}
		}
	}
}

// zeroCounter counts bytes and notes any that is not zero.
type zeroCounter struct {
	n       int64
	nonZero bool
}

func (z *zeroCounter) Write(p []byte) (int, error) {
	z.n += int64(len(p))
	for q := p; len(q) > 0 && !z.nonZero; {
		k := min(len(q), len(zeros))
		z.nonZero = !bytes.Equal(q[:k], zeros[:k])
		q = q[k:]
	}
	return len(p), nil
}

var zeros = make([]byte, 1<<20)
