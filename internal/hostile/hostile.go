// Package hostile makes the crafted inputs of the resource-bound tests
// (issue 14): small frames that declare far more than they hold — chunk
// counts in the hundreds of millions, indexes that decode to gigabytes,
// entries that all point at one chunk, special chunks of 2 GiB, sizes
// that disagree — each built as its author would, so that the tests, the
// fuzz seeds and a person auditing by hand all use the same bytes.
//
// Every frame here is well formed as far as a reader can tell before it
// commits memory; what it declares is what makes it hostile.
package hostile

import (
	"encoding/binary"
	"fmt"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/b2nd"
	"github.com/blosc2go/blosc2/internal/frame"
)

// Frame is a crafted frame and what a reader should make of it.
type Frame struct {
	Name string
	Data []byte
	// Out is the number of bytes it decompresses to when it is valid, or
	// -1 when reading it must fail.
	Out int64
	// TooLarge marks a frame that may fail with blosc2.ErrTooLarge under
	// a memory cap (rather than decompress), when Out ≥ 0.
	TooLarge bool
}

// Frames returns the crafted frames; n is the number of chunks of the
// fill-zeros frame. n = 268,435,450 gives the
// 172-byte frame of C's blosc2_schunk_fill_special of the audit.
func Frames(n int) []Frame {
	one := compressible(1 << 20)
	big := compressible(16 << 20)
	return []Frame{
		{Name: "fill-zeros", Data: FillZeros(n), Out: 8 * int64(n)},
		{Name: "looping-index", Data: LoopingIndex(one, 1024), Out: 1024 << 20},
		{Name: "lying-index-size", Data: LyingIndexSize(one), Out: -1},
		{Name: "huge-index", Data: HugeIndex(one, 32<<20), Out: 32 << 20 << 20, TooLarge: true},
		{Name: "lying-nbytes", Data: LyingNbytes(one, 1<<62), Out: -1},
		{Name: "huge-special", Data: HugeSpecial(), Out: blosc2.MaxBufferSize &^ 7},
		{Name: "big-chunks", Data: Repeated(big, 24), Out: 24 * 16 << 20, TooLarge: true},
		{Name: "chunk-over-index", Data: ChunkOverIndex(one), Out: -1},
		// b2nd arrays are written chunk after chunk (about 0.7 µs each):
		// four million chunks, not 268 million.
		{Name: "b2nd-fill-zeros", Data: B2ndFillZeros(min(n, 1<<22)), Out: 8 * int64(min(n, 1<<22))},
	}
}

// FillZeros is the frame C's blosc2_schunk_fill_special writes for n
// zero chunks of 8 bytes: no chunk stored, the index one repeated-value
// special chunk of 40 bytes.
func FillZeros(n int) []byte {
	index, err := frame.AppendRepeatIndex(nil, n, frame.SpecialEntry(blosc2.SpecialZero))
	must(err)
	return assemble(8, 8, int64(n)*8, nil, index)
}

// B2ndFillZeros is FillZeros as a one-dimensional b2nd array of n
// float64 zeros, one element a chunk: what b2nd.zeros makes with a
// chunk shape of 1.
func B2ndFillZeros(n int) []byte {
	m := b2nd.Meta{Shape: []int64{int64(n)}, ChunkShape: []int32{1}, BlockShape: []int32{1}, DType: "<f8"}
	meta, err := m.MarshalBinary()
	must(err)
	index, err := frame.AppendRepeatIndex(nil, n, frame.SpecialEntry(blosc2.SpecialZero))
	must(err)
	return assembleMeta(8, 8, int64(n)*8, nil, index, []frame.Metalayer{{Name: "b2nd", Content: meta}})
}

// LoopingIndex is a frame of n chunks whose index entries all point at one
// stored chunk: a few kilobytes that decompress to n copies of it.
func LoopingIndex(chunk []byte, n int) []byte {
	index, err := frame.AppendRepeatIndex(nil, n, 0)
	must(err)
	p := prefix(chunk)
	return assemble(p.TypeSize, p.Nbytes, int64(n)*int64(p.Nbytes), [][]byte{chunk}, index)
}

// VariableLoopingIndex is LoopingIndex in a variable-size frame
// (chunksize 0): a reader lays out every chunk's size, 8 bytes each.
func VariableLoopingIndex(chunk []byte, n int) []byte {
	index, err := frame.AppendRepeatIndex(nil, n, 0)
	must(err)
	p := prefix(chunk)
	return assemble(p.TypeSize, 0, int64(n)*int64(p.Nbytes), [][]byte{chunk}, index)
}

// HugeIndex is a frame of one stored chunk whose zstd-compressed index
// declares n entries (8n bytes once decoded), alternately the chunk and a
// zero chunk: a few hundred kilobytes that ask for hundreds of megabytes
// of index, refused or decoded in bounded pieces.
func HugeIndex(chunk []byte, n int) []byte {
	raw := make([]byte, 8*n)
	for i := 1; i < n; i += 2 {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(frame.SpecialEntry(blosc2.SpecialZero)))
	}
	p := frame.IndexCParams()
	p.Codec, p.Level = blosc2.Zstd, 1
	index, err := blosc2.Compress(nil, raw, &p)
	must(err)
	c := prefix(chunk)
	return assemble(c.TypeSize, c.Nbytes, int64(n)*int64(c.Nbytes), [][]byte{chunk}, index)
}

