package codec

import (
	"fmt"
	"math"

	"github.com/blosc2go/blosc2/codec/zfp"
	"github.com/blosc2go/blosc2/internal/errs"
)

// The ZFP codecs C-Blosc2 registers at start-up (plugins/codecs/zfp). Each
// compresses one whole block, whose shape is the b2nd block shape, as a
// float32 (typesize 4) or float64 (typesize 8) array of 1 to 4 dimensions;
// they are [ShapedCodec]s. The meta byte is the mode's parameter:
//
//   - ZFPAccuracy: an int8 k; every value is kept within 10^k.
//   - ZFPPrecision: bit planes kept, less 5, 7, 9 or 11 for 1 to 4
//     dimensions (at most 64 in all).
//   - ZFPRate: the compressed size as a percentage of the raw size
//     (bits per value = meta/100 × 8 × typesize).
const (
	ZFPAccuracy  ID = 33
	ZFPPrecision ID = 34
	ZFPRate      ID = 35
)

type zfpMode uint8

const (
	zfpAcc zfpMode = iota
	zfpPrec
	zfpRate
)

type zfpCodec struct{ mode zfpMode }

func init() {
	registry[ZFPAccuracy] = entry{"zfp_acc", zfpCodec{zfpAcc}}
	registry[ZFPPrecision] = entry{"zfp_prec", zfpCodec{zfpPrec}}
	registry[ZFPRate] = entry{"zfp_rate", zfpCodec{zfpRate}}
}

func (zfpCodec) Compress(dst, src []byte, clevel int, meta uint8, dict []byte) (int, error) {
	return 0, fmt.Errorf("zfp: %w", ErrNoGeometry)
}

func (zfpCodec) Decompress(dst, src []byte, meta uint8, dict []byte) (int, error) {
	return 0, fmt.Errorf("zfp: %w", ErrNoGeometry)
}

// params returns the ZFP parameters, the element type and the block shape
// for a block of typesize-byte values.
func (c zfpCodec) params(meta uint8, typesize int, g *Geometry) (zfp.Params, zfp.Type, error) {
	if g == nil {
		return zfp.Params{}, 0, fmt.Errorf("zfp: %w", ErrNoGeometry)
	}
	nd := len(g.BlockShape)
	if nd < 1 || nd > zfp.MaxDims {
		return zfp.Params{}, 0, fmt.Errorf("%w: zfp: %d dimensions (1-4)", errs.ErrUnsupported, nd)
	}
	var t zfp.Type
	switch typesize {
	case 4:
		t = zfp.Float32
	case 8:
		t = zfp.Float64
	default:
		return zfp.Params{}, 0, fmt.Errorf("%w: zfp: typesize %d (4 or 8)", errs.ErrUnsupported, typesize)
	}
	switch c.mode {
	case zfpAcc:
		return zfp.Accuracy(math.Pow(10, float64(int8(meta)))), t, nil
	case zfpPrec:
		return zfp.Precision(uint(meta) + uint(2*nd+3)), t, nil
	}
	ratio := float64(meta) / 100.0
	return zfp.Rate(ratio*float64(typesize)*8, t, nd), t, nil
}

func (c zfpCodec) CompressShaped(dst, src []byte, clevel int, meta uint8, typesize int, g *Geometry) (int, error) {
	p, t, err := c.params(meta, typesize, g)
	if err != nil {
		return 0, err
	}
	n := typesize
	for _, s := range g.BlockShape {
		if s < 4 {
			return 0, fmt.Errorf("%w: zfp: block shape %v has a side under 4", errs.ErrInvalidOption, g.BlockShape)
		}
		n *= s
	}
	if n != len(src) {
		return 0, nil // a split or partial block: stored as is, as C does
	}
	out, err := zfp.Encode(nil, src, t, g.BlockShape, p)
	if err != nil || len(out) >= len(src) || len(out) > len(dst) {
		return 0, err
	}
	return copy(dst, out), nil
}

func (c zfpCodec) DecompressShaped(dst, src []byte, meta uint8, typesize int, g *Geometry) (int, error) {
	p, t, err := c.params(meta, typesize, g)
	if err != nil {
		return 0, err
	}
	n := typesize
	for _, s := range g.BlockShape {
		if s <= 0 || n > len(dst)/s {
			return 0, fmt.Errorf("%w: zfp: block shape %v of %d-byte values exceeds the %d-byte block", errs.ErrCorrupt, g.BlockShape, typesize, len(dst))
		}
		n *= s
	}
	if _, err := zfp.Decode(dst[:n], t, g.BlockShape, p, src); err != nil {
		return 0, err
	}
	clear(dst[n:])
	return len(dst), nil
}
