package blosc2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"testing"

	"github.com/blosc2go/blosc2/codec"
)

// Without a block shape (a chunk that is not part of a b2nd array) the
// codecs and filters that need one refuse to compress, and a chunk that
// needs one refuses to decompress, as C-Blosc2 does without the b2nd
// metalayer; with it, the same chunk decodes.
func TestPluginsNeedGeometry(t *testing.T) {
	src := make([]byte, 4*16*16)
	for i := range 256 {
		binary.LittleEndian.PutUint32(src[4*i:], math.Float32bits(float32(i/16%5)+0.5))
	}
	g := &Geometry{BlockShape: []int{16, 16}}
	for _, c := range []struct {
		name    string
		codec   codec.ID
		meta    uint8
		filters [MaxFilters]Filter
	}{
		{"zfp_acc", codec.ZFPAccuracy, uint8(0xfd), Pipeline()},
		{"zfp_prec", codec.ZFPPrecision, 10, Pipeline()},
		{"zfp_rate", codec.ZFPRate, 30, Pipeline()},
		{"ndcell", Zstd, 0, Pipeline(Filter{ID: NDCell, Meta: 4})},
		{"ndmean", LZ4, 0, Pipeline(Filter{ID: NDMean, Meta: 4})},
	} {
		p := CParams{Codec: c.codec, CodecMeta: c.meta, Level: 5, TypeSize: 4, Filters: c.filters}
		if _, err := Compress(nil, src, &p); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("%s without geometry: %v", c.name, err)
		}
		p.Geometry = g
		chunk, err := Compress(nil, src, &p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if h, _ := ParseHeader(chunk); h.Memcpyed() {
			t.Fatalf("%s: stored uncompressed", c.name)
		}
		if _, err := Decompress(nil, chunk, nil); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s chunk without geometry: %v", c.name, err)
		}
		if out, err := Decompress(nil, chunk, &DParams{Geometry: g}); err != nil || len(out) != len(src) {
			t.Errorf("%s chunk with geometry: %d bytes, %v", c.name, len(out), err)
		}
		// A geometry that does not match the block is corrupt, not a panic.
		if _, err := Decompress(nil, chunk, &DParams{Geometry: &Geometry{BlockShape: []int{16, 17}}}); err == nil {
			t.Errorf("%s: a lying block shape decoded", c.name)
		}
	}
	// INT_TRUNC needs no geometry.
	p := CParams{Codec: Zstd, Level: 5, TypeSize: 4, Filters: Pipeline(Filter{ID: IntTrunc, Meta: 20})}
	chunk, err := Compress(nil, src, &p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Decompress(nil, chunk, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(src); i += 4 {
		if got, want := binary.LittleEndian.Uint32(out[i:]), binary.LittleEndian.Uint32(src[i:])&^0xfff; got != want {
			t.Fatalf("int_trunc:20 element %d: %#x, want %#x", i/4, got, want)
		}
	}
}

// TestCParamsLossless: CParams.Lossless holds exactly for the pipelines
// that give back their input, seen by compressing noisy float32 cells
// with every built-in codec and filter: each it calls lossless decodes to
// the input, each it does not changes some value of this data; a user
// filter is not known to be lossless.
func TestCParamsLossless(t *testing.T) {
	src := make([]byte, 4*16*16*4)
	for i := range len(src) / 4 {
		v := float32(i%16)*0.37 + float32(math.Sin(float64(i)*1.7))*3.1
		binary.LittleEndian.PutUint32(src[4*i:], math.Float32bits(v))
	}
	g := &Geometry{BlockShape: []int{16, 16}}
	type pipeline struct {
		name    string
		codec   codec.ID
		meta    uint8
		filters [MaxFilters]Filter
	}
	var cases []pipeline
	for _, id := range []codec.ID{BloscLZ, LZ4, LZ4HC, Zlib, Zstd} {
		cases = append(cases, pipeline{codec.Name(id), id, 0, Pipeline(Filter{ID: Shuffle})})
	}
	cases = append(cases,
		pipeline{"zfp_acc", codec.ZFPAccuracy, uint8(0xfd), Pipeline()},
		pipeline{"zfp_prec", codec.ZFPPrecision, 10, Pipeline()},
		pipeline{"zfp_rate", codec.ZFPRate, 16, Pipeline()},
		pipeline{"nofilter", Zstd, 0, Pipeline()},
		pipeline{"bitshuffle", Zstd, 0, Pipeline(Filter{ID: BitShuffle})},
		pipeline{"delta+shuffle", Zstd, 0, Pipeline(Filter{ID: Delta}, Filter{ID: Shuffle})},
		pipeline{"shuffle+bytedelta", Zstd, 0, Pipeline(Filter{ID: Shuffle}, Filter{ID: ByteDelta})},
		pipeline{"ndcell", Zstd, 0, Pipeline(Filter{ID: NDCell, Meta: 4})},
		pipeline{"truncprec", Zstd, 0, Pipeline(Filter{ID: TruncPrec, Meta: 10}, Filter{ID: Shuffle})},
		pipeline{"ndmean", LZ4, 0, Pipeline(Filter{ID: NDMean, Meta: 4})},
		pipeline{"inttrunc", Zstd, 0, Pipeline(Filter{ID: IntTrunc, Meta: 20})},
	)
	for _, c := range cases {
		p := CParams{Codec: c.codec, CodecMeta: c.meta, Level: 5, TypeSize: 4, Filters: c.filters, BlockSize: 4 * 16 * 16, Geometry: g}
		chunk, err := Compress(nil, src, &p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		out, err := Decompress(nil, chunk, &DParams{Geometry: g})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if exact := bytes.Equal(out, src); p.Lossless() != exact {
			t.Errorf("%s: Lossless() = %v, yet the round trip exact = %v", c.name, p.Lossless(), exact)
		}
	}
	// NDLZ works on bytes: a 16×64 block of the same data.
	p := CParams{Codec: codec.NDLZ, CodecMeta: 4, Level: 5, TypeSize: 1, BlockSize: 16 * 64, Geometry: &Geometry{BlockShape: []int{16, 64}}}
	chunk, err := Compress(nil, src, &p)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := Decompress(nil, chunk, &DParams{Geometry: p.Geometry}); err != nil || !bytes.Equal(out, src) || !p.Lossless() {
		t.Errorf("ndlz: Lossless() = %v, round trip %v", p.Lossless(), err)
	}
	p = CParams{Codec: LZ4, Filters: Pipeline(Filter{ID: UserFilterMin})}
	if p.Lossless() {
		t.Error("a user filter is lossless")
	}
	p = CParams{Codec: codec.UserMin, Filters: Pipeline(Filter{ID: Shuffle})}
	if p.Lossless() {
		t.Error("a user codec is lossless")
	}
}
