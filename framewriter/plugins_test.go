package framewriter

import (
	"bytes"
	"os"
	"testing"

	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// A b2nd frame of ZFP, NDLZ or NDCELL chunks (C-Blosc2's) cut after its
// last chunk is recovered whole: the chunks decode only with the block
// shape, which recovery takes from the frame's b2nd metalayer, and they
// decode afterwards to the same bytes as before.
func TestRecoverPluginFrames(t *testing.T) {
	n := 0
	for _, v := range testvec.LoadPlugins(t) {
		if v.Codec != 33 && v.Codec != 32 && v.Filter != 32 {
			continue
		}
		r, err := framereader.Open(v.Path())
		if err != nil {
			t.Fatal(err)
		}
		nchunks := r.NumChunks()
		if nchunks < 2 {
			r.Close()
			continue
		}
		var want []byte
		for i := range nchunks {
			if want, err = r.DecodeChunk(want, i); err != nil {
				t.Fatalf("%s: %v", v.File, err)
			}
		}
		end, _ := r.ChunkOffset(nchunks - 1)
		last, _ := r.Chunk(nchunks - 1)
		r.Close()
		b, err := os.ReadFile(v.Path())
		if err != nil {
			t.Fatal(err)
		}
		stop := end + int64(len(last)) // ChunkOffset counts from the frame start
		if !bytes.Equal(b[end:stop], last) {
			t.Fatalf("%s: chunk %d is not at offset %d", v.File, nchunks-1, end)
		}
		cut := b[:stop]
		var out bytes.Buffer
		rep, err := Recover(&out, bytes.NewReader(cut), int64(len(cut)))
		if err != nil {
			t.Fatalf("%s: %v", v.File, err)
		}
		if rep.Chunks != nchunks {
			t.Fatalf("%s: %d of %d chunks recovered", v.File, rep.Chunks, nchunks)
		}
		rr, err := framereader.NewReaderBytes(out.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		for i := range rr.NumChunks() {
			if got, err = rr.DecodeChunk(got, i); err != nil {
				t.Fatalf("%s: recovered chunk %d: %v", v.File, i, err)
			}
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: recovered frame decodes differently", v.File)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no multi-chunk plugin vector")
	}
}
