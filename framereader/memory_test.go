package framereader_test

import (
	"bytes"
	"testing"

	"github.com/blosc2go/blosc2/framereader"
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
