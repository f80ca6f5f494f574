package b2nd_test

import (
	"encoding/binary"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/blosc2go/blosc2/b2nd"
)

// Write a 2-D float64 array from C-order memory and read a slice back.
func Example() {
	dir, err := os.MkdirTemp("", "b2nd")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "grid.b2nd")

	// A 6×8 grid, a[r][c] = 10r + c, in C order.
	data := make([]byte, 0, 6*8*8)
	for r := range 6 {
		for c := range 8 {
			data = binary.LittleEndian.AppendUint64(data, math.Float64bits(float64(10*r+c)))
		}
	}
	w, err := b2nd.Create(path, []int64{6, 8}, "<f8", b2nd.WithChunkShape(4, 4), b2nd.WithBlockShape(2, 2))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	a, err := b2nd.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	fmt.Println(a.Info())
	// Rows 3-4, columns 2-4: only the chunks and blocks holding them are decoded.
	s, err := a.ReadSlice(nil, []int64{3, 2}, []int64{5, 5})
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; i < len(s); i += 8 {
		fmt.Print(math.Float64frombits(binary.LittleEndian.Uint64(s[i:])), " ")
	}
	fmt.Println()
	// Output:
	// shape (6, 8) chunkshape (4, 4) blockshape (2, 2) dtype <f8
	// 32 33 34 42 43 44
}

// The telemetry case: an array that grows by one row per sample. The
// first extent -1 means "growing"; Close records how many rows came.
func Example_appendRows() {
	dir, err := os.MkdirTemp("", "b2nd")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "telemetry.b2nd")

	// Each sample: a timestamp and two readings, as a structured dtype.
	const dtype = "[('t', '<i8'), ('temp', '<f4'), ('load', '<f4')]"
	w, err := b2nd.Create(path, []int64{-1}, dtype, b2nd.WithChunkShape(1000), b2nd.WithBlockShape(250))
	if err != nil {
		log.Fatal(err)
	}
	for i := range 2500 {
		row := binary.LittleEndian.AppendUint64(nil, uint64(1700000000+i))
		row = binary.LittleEndian.AppendUint32(row, math.Float32bits(20+float32(i%10)/10))
		row = binary.LittleEndian.AppendUint32(row, math.Float32bits(float32(i%100)/100))
		if err := w.AppendRows(row); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	a, err := b2nd.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	last, err := a.ReadSlice(nil, []int64{2499}, []int64{2500})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(a.Shape(), a.ItemSize(), binary.LittleEndian.Uint64(last))
	// Output:
	// [2500] 16 1700002499
}

// OpenAppend adds rows to an existing array in a later session.
func ExampleOpenAppend() {
	dir, err := os.MkdirTemp("", "b2nd")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "log.b2nd")

	w, err := b2nd.Create(path, []int64{-1, 2}, "<u2", b2nd.WithChunkShape(4, 2))
	if err != nil {
		log.Fatal(err)
	}
	w.Write([]byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0}) // 4 rows of 2 items
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	w, err = b2nd.OpenAppend(path)
	if err != nil {
		log.Fatal(err)
	}
	w.AppendRows([]byte{9, 0, 10, 0})
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	a, err := b2nd.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer a.Close()
	all, _ := a.ReadAll(nil)
	fmt.Println(a.Shape(), all)
	// Output:
	// [5 2] [1 0 2 0 3 0 4 0 5 0 6 0 7 0 8 0 9 0 10 0]
}

// NumPy dtype strings, plain and structured, give the item size.
func ExampleParseDType() {
	for _, s := range []string{"<f8", "float32", "|S10", "<U5", "[('x', '<f4'), ('y', '<f4'), ('id', 'u1', (3,))]"} {
		d, err := b2nd.ParseDType(s)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%-50q %2d bytes, stored as %s\n", s, d.Size, d)
	}
	// Output:
	// "<f8"                                               8 bytes, stored as <f8
	// "float32"                                           4 bytes, stored as <f4
	// "|S10"                                             10 bytes, stored as |S10
	// "<U5"                                              20 bytes, stored as <U5
	// "[('x', '<f4'), ('y', '<f4'), ('id', 'u1', (3,))]" 11 bytes, stored as [('x', '<f4'), ('y', '<f4'), ('id', 'u1', (3,))]
}

// The metalayer's bytes, as C-Blosc2 writes them.
func ExampleMeta_MarshalBinary() {
	m := b2nd.Meta{Shape: []int64{5, 7}, ChunkShape: []int32{3, 4}, BlockShape: []int32{2, 2}, DType: "|u1"}
	b, err := m.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d bytes: % x\n", len(b), b[:12])
	p, err := b2nd.ParseMeta(b)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Shape, p.ChunkShape, p.BlockShape, p.DType)
	// Output:
	// 53 bytes: 97 00 02 92 d3 00 00 00 00 00 00 00
	// [5 7] [3 4] [2 2] |u1
}
