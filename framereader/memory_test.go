package framereader_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/framewriter"
)

// TestBytesReadersLeaveInputIntact: Readers over bytes in memory decode
// chunks where they lie, yet what they hand out is the caller's to change:
// Chunk and AppendChunk return copies, and decoding never writes to the
// input (one frame and a concatenation).
func TestBytesReadersLeaveInputIntact(t *testing.T) {
	one := makeFrame()
	for _, in := range [][]byte{one, append(bytes.Clone(one), one...)} {
		orig := bytes.Clone(in)
		rs, err := framereader.NewReadersBytes(in)
		if err != nil {
			t.Fatal(err)
		}
		for f, r := range rs {
			var want []byte
			for i := range r.NumChunks() {
				if want, err = r.DecodeChunk(want, i); err != nil {
					t.Fatalf("frame %d, chunk %d: %v", f, i, err)
				}
				c, err := r.Chunk(i)
				if err != nil {
					t.Fatal(err)
				}
				clear(c)
				a, err := r.AppendChunk(make([]byte, 0, 1<<20), i)
				if err != nil {
					t.Fatal(err)
				}
				clear(a)
			}
			got := make([]byte, r.Size())
			if _, err := r.ReadAt(got, 0); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("frame %d: ReadAt after clearing the chunks handed out differs from DecodeChunk before", f)
			}
		}
		if !bytes.Equal(in, orig) {
			t.Fatal("the input changed")
		}
	}
}

// TestChunkReaderRefusesChunkOverChunkSize: read front to back, a chunk
// whose header was damaged to declare more bytes than the frame's chunk
// size fails with ErrCorrupt before any of its bytes are yielded, rather
// than when the trailer's checksums arrive.
func TestChunkReaderRefusesChunkOverChunkSize(t *testing.T) {
	// Written to a file, so that the header's sizes are patched: the
	// chunk size is then known from the start.
	path := filepath.Join(t.TempDir(), "f.b2frame")
	w, err := framewriter.Create(path, framewriter.WithCParams(blosc2.DefaultCParams()))
	if err != nil {
		t.Fatal(err)
	}
	for c := range 3 {
		if err := w.WriteChunk(bytes.Repeat([]byte{byte(c), 1, 2, 3, 4, 5, 6, 7}, 8000)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := framereader.NewReaderBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	off, ok := r.ChunkOffset(1)
	if !ok {
		t.Fatal("no offset for chunk 1")
	}
	if p, err := blosc2.ParsePrefix(b[off:]); err != nil || p.Nbytes != 64000 {
		t.Fatalf("chunk 1 at %d: %+v, %v", off, p, err)
	}
	b[off+6] ^= 0x01 // nbytes += 65536: more than the chunk size, 64000
	s, err := framereader.NewChunkReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(); err != nil {
		t.Fatalf("chunk 0: %v", err)
	}
	if c, err := s.Next(); !errors.Is(err, blosc2.ErrCorrupt) || c != nil {
		t.Fatalf("chunk 1: %d bytes, %v; want ErrCorrupt", len(c), err)
	}
}
