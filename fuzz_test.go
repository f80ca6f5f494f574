package blosc2

import (
	"bytes"
	"testing"

	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// FuzzDecompress feeds arbitrary chunks to every decoding entry point,
// seeded with C-Blosc2's vectors. Nothing may panic; errors must wrap a
// sentinel; success means exactly nbytes of output.
func FuzzDecompress(f *testing.F) {
	for _, v := range testvec.Kind(f, "chunk") {
		if c := v.Read(f); len(c) <= 1<<16 {
			f.Add(c)
		}
	}
	f.Fuzz(func(t *testing.T, chunk []byte) {
		decodeAny(t, "fuzz", chunk)
	})
}

// FuzzBlosc1RoundTrip round-trips data through Blosc1 chunks (every codec
// C-Blosc 1.x has, its filters, typesizes up to 255, forced block sizes and
// split modes): at most 16 bytes of overhead, decoded back exactly, the same
// bytes with 3 threads.
func FuzzBlosc1RoundTrip(f *testing.F) {
	f.Add([]byte("hello hello hello hello hello hello hello hello"), uint8(0), uint8(5), uint8(4), uint8(1), uint8(0), uint16(0))
	f.Add(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7}, 300), uint8(3), uint8(9), uint8(7), uint8(2), uint8(1), uint16(100))
	f.Add(make([]byte, 5000), uint8(4), uint8(1), uint8(8), uint8(0), uint8(2), uint16(64))
	f.Fuzz(func(t *testing.T, data []byte, codecSel, level, typesize, filterSel, splitSel uint8, blocksize uint16) {
		codecs := []codec.ID{BloscLZ, LZ4, LZ4HC, Snappy, Zlib, Zstd}
		p := CParams{
			Codec:     codecs[int(codecSel)%len(codecs)],
			Level:     int(level % 10),
			TypeSize:  1 + int(typesize),
			Filters:   Pipeline(Filter{ID: []FilterID{NoFilter, Shuffle, BitShuffle}[filterSel%3]}),
			SplitMode: SplitMode(1 + splitSel%4),
			BlockSize: int(blocksize),
			Format:    ChunkBlosc1,
		}
		if p.TypeSize > 255 {
			p.TypeSize = 255
		}
		chunk, err := Compress(nil, data, &p)
		if err != nil {
			t.Fatalf("compress %+v: %v", p, err)
		}
		if len(chunk) > len(data)+MinHeaderLen || chunk[0] != VersionBlosc1 {
			t.Fatalf("chunk of %d bytes for %d, version %d", len(chunk), len(data), chunk[0])
		}
		got, err := Decompress(nil, chunk, nil)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("round trip %+v failed: %v", p, err)
		}
		p.Concurrency = 3
		if chunk3, err := Compress(nil, data, &p); err != nil || !bytes.Equal(chunk3, chunk) {
			t.Fatalf("3 threads wrote other bytes (%v)", err)
		}
	})
}

// FuzzRoundTrip is the differential target: compress data with parameters
// drawn from the fuzzer's bytes, decompress, compare; also compare the
// serial and the parallel encoder.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("hello hello hello hello hello hello hello hello"), uint8(0), uint8(5), uint16(4), uint8(1), uint8(0), uint16(0), false)
	f.Add(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7}, 300), uint8(1), uint8(9), uint16(7), uint8(2), uint8(1), uint16(100), true)
	f.Add(make([]byte, 5000), uint8(4), uint8(1), uint16(8), uint8(3), uint8(2), uint16(64), false)
	f.Fuzz(func(t *testing.T, data []byte, codecSel, level uint8, typesize uint16, pipeSel, splitSel uint8, blocksize uint16, dict bool) {
		codecs := []codec.ID{BloscLZ, LZ4, LZ4HC, Zlib, Zstd}
		p := CParams{
			Codec:     codecs[int(codecSel)%len(codecs)],
			Level:     int(level % 10),
			TypeSize:  1 + int(typesize%300),
			Filters:   rtPipelines[int(pipeSel)%len(rtPipelines)],
			SplitMode: SplitMode(1 + splitSel%4),
			BlockSize: int(blocksize),
			UseDict:   dict && codecSel%5 != 0 && codecSel%5 != 3,
		}
		chunk, err := Compress(nil, data, &p)
		if err != nil {
			t.Fatalf("compress %+v: %v", p, err)
		}
		if len(chunk) > len(data)+MaxOverhead {
			t.Fatalf("chunk of %d bytes for %d", len(chunk), len(data))
		}
		got, err := Decompress(nil, chunk, nil)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("round trip %+v failed: %v", p, err)
		}
		p.Concurrency = 3
		if chunk3, err := Compress(nil, data, &p); err != nil || !bytes.Equal(chunk3, chunk) {
			t.Fatalf("3 threads wrote other bytes (%v)", err)
		}
	})
}
