package framereader_test

import (
	"bytes"
	"fmt"
	"io"
	"log"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/framewriter"
)

// makeFrame returns a frame of 4 chunks of 8-byte integers.
func makeFrame() []byte {
	var buf bytes.Buffer
	p := blosc2.DefaultCParams()
	w, _ := framewriter.NewWriter(struct{ io.Writer }{&buf}, framewriter.WithCParams(p),
		framewriter.WithMetalayer("shape", []byte{0x91, 0xcd, 0x7d, 0x00})) // msgpack [32000]
	for c := range 4 {
		chunk := make([]byte, 64000)
		for i := range 8000 {
			chunk[8*i] = byte(c*8000 + i)
		}
		w.WriteChunk(chunk)
	}
	w.Close()
	return buf.Bytes()
}

// Read any range of the uncompressed data: only the blocks holding it are
// decoded.
func ExampleReader_ReadAt() {
	r, err := framereader.NewReaderBytes(makeFrame())
	if err != nil {
		log.Fatal(err)
	}
	p := make([]byte, 16)
	r.ReadAt(p, 8*12345) // items 12345 and 12346
	fmt.Println(p[0], p[8], r.NumChunks(), r.Size())
	shape, _ := r.MetalayerValue("shape")
	fmt.Println(shape)
	// Output:
	// 57 58 4 256000
	// [32000]
}

// Read a frame front to back from a plain io.Reader.
func ExampleChunkReader() {
	s, err := framereader.NewChunkReader(bytes.NewReader(makeFrame()))
	if err != nil {
		log.Fatal(err)
	}
	for {
		c, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		h, _ := blosc2.ParseHeader(c)
		fmt.Print(h.Nbytes, " ")
	}
	fmt.Println()
	// Output: 64000 64000 64000 64000
}

// Tell formats apart from their first bytes.
func ExampleDetect() {
	frame := makeFrame()
	chunk, _ := blosc2.Compress(nil, make([]byte, 100), nil)
	fmt.Println(framereader.Detect(frame, int64(len(frame))))
	fmt.Println(framereader.Detect(chunk, int64(len(chunk))))
	fmt.Println(framereader.Detect([]byte("PK\x03\x04 a zip file"), 18))
	// Output:
	// cframe
	// chunk
	// unknown
}
