package b2nd

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/blosc2go/blosc2/internal/testvec"
)

// Every b2nd array C-Blosc2 wrote decodes to the manifest's digest (whole
// array, C order), serially and with goroutines; random slices equal the
// same slices of the whole array.
func TestVectorsRead(t *testing.T) {
	slicesChecked := 0
	for _, v := range ndVectors(t) {
		t.Run(v.File, func(t *testing.T) {
			for _, threads := range []int{1, 3} {
				a, err := Open(v.Path(), WithConcurrency(threads))
				if err != nil {
					t.Fatal(err)
				}
				defer a.Close()
				if !slices.Equal(a.Shape(), v.Params.Shape) || !slices.Equal(a.ChunkShape(), v.Params.Chunkshape) ||
					!slices.Equal(a.BlockShape(), v.Params.Blockshape) || a.DTypeString() != v.Params.Dtype ||
					a.ItemSize() != v.Params.Typesize || a.NChunks() != int64(v.Params.NChunks) {
					t.Fatalf("metadata %+v", a.Meta())
				}
				all, err := a.ReadAll(nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(all) != v.RawLen || testvec.SHA256(all) != v.RawSHA256 {
					t.Fatalf("threads %d: %d bytes, digest %s, want %d %s", threads, len(all), testvec.SHA256(all), v.RawLen, v.RawSHA256)
				}
				var wt bytes.Buffer
				if n, err := a.WriteTo(&wt); err != nil || n != int64(v.RawLen) || testvec.SHA256(wt.Bytes()) != v.RawSHA256 {
					t.Fatalf("WriteTo: %d bytes, %v", n, err)
				}
				rng := rand.New(rand.NewPCG(uint64(len(v.File)), uint64(threads)))
				for range 40 {
					start, stop := randomSlice(rng, a.Shape())
					got, err := a.ReadSlice(nil, start, stop)
					if err != nil {
						t.Fatalf("slice %v-%v: %v", start, stop, err)
					}
					if !bytes.Equal(got, refSlice(all, a.Shape(), start, stop, a.ItemSize())) {
						t.Fatalf("slice %v-%v differs from the whole array", start, stop)
					}
					slicesChecked++
				}
			}
		})
	}
	t.Logf("%d slices checked", slicesChecked)
}

// The same arrays through an io.ReaderAt and a byte slice (contiguous
// frames only).
func TestVectorsReaderAt(t *testing.T) {
	for _, v := range ndVectors(t) {
		if v.Params.Storage != "cframe" {
			continue
		}
		b, err := os.ReadFile(v.Path())
		if err != nil {
			t.Fatal(err)
		}
		for _, open := range []func() (*Array, error){
			func() (*Array, error) { return NewReader(bytes.NewReader(b), int64(len(b))) },
			func() (*Array, error) { return NewReaderBytes(b) },
		} {
			a, err := open()
			if err != nil {
				t.Fatalf("%s: %v", v.File, err)
			}
			all, err := a.ReadAll(nil)
			if err != nil || testvec.SHA256(all) != v.RawSHA256 {
				t.Fatalf("%s: %v", v.File, err)
			}
		}
	}
}
