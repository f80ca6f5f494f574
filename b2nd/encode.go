package b2nd

import (
	"fmt"

	"github.com/blosc2go/blosc2"
)

// chunkEncoder lays array data out in chunks (README_B2ND_METALAYER.rst) and
// compresses them with block size = one b2nd block, so that every Blosc
// block of a chunk is exactly one b2nd block.
type chunkEncoder struct {
	g   *geom
	cp  blosc2.CParams
	buf []byte // the uncompressed chunk
	out []byte // the compressed chunk
}

func newChunkEncoder(g *geom, cp blosc2.CParams) *chunkEncoder {
	cp.TypeSize = int(g.T)
	cp.BlockSize = int(g.blockBytes())
	if cp.Geometry == nil {
		bs := make([]int, len(g.bs))
		for i, b := range g.bs {
			bs[i] = int(b)
		}
		cp.Geometry = &blosc2.Geometry{BlockShape: bs}
	}
	return &chunkEncoder{g: g, cp: cp}
}

// layout fills e.buf with chunk k, taking its elements from src, a C-order
// array of extents sExt whose first item is array element sOrigin. src
// must hold every element of chunk k. Padding is zero.
func (e *chunkEncoder) layout(k int64, src []byte, sExt, sOrigin []int64) []byte {
	g := e.g
	cb := int(g.chunkBytes())
	if cap(e.buf) < cb {
		e.buf = make([]byte, cb)
	}
	buf := e.buf[:cb]
	if g.ndim == 0 {
		copy(buf, src[:g.T])
		return buf
	}
	clear(buf)
	nd := g.ndim
	c := make([]int64, nd)
	lo := make([]int64, nd)
	hi := make([]int64, nd)
	g.chunkBox(k, c, lo, hi)
	b := make([]int64, nd)
	bhi := make([]int64, nd)
	zero := make([]int64, nd)
	for i := range nd {
		// Blocks entirely in padding hold no element; skip them.
		bhi[i] = (hi[i] - lo[i] - 1) / g.bs[i]
	}
	sOff := make([]int64, nd)
	n := make([]int64, nd)
	bb := g.blockBytes()
	for {
		for i := range nd {
			a := lo[i] + b[i]*g.bs[i]
			sOff[i] = a - sOrigin[i]
			n[i] = min(a+g.bs[i], hi[i]) - a
		}
		nb := ravel(b, g.bic)
		copyBox(buf[nb*bb:(nb+1)*bb], g.bs, zero, src, sExt, sOff, n, g.T)
		if !next(b, zero, bhi) {
			return buf
		}
	}
}

// encode lays out and compresses chunk k; the result is valid until the
// next call.
func (e *chunkEncoder) encode(k int64, src []byte, sExt, sOrigin []int64) ([]byte, error) {
	buf := e.layout(k, src, sExt, sOrigin)
	var err error
	e.out, err = blosc2.Compress(e.out[:0], buf, &e.cp)
	if err != nil {
		return nil, fmt.Errorf("chunk %d: %w", k, err)
	}
	return e.out, nil
}

// Default sizes for chunk and block shapes chosen by DefaultShapes.
const (
	DefaultChunkBytes = 1 << 20
	DefaultBlockBytes = 1 << 15
)

// DefaultShapes chooses a chunk shape and a block shape for an array of the
// given shape and item size when the caller gives none: chunks of about
// DefaultChunkBytes and blocks of about DefaultBlockBytes, each a slab that
// spans the trailing dimensions whole and cuts the leading ones, so that
// chunks and blocks are contiguous runs of the C-order array. A first
// extent of -1 means "unknown, growing" (arrays written row by row).
func DefaultShapes(shape []int64, itemsize int) (chunkshape, blockshape []int32) {
	ext := make([]int64, len(shape))
	for i, s := range shape {
		ext[i] = max(s, 1)
		if s < 0 {
			ext[i] = 1 << 40
		}
	}
	cs := slab(ext, int64(itemsize), DefaultChunkBytes)
	bs := slab(cs, int64(itemsize), DefaultBlockBytes)
	chunkshape = make([]int32, len(shape))
	blockshape = make([]int32, len(shape))
	for i := range shape {
		chunkshape[i] = int32(cs[i])
		blockshape[i] = int32(bs[i])
	}
	return chunkshape, blockshape
}

// slab cuts ext to about target bytes, trimming leading dimensions first.
func slab(ext []int64, T, target int64) []int64 {
	out := append([]int64(nil), ext...)
	for i := range out {
		out[i] = min(out[i], 1<<30)
	}
	for i := range out {
		inner := T
		for _, x := range out[i+1:] {
			inner = satMul(inner, x)
		}
		if satMul(inner, out[i]) <= target {
			return out
		}
		if q := target / inner; q >= 1 {
			out[i] = q
			return out
		}
		out[i] = 1 // one slice is still too big: cut the next dimension too
	}
	return out
}

// satMul is a*b for non-negative a and b, saturating at MaxInt64.
func satMul(a, b int64) int64 {
	if p, ok := mul64(a, b); ok {
		return p
	}
	return 1<<63 - 1
}
