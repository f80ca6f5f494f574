package framewriter

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
)

// Frames hold Blosc2 chunks: Blosc1 parameters are refused, and so is a
// snappy chunk, which C-Blosc2 could not read.
func TestFramesRefuseBlosc1(t *testing.T) {
	p := blosc2.DefaultCParams()
	p.Format = blosc2.ChunkBlosc1
	if _, err := NewWriter(new(bytes.Buffer), WithCParams(p)); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Fatalf("New with Blosc1 parameters: %v", err)
	}
	p.Codec = blosc2.Snappy
	chunk, err := blosc2.Compress(nil, bytes.Repeat([]byte("frame "), 1000), &p)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteCompressedChunk(chunk); !errors.Is(err, blosc2.ErrInvalidOption) || !strings.Contains(err.Error(), "snappy") {
		t.Fatalf("WriteCompressedChunk(snappy chunk): %v", err)
	}
	// A Blosc1 LZ4 chunk is one C-Blosc2 reads: accepted.
	p.Codec = blosc2.LZ4
	if chunk, err = blosc2.Compress(nil, bytes.Repeat([]byte("frame "), 1000), &p); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteCompressedChunk(chunk); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := framereader.NewReaderBytes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.DecodeChunk(nil, 0)
	if err != nil || !bytes.Equal(got, bytes.Repeat([]byte("frame "), 1000)) || r.NumChunks() != 1 {
		t.Fatalf("reading the frame back: %v", err)
	}
}
