package framewriter_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/framewriter"
)

// Write a frame file with a metalayer and a vlmetalayer, and read it back.
func Example() {
	path := filepath.Join(os.TempDir(), "example.b2frame")
	defer os.Remove(path)
	p := blosc2.DefaultCParams()
	p.Codec = blosc2.LZ4
	p.TypeSize = 4
	w, err := framewriter.Create(path, framewriter.WithCParams(p),
		framewriter.WithMetalayer("units", []byte("mV")))
	if err != nil {
		log.Fatal(err)
	}
	samples := bytes.Repeat([]byte{1, 0, 0, 0, 2, 0, 0, 0}, 5000)
	for range 3 {
		if err := w.WriteChunk(samples); err != nil {
			log.Fatal(err)
		}
	}
	w.WriteSpecial(blosc2.SpecialZero, len(samples), nil) // stored as an index entry
	w.SetVLMetalayer("note", []byte("calibrated"))
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	r, err := framereader.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	units, _ := r.Metalayer("units")
	note, _ := r.VLMetalayer("note")
	fmt.Println(r.NumChunks(), "chunks,", r.Size(), "bytes,", string(units), string(note))
	// Output: 4 chunks, 160000 bytes, mV calibrated
}

// A frame written to a pipe has its header sizes unpatched: it is read in
// one pass, and Repair makes it a standard frame on a seekable destination.
func Example_pipe() {
	pr, pw := io.Pipe()
	go func() {
		w, _ := framewriter.NewWriter(pw) // a pipe cannot seek
		for i := range 4 {
			w.WriteChunk(bytes.Repeat([]byte{byte(i)}, 100000))
		}
		pw.CloseWithError(w.Close())
	}()
	var frame bytes.Buffer
	s, err := framereader.NewChunkReader(io.TeeReader(pr, &frame))
	if err != nil {
		log.Fatal(err)
	}
	n, err := s.WriteTo(io.Discard)
	fmt.Println(n, err, s.Info().Unpatched)

	f, _ := os.CreateTemp("", "repaired")
	defer os.Remove(f.Name())
	if err := framewriter.Repair(f, &frame); err != nil {
		log.Fatal(err)
	}
	f.Close()
	r, _ := framereader.Open(f.Name())
	fmt.Println(r.NumChunks(), r.Info().Unpatched)
	r.Close()
	// Output:
	// 400000 <nil> true
	// 4 false
}

// Grow an archive day after day: every session leaves a valid frame.
func ExampleAppend() {
	path := filepath.Join(os.TempDir(), "archive.b2frame")
	defer os.Remove(path)
	w, _ := framewriter.Create(path)
	w.WriteChunk(bytes.Repeat([]byte("day 1 "), 10000))
	w.Close()
	for day := 2; day <= 3; day++ {
		w, err := framewriter.Append(path)
		if err != nil {
			log.Fatal(err)
		}
		w.WriteChunk(bytes.Repeat([]byte(fmt.Sprintf("day %d ", day)), 10000))
		if err := w.Close(); err != nil {
			log.Fatal(err)
		}
	}
	r, _ := framereader.Open(path)
	defer r.Close()
	last := make([]byte, 6)
	r.ReadAt(last, r.Size()-6)
	fmt.Printf("%d chunks, ends with %q\n", r.NumChunks(), last)
	// Output: 3 chunks, ends with "day 3 "
}

// Rebuild a frame whose writer died in the middle of a chunk.
func ExampleRecoverFile() {
	dir, _ := os.MkdirTemp("", "example-recover")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "torn.b2frame")
	var buf bytes.Buffer
	w, _ := framewriter.NewWriter(&buf)
	x := uint32(1)
	for range 5 {
		chunk := make([]byte, 50000)
		for i := range chunk {
			x = x*1664525 + 1013904223
			chunk[i] = byte(x >> 24)
		}
		w.WriteChunk(chunk)
	}
	w.Close()
	os.WriteFile(path, buf.Bytes()[:buf.Len()-1000], 0o644) // the last chunk is torn

	rep, err := framewriter.RecoverFile(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Chunks, "chunks kept,", rep.Nbytes, "bytes; the torn bytes saved to", filepath.Base(rep.DroppedFile))
	// Output: 4 chunks kept, 200000 bytes; the torn bytes saved to torn.b2frame.recover-dropped-200225
}

// A sparse frame is a directory: one file per chunk plus chunks.b2frame.
func ExampleCreateSparse() {
	dir := filepath.Join(os.TempDir(), "example-sparse.b2frame")
	defer os.RemoveAll(dir)
	w, err := framewriter.CreateSparse(dir)
	if err != nil {
		log.Fatal(err)
	}
	w.WriteChunk(bytes.Repeat([]byte("abcd"), 4000))
	w.WriteChunk(bytes.Repeat([]byte("efgh"), 4000))
	w.Close()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		fmt.Println(e.Name())
	}
	// Output:
	// 00000000.chunk
	// 00000001.chunk
	// chunks.b2frame
}
