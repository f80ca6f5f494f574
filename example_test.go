package blosc2_test

import (
	"encoding/binary"
	"fmt"
	"log"

	"github.com/blosc2go/blosc2"
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
	back, err := blosc2.Decompress(nil, chunk)
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
	items, err := blosc2.GetItems(nil, chunk, 5000, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(binary.LittleEndian.Uint64(items), binary.LittleEndian.Uint64(items[8:]))
	// Output: 25000000 25010001
}

// Chunks that hold one value need no data at all.
func ExampleAppendSpecial() {
	chunk, _ := blosc2.AppendSpecial(nil, blosc2.SpecialValue, 1<<20, 0, 0, []byte{0, 0, 0x80, 0x3f}) // float32 1.0
	out, _ := blosc2.Decompress(nil, chunk)
	fmt.Println(len(chunk), len(out), out[:4])
	// Output: 36 1048576 [0 0 128 63]
}
