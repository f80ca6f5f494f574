package codec_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/errs"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// vectorStreams returns the codec streams of the first blocks of every
// chunk of the plugin vectors written with codec id (C-Blosc2's bytes),
// with the codec meta, typesize and block shape of their array.
func vectorStreams(tb testing.TB, id codec.ID) (streams [][]byte, metas []uint8, typesizes []int, shapes [][]int) {
	for _, v := range testvec.LoadPlugins(tb) {
		if v.Codec != int(id) {
			continue
		}
		r, err := framereader.Open(v.Path())
		if err != nil {
			tb.Fatal(err)
		}
		for i := range r.NumChunks() {
			c, err := r.Chunk(i)
			if err != nil {
				tb.Fatal(err)
			}
			// Header (32 bytes), block starts, then per stream a
			// 4-byte length and the codec's bytes.
			if len(c) < 40 || c[2]&0x02 != 0 {
				continue // memcpyed or too short
			}
			start := int(binary.LittleEndian.Uint32(c[32:]))
			if start+4 > len(c) {
				continue
			}
			n := int(int32(binary.LittleEndian.Uint32(c[start:])))
			if n <= 0 || start+4+n > len(c) {
				continue // a run or a raw stream
			}
			bs := make([]int, len(v.BlockShape))
			for k, b := range v.BlockShape {
				bs[k] = int(b)
			}
			streams = append(streams, c[start+4:start+4+n])
			metas = append(metas, uint8(v.CodecMeta))
			typesizes = append(typesizes, int(c[3]))
			shapes = append(shapes, bs)
		}
		r.Close()
	}
	if len(streams) == 0 {
		tb.Fatalf("no %s streams in the vectors", codec.Name(id))
	}
	return streams, metas, typesizes, shapes
}

// packShape packs a block shape of sides up to 255 into bytes.
func packShape(bs []int) []byte {
	b := make([]byte, len(bs))
	for i, s := range bs {
		b[i] = byte(s)
	}
	return b
}

// FuzzZFPDecode feeds lying streams, metas and block shapes to the three
// ZFP decoders: they must never panic, and must fill the block or fail
// with ErrCorrupt or ErrUnsupported. Seeds: C-Blosc2's streams from the
// plugin vectors.
func FuzzZFPDecode(f *testing.F) {
	for _, id := range []codec.ID{codec.ZFPAccuracy, codec.ZFPPrecision, codec.ZFPRate} {
		s, m, ts, bs := vectorStreams(f, id)
		for i := range s {
			if i%2 == 0 || testing.Short() && i%8 != 0 {
				continue
			}
			f.Add(s[i], uint8(id-codec.ZFPAccuracy), m[i], uint8(ts[i]), packShape(bs[i]))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, mode, meta, typesize uint8, shape []byte) {
		id := codec.ZFPAccuracy + codec.ID(mode%3)
		c, _ := codec.Lookup(id)
		sc := c.(codec.ShapedCodec)
		bs := make([]int, min(len(shape), 5))
		n := int(typesize % 9)
		for i := range bs {
			bs[i] = int(shape[i] % 24)
			n *= bs[i]
		}
		if n > 1<<16 || n == 0 {
			n = 64
		}
		dst := make([]byte, n)
		got, err := sc.DecompressShaped(dst, data, meta, int(typesize%9), &codec.Geometry{BlockShape: bs})
		if err == nil && got != len(dst) {
			t.Fatalf("decoded %d bytes into %d without error", got, len(dst))
		}
		if err != nil && !errors.Is(err, codec.ErrCorrupt) && !errors.Is(err, errs.ErrUnsupported) {
			t.Fatalf("error %v is neither ErrCorrupt nor ErrUnsupported", err)
		}
	})
}

// FuzzNDLZ feeds lying streams to the NDLZ decoder (no panic; a full block
// or ErrCorrupt), and round-trips blocks of bytes through the encoder.
// Seeds: C-Blosc2's streams from the plugin vectors.
func FuzzNDLZ(f *testing.F) {
	s, m, _, _ := vectorStreams(f, codec.NDLZ)
	for i := range s {
		f.Add(s[i], m[i], uint8(0))
	}
	c, _ := codec.Lookup(codec.NDLZ)
	sc := c.(codec.ShapedCodec)
	f.Fuzz(func(t *testing.T, data []byte, meta, side uint8) {
		n := 1 << 12
		if len(data) >= 9 {
			b0 := int64(int32(binary.LittleEndian.Uint32(data[1:])))
			b1 := int64(int32(binary.LittleEndian.Uint32(data[5:])))
			if b0 >= 0 && b1 >= 0 && b0*b1 <= 1<<16 {
				n = int(b0 * b1)
			}
		}
		dst := make([]byte, n)
		got, err := c.Decompress(dst, data, meta, nil)
		if err == nil && got != len(dst) {
			t.Fatalf("decoded %d bytes into %d without error", got, len(dst))
		}
		if err != nil && !errors.Is(err, codec.ErrCorrupt) {
			t.Fatalf("error %v is not ErrCorrupt", err)
		}
		// Round trip: data as a block of side × rest bytes.
		cell := []uint8{4, 8}[meta%2]
		b1 := 1 + int(side)%40
		b0 := len(data) / b1
		if b0 == 0 {
			return
		}
		src := data[:b0*b1]
		out := make([]byte, len(src))
		k, err := sc.CompressShaped(out, src, 5, cell, 1, &codec.Geometry{BlockShape: []int{b0, b1}})
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 {
			return
		}
		back := make([]byte, len(src))
		if m, err := c.Decompress(back, out[:k], cell, nil); err != nil || m != len(src) || !bytes.Equal(back, src) {
			t.Fatalf("round trip of %d×%d failed: %v", b0, b1, err)
		}
	})
}