// LyingIndexSize is a frame of one stored chunk whose index is a
// repeated-value chunk declaring 2^31−8 bytes of entries while the
// header's nbytes says one chunk.
func LyingIndexSize(chunk []byte) []byte {
	index, err := frame.AppendRepeatIndex(nil, (blosc2.MaxBufferSize-8)/8, 0)
	must(err)
	c := prefix(chunk)
	return assemble(c.TypeSize, c.Nbytes, int64(c.Nbytes), [][]byte{chunk}, index)
}

// LyingNbytes is a frame of one stored chunk whose header declares nbytes
// uncompressed bytes.
func LyingNbytes(chunk []byte, nbytes int64) []byte {
	index, err := frame.AppendIndex(nil, []int64{0})
	must(err)
	c := prefix(chunk)
	return assemble(c.TypeSize, c.Nbytes, nbytes, [][]byte{chunk}, index)
}

// ChunkOverIndex is a frame whose single index entry points into the
// index itself.
func ChunkOverIndex(chunk []byte) []byte {
	index, err := frame.AppendIndex(nil, []int64{int64(len(chunk)) + 4})
	must(err)
	c := prefix(chunk)
	return assemble(c.TypeSize, c.Nbytes, int64(c.Nbytes), [][]byte{chunk}, index)
}

// HugeSpecial is a frame of one stored 32-byte zero chunk declaring the
// largest whole number of float64s a chunk may hold, about 2 GiB.
func HugeSpecial() []byte {
	const n = blosc2.MaxBufferSize &^ 7
	c, err := blosc2.AppendSpecial(nil, blosc2.SpecialZero, n, 8, 0, nil)
	must(err)
	index, err := frame.AppendIndex(nil, []int64{0})
	must(err)
	return assemble(8, n, n, [][]byte{c}, index)
}

// Repeated is a frame of n copies of chunk, each stored: with a chunk
// that decodes to far more than it takes, a small file of large chunks.
func Repeated(chunk []byte, n int) []byte {
	chunks := make([][]byte, n)
	entries := make([]int64, n)
	for i := range chunks {
		chunks[i], entries[i] = chunk, int64(i*len(chunk))
	}
	index, err := frame.AppendIndex(nil, entries)
	must(err)
	c := prefix(chunk)
	return assemble(c.TypeSize, c.Nbytes, int64(n)*int64(c.Nbytes), chunks, index)
}

// compressible is a normal (not special) chunk of nbytes that compresses
// about a thousandfold: a 64-byte pseudo-random pattern, repeated.
func compressible(nbytes int) []byte {
	const period = 64
	raw := make([]byte, nbytes)
	x := uint32(2463534242)
	for i := range period {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		raw[i] = byte(x)
	}
	for i := period; i < nbytes; i += period {
		copy(raw[i:], raw[:period])
	}
	p := blosc2.DefaultCParams()
	p.Codec, p.Level, p.TypeSize, p.Filters = blosc2.Zstd, 1, 8, [6]blosc2.Filter{}
	c, err := blosc2.Compress(nil, raw, &p)
	must(err)
	return c
}

// assemble lays out a contiguous frame: header, chunks, index, an empty
// trailer, with the header's sizes as given (the frame length is true).
func assemble(typesize, chunksize int, nbytes int64, chunks [][]byte, index []byte) []byte {
	return assembleMeta(typesize, chunksize, nbytes, chunks, index, nil)
}

// assembleMeta is assemble with metalayers.
func assembleMeta(typesize, chunksize int, nbytes int64, chunks [][]byte, index []byte, metas []frame.Metalayer) []byte {
	var cbytes int64
	for _, c := range chunks {
		cbytes += int64(len(c))
	}
	h := frame.Header{
		GeneralFlags: frame.VersionRC1 | frame.FlagOffsets64,
		FrameType:    frame.TypeContiguous,
		CodecFlags:   uint8(blosc2.Zstd) | 1<<4,
		Nbytes:       nbytes,
		Cbytes:       cbytes,
		TypeSize:     int32(typesize),
		ChunkSize:    int32(chunksize),
		TComp:        1,
		TDecomp:      1,
		NFilters:     blosc2.MaxFilters,
		Metalayers:   metas,
	}
	h.ComputeLen()
	h.FrameLen = int64(h.HeaderLen) + cbytes + int64(len(index)) + frame.EmptyTrailerLen
	out := h.Append(nil)
	for _, c := range chunks {
		out = append(out, c...)
	}
	out = append(out, index...)
	out = frame.AppendTrailer(out, nil, frame.Fingerprint{})
	if int64(len(out)) != h.FrameLen {
		panic(fmt.Sprintf("hostile: frame of %d bytes, header says %d", len(out), h.FrameLen))
	}
	return out
}

func prefix(chunk []byte) blosc2.Prefix {
	p, err := blosc2.ParsePrefix(chunk)
	must(err)
	return p
}

func must(err error) {
	if err != nil {
		panic("hostile: " + err.Error())
	}
}
