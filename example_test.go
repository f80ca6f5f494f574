package blosc2_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
)

// Compress float32-like data into one chunk and decode it back.
func Example() {
	data := make([]byte, 4*10000)
	for i := range 10000 {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(1000+i/10))
	}
	p := blosc2.DefaultCParams()
	p.Codec, p.TypeSize = blosc2.LZ4, 4
	chunk, err := blosc2.Compress(nil, data, &p)
	if err != nil {
		log.Fatal(err)
	}
	back, err := blosc2.Decompress(nil, chunk, nil)
	if err != nil {
		log.Fatal(err)
	}
	h, _ := blosc2.ParseHeader(chunk)
	fmt.Println(len(back) == len(data), h.Nbytes, h.TypeSize, len(chunk) < len(data)/10)
	// Output: true 40000 4 true
}

// Read a few items without decoding the whole chunk.
func ExampleGetItems() {
	data := make([]byte, 8*100000)
	for i := range 100000 {
		binary.LittleEndian.PutUint64(data[8*i:], uint64(i*i))
	}
	p := blosc2.DefaultCParams()
	p.BlockSize = 8192 // small blocks: GetItems touches one
	chunk, _ := blosc2.Compress(nil, data, &p)
	items, err := blosc2.GetItems(nil, chunk, 5000, 2, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(binary.LittleEndian.Uint64(items), binary.LittleEndian.Uint64(items[8:]))
	// Output: 25000000 25010001
}

// Chunks that hold one value need no data at all.
func ExampleAppendSpecial() {
	chunk, _ := blosc2.AppendSpecial(nil, blosc2.SpecialValue, 1<<20, 0, 0, []byte{0, 0, 0x80, 0x3f}) // float32 1.0
	out, _ := blosc2.Decompress(nil, chunk, nil)
	fmt.Println(len(chunk), len(out), out[:4])
	// Output: 36 1048576 [0 0 128 63]
}

// Write one chunk of a Zarr v2 array: zarr-python, numcodecs and C-Blosc 1.x
// read Blosc1 chunks (version 2), not the Blosc2 chunks Compress writes by
// default. The array's .zarray names the compressor in numcodecs' terms;
// the chunk file holds the whole chunk shape, edge chunks padded with the
// fill value.
func Example_zarrV2() {
	dir, err := os.MkdirTemp("", "zarr")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	arr := filepath.Join(dir, "temperature.zarr")
	if err := os.Mkdir(arr, 0o755); err != nil {
		log.Fatal(err)
	}
	// A 1-D float64 array of 1000 values in chunks of 1000: one chunk, "0".
	zarray := `{"zarr_format": 2, "shape": [1000], "chunks": [1000], "dtype": "<f8", "order": "C",
 "fill_value": 0.0, "filters": null,
 "compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}}`
	if err := os.WriteFile(filepath.Join(arr, ".zarray"), []byte(zarray), 0o644); err != nil {
		log.Fatal(err)
	}
	data := make([]byte, 8*1000)
	for i := range 1000 {
		binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(15+float64(i%50)/10))
	}
	p := blosc2.CParams{
		Codec:    blosc2.LZ4,                                         // "cname": "lz4"
		Level:    5,                                                  // "clevel": 5
		TypeSize: 8,                                                  // the dtype's size
		Filters:  blosc2.Pipeline(blosc2.Filter{ID: blosc2.Shuffle}), // "shuffle": 1 (BitShuffle: 2, none: 0)
		Format:   blosc2.ChunkBlosc1,
	}
	chunk, err := blosc2.Compress(nil, data, &p)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(arr, "0"), chunk, 0o644); err != nil {
		log.Fatal(err)
	}
	h, _ := blosc2.ParseHeader(chunk)
	fmt.Println("version", h.Version, "header", h.HeaderLen(), "bytes, codec", codec.Name(h.Codec), "typesize", h.TypeSize)
	// zarr.open(arr)[...] now reads the 1000 values.
	// Output: version 2 header 16 bytes, codec lz4 typesize 8
}

// Compress a chunk on several goroutines and write it out without copying
// its blocks together first.
func ExampleChunk() {
	data := make([]byte, 8*200000)
	for i := range 200000 {
		binary.LittleEndian.PutUint64(data[8*i:], 1_700_000_000_000+uint64(i)*250)
	}
	p := blosc2.DefaultCParams()
	p.Codec, p.TypeSize, p.BlockSize, p.Concurrency = blosc2.LZ4, 8, 64<<10, 4
	var c blosc2.Chunk
	defer c.Release()
	if err := c.Compress(nil, data, &p); err != nil {
		log.Fatal(err)
	}
	var out bytes.Buffer // a file or a socket alike
	if _, err := c.WriteTo(&out); err != nil {
		log.Fatal(err)
	}
	back, err := blosc2.Decompress(nil, out.Bytes(), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(c.Pieces()), out.Len() == c.Len(), bytes.Equal(back, data))
	// Output: 26 true true
}
