package stream

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/blosc2go/blosc2"
)

// TestIndexOverMemoryCap: an index that would take more than WithMaxMemory
// allows (here 4,000 chunks: 32,000 bytes of entries against 16 KiB) is
// refused with ErrTooLarge before it is decoded, through the index and
// front to back.
func TestIndexOverMemoryCap(t *testing.T) {
	data := testData(t)[:64000]
	frame, err := EncodeAll(nil, data, WithChunkSize(16))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeAll(nil, frame, WithMaxMemory(16<<10)); !errors.Is(err, blosc2.ErrTooLarge) {
		t.Fatalf("through the index: %v", err)
	}
	r, err := NewReader(struct{ io.Reader }{bytes.NewReader(frame)}, WithMaxMemory(16<<10))
	if err == nil {
		_, err = io.Copy(io.Discard, r)
	}
	if !errors.Is(err, blosc2.ErrTooLarge) {
		t.Fatalf("front to back: %v", err)
	}
	if got, err := DecodeAll(nil, frame, WithMaxMemory(64<<10)); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("within the cap: %v", err)
	}
}
