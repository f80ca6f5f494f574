package stream

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
)

// Streams are frames, which hold Blosc2 chunks: Blosc1 parameters are
// refused when the Writer is made.
func TestWriterRefusesBlosc1(t *testing.T) {
	p := blosc2.DefaultCParams()
	p.Format = blosc2.ChunkBlosc1
	_, err := NewWriter(new(bytes.Buffer), WithCParams(p))
	if !errors.Is(err, blosc2.ErrInvalidOption) || !strings.Contains(err.Error(), "blosc1") {
		t.Fatalf("got %v", err)
	}
}
