package blosc2

import (
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
