package b2nd

import (
	"bytes"
	"encoding/hex"
	"errors"
	"slices"
	"testing"

	"github.com/blosc2go/blosc2"
)

// Every vector's metalayer, as C-Blosc2 wrote it, decodes to the manifest's
// geometry and re-encodes to the same bytes.
func TestMetaVectors(t *testing.T) {
	for _, v := range ndVectors(t) {
		want, err := hex.DecodeString(v.Params.B2ndMetaHex)
		if err != nil {
			t.Fatal(err)
		}
		m := v.meta()
		got, err := m.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", v.File, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: encoded\n%x\nwant\n%x", v.File, got, want)
		}
		if m.EncodedLen() != len(want) {
			t.Errorf("%s: EncodedLen %d, want %d", v.File, m.EncodedLen(), len(want))
		}
		p, err := ParseMeta(want)
		if err != nil {
			t.Fatalf("%s: %v", v.File, err)
		}
		if !slices.Equal(p.Shape, m.Shape) || !slices.Equal(p.ChunkShape, m.ChunkShape) ||
			!slices.Equal(p.BlockShape, m.BlockShape) || p.DType != m.DType || p.NoDType || p.DTypeFormat != 0 {
			t.Errorf("%s: parsed %+v, want %+v", v.File, p, m)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", v.File, err)
		}
		dt, err := ParseDType(p.DType)
		if err != nil {
			t.Fatalf("%s: %v", v.File, err)
		}
		if dt.Size != v.Params.Typesize || dt.String() != p.DType {
			t.Errorf("%s: dtype %q: size %d string %q, want %d", v.File, p.DType, dt.Size, dt.String(), v.Params.Typesize)
		}
	}
}

// Metalayer contents worked out by hand from README_B2ND_METALAYER.rst.
func TestMetaSpecExamples(t *testing.T) {
	for _, c := range []struct {
		m   Meta
		hex string
	}{
		{Meta{Shape: []int64{5, 7}, ChunkShape: []int32{3, 4}, BlockShape: []int32{2, 2}, DType: "|u1"},
			"970002" + "92d30000000000000005d30000000000000007" + "92d200000003d200000004" + "92d200000002d200000002" + "00" + "db000000037c7531"},
		{Meta{DType: "<i4"}, "97000090909000db000000033c6934"},
		{Meta{Shape: []int64{5}, ChunkShape: []int32{5}, BlockShape: []int32{5}, NoDType: true},
			"95000191d3000000000000000591d20000000591d200000005"},
	} {
		want, _ := hex.DecodeString(c.hex)
		got, err := c.m.MarshalBinary()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%+v: %x, %v; want %x", c.m, got, err, want)
		}
		p, err := ParseMeta(want)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := p.MarshalBinary()
		if !bytes.Equal(again, want) {
			t.Errorf("re-encoded %x, want %x", again, want)
		}
	}
}

// 16 dimensions: the fixarray marker becomes 0xA0, as C writes it, and the
// reader does not care.
func TestMeta16Dims(t *testing.T) {
	m := Meta{DType: "|u1"}
	for i := range MaxDim {
		m.Shape = append(m.Shape, int64(i+1))
		m.ChunkShape = append(m.ChunkShape, 1)
		m.BlockShape = append(m.BlockShape, 1)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if b[3] != 0xa0 || len(b) != 12+19*16+3 {
		t.Fatalf("marker %#x, len %d", b[3], len(b))
	}
	p, err := ParseMeta(b)
	if err != nil || !slices.Equal(p.Shape, m.Shape) {
		t.Fatalf("%v %v", p, err)
	}
	m.Shape = append(m.Shape, 1)
	m.ChunkShape = append(m.ChunkShape, 1)
	m.BlockShape = append(m.BlockShape, 1)
	if _, err := m.MarshalBinary(); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Fatalf("17 dims: %v", err)
	}
}

func TestMetaHostile(t *testing.T) {
	good, _ := hex.DecodeString("97000292d30000000000000005d3000000000000000792d200000003d20000000492d200000002d20000000200db000000037c7531")
	mut := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	parseErr := [][]byte{
		nil, {0x97}, {0x97, 0, 17}, {0x97, 0, 0xff},
		good[:20], good[:len(good)-1], good[:len(good)-4],
		mut(func(b []byte) []byte { b[len(b)-8] = 0xd9; return b }),      // not str32
		mut(func(b []byte) []byte { b[len(b)-7] = 0x80; return b }),      // negative length
		mut(func(b []byte) []byte { b[len(b)-4] = 0x10; return b }),      // length beyond the end
		mut(func(b []byte) []byte { return append(b[:len(b)-8], 0x00) }), // dtype part too short
		mut(func(b []byte) []byte { b[2] = 3; return b }),                // more dims than bytes
	}
	for i, b := range parseErr {
		if _, err := ParseMeta(b); !errors.Is(err, blosc2.ErrHeader) {
			t.Errorf("case %d: %v", i, err)
		}
	}
	geomErr := []Meta{
		{Shape: []int64{-1}, ChunkShape: []int32{1}, BlockShape: []int32{1}},
		{Shape: []int64{1}, ChunkShape: []int32{-1}, BlockShape: []int32{1}},
		{Shape: []int64{1}, ChunkShape: []int32{1}, BlockShape: []int32{-1}},
		{Shape: []int64{1}, ChunkShape: []int32{1}, BlockShape: []int32{0}},
		{Shape: []int64{1}, ChunkShape: []int32{0}, BlockShape: []int32{0}},
		{Shape: []int64{1 << 62, 4}, ChunkShape: []int32{1, 1}, BlockShape: []int32{1, 1}},
		{Shape: []int64{1<<63 - 1}, ChunkShape: []int32{3}, BlockShape: []int32{1}},
		{Shape: []int64{4, 4}, ChunkShape: []int32{1 << 30, 1 << 30}, BlockShape: []int32{1, 1}},
		{Shape: []int64{4, 4}, ChunkShape: []int32{4, 4}, BlockShape: []int32{1 << 30, 1 << 30}},
		{Shape: []int64{4}, ChunkShape: []int32{4, 4}, BlockShape: []int32{4}},
	}
	for i, m := range geomErr {
		if err := m.Validate(); !errors.Is(err, blosc2.ErrHeader) {
			t.Errorf("geometry %d %+v: %v", i, m, err)
		}
	}
	// Zero extents are fine where the array extent is 0.
	for _, m := range []Meta{
		{Shape: []int64{0, 5}, ChunkShape: []int32{0, 5}, BlockShape: []int32{0, 5}},
		{Shape: []int64{0}, ChunkShape: []int32{10}, BlockShape: []int32{5}},
		{},
	} {
		if err := m.Validate(); err != nil {
			t.Errorf("%+v: %v", m, err)
		}
	}
}
