package b2nd

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/blosc2go/blosc2"
)

// geom is an array's layout (README_B2ND_METALAYER.rst): the chunk grid over the array
// and the block grid inside a chunk, both numbered in C order. All counts
// are in items of T bytes.
type geom struct {
	ndim  int
	T     int64   // item size in bytes
	shape []int64 // array extent
	cs    []int64 // chunkshape
	bs    []int64 // blockshape
	ecs   []int64 // chunkshape rounded up to a multiple of bs
	cia   []int64 // chunks in the array, per dimension
	bic   []int64 // blocks in a chunk, per dimension

	nitems     int64 // items in the array
	extItems   int64 // items in the array extended to whole chunks
	chunkItems int64 // items in a (padded) chunk: Π ecs
	blockItems int64 // items in a block: Π bs
	nblocks    int64 // blocks per chunk: Π bic
	nchunks    int64 // chunks in the array: Π cia
}

// chunkBytes is the uncompressed size of every chunk, padding included.
func (g *geom) chunkBytes() int64 { return g.chunkItems * g.T }

// blockBytes is the size of one block.
func (g *geom) blockBytes() int64 { return g.blockItems * g.T }

func mul64(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int64(lo), true
}

// newGeom checks m's geometry the way C-Blosc2 does when it opens an array
// and derives the layout for items of typesize bytes.
func newGeom(m *Meta, typesize int) (*geom, error) {
	n := len(m.Shape)
	if n > MaxDim {
		return nil, fmt.Errorf("%w: %d dimensions, at most %d", blosc2.ErrHeader, n, MaxDim)
	}
	if len(m.ChunkShape) != n || len(m.BlockShape) != n {
		return nil, fmt.Errorf("%w: shape has %d dimensions, chunkshape %d, blockshape %d",
			blosc2.ErrHeader, n, len(m.ChunkShape), len(m.BlockShape))
	}
	if typesize < 1 || typesize > blosc2.MaxTypeSize {
		return nil, fmt.Errorf("%w: typesize %d", blosc2.ErrHeader, typesize)
	}
	g := &geom{
		ndim: n, T: int64(typesize),
		shape: make([]int64, n), cs: make([]int64, n), bs: make([]int64, n),
		ecs: make([]int64, n), cia: make([]int64, n), bic: make([]int64, n),
		nitems: 1, extItems: 1, chunkItems: 1, blockItems: 1, nblocks: 1, nchunks: 1,
	}
	chunkItems32 := int64(1) // C's chunknitems (unpadded), an int32
	for i := range n {
		s, c, b := m.Shape[i], int64(m.ChunkShape[i]), int64(m.BlockShape[i])
		switch {
		case s < 0:
			return nil, fmt.Errorf("%w: shape[%d] = %d is negative", blosc2.ErrHeader, i, s)
		case c < 0 || b < 0:
			return nil, fmt.Errorf("%w: chunkshape[%d] = %d, blockshape[%d] = %d: negative", blosc2.ErrHeader, i, c, i, b)
		case b == 0 && c != 0:
			return nil, fmt.Errorf("%w: blockshape[%d] is 0 with chunkshape[%d] = %d", blosc2.ErrHeader, i, i, c)
		case s != 0 && c == 0:
			return nil, fmt.Errorf("%w: shape[%d] = %d with chunkshape 0", blosc2.ErrHeader, i, s)
		}
		g.shape[i], g.cs[i], g.bs[i] = s, c, b
		if c == 0 {
			// Only with shape 0 and blockshape 0: a placeholder dimension.
			g.ecs[i], g.cia[i], g.bic[i] = 0, 0, 0
		} else {
			g.ecs[i] = (c + b - 1) / b * b
			g.cia[i] = s / c
			if s%c != 0 {
				g.cia[i]++
			}
			g.bic[i] = g.ecs[i] / b
		}
		ext, okExt := mul64(g.cia[i], c)
		var ok0 bool
		g.extItems, ok0 = mul64(g.extItems, ext)
		ok0 = ok0 && okExt
		var ok1, ok2, ok3, ok4, ok5, ok6 bool
		g.nitems, ok1 = mul64(g.nitems, s)
		g.chunkItems, ok2 = mul64(g.chunkItems, g.ecs[i])
		g.blockItems, ok3 = mul64(g.blockItems, b)
		g.nblocks, ok4 = mul64(g.nblocks, g.bic[i])
		g.nchunks, ok5 = mul64(g.nchunks, g.cia[i])
		chunkItems32, ok6 = mul64(chunkItems32, c)
		if !(ok0 && ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || chunkItems32 > math.MaxInt32 || g.blockItems > math.MaxInt32 {
			return nil, fmt.Errorf("%w: shape, chunkshape or blockshape product overflows at dimension %d", blosc2.ErrHeader, i)
		}
	}
	if _, ok := mul64(g.nitems, g.T); !ok {
		return nil, fmt.Errorf("%w: %d items of %d bytes overflow", blosc2.ErrHeader, g.nitems, g.T)
	}
	if g.nitems > 0 {
		cb, ok := mul64(g.chunkItems, g.T)
		if !ok || cb > blosc2.MaxBufferSize {
			return nil, fmt.Errorf("%w: chunks of %d items of %d bytes exceed a Blosc2 chunk's %d bytes",
				blosc2.ErrTooLarge, g.chunkItems, g.T, blosc2.MaxBufferSize)
		}
		if g.blockItems*g.T > blosc2.MaxBlockSize {
			return nil, fmt.Errorf("%w: blocks of %d bytes exceed %d", blosc2.ErrTooLarge, g.blockItems*g.T, blosc2.MaxBlockSize)
		}
	}
	return g, nil
}

// chunkBox returns the array box [lo, hi) chunk number k covers (without
// padding); coords receives k's grid coordinates.
func (g *geom) chunkBox(k int64, coords, lo, hi []int64) {
	unravel(k, g.cia, coords)
	for i := range g.ndim {
		lo[i] = coords[i] * g.cs[i]
		hi[i] = min(lo[i]+g.cs[i], g.shape[i])
	}
}

// unravel writes the C-order multi-index of k over dims into idx.
func unravel(k int64, dims, idx []int64) {
	for i := len(dims) - 1; i >= 0; i-- {
		if dims[i] == 0 {
			idx[i] = 0
			continue
		}
		idx[i] = k % dims[i]
		k /= dims[i]
	}
}

// ravel is the C-order linear index of idx over dims.
func ravel(idx, dims []int64) int64 {
	var k int64
	for i := range dims {
		k = k*dims[i] + idx[i]
	}
	return k
}

// next advances idx over the box [lo, hi] (inclusive) in C order and
// reports whether it did not wrap around.
func next(idx, lo, hi []int64) bool {
	for i := len(idx) - 1; i >= 0; i-- {
		if idx[i] < hi[i] {
			idx[i]++
			return true
		}
		idx[i] = lo[i]
	}
	return false
}

// copyBox copies a box of extents n between two C-order arrays of items of
// T bytes: from src (extents ss) at sOrigin to dst (extents ds) at dOrigin.
// Every extent of n is positive and the box lies inside both arrays.
func copyBox(dst []byte, ds, dOrigin []int64, src []byte, ss, sOrigin []int64, n []int64, T int64) {
	nd := len(n)
	if nd == 0 {
		copy(dst[:T], src[:T])
		return
	}
	// Byte strides of both arrays and start offsets.
	var dstr, sstr [MaxDim]int64
	dOff, sOff := int64(0), int64(0)
	dstride, sstride := T, T
	for i := nd - 1; i >= 0; i-- {
		dstr[i], sstr[i] = dstride, sstride
		dOff += dOrigin[i] * dstride
		sOff += sOrigin[i] * sstride
		dstride *= ds[i]
		sstride *= ss[i]
	}
	// Merge trailing dimensions that the box covers entirely in both
	// arrays: their items are one contiguous run.
	k := nd - 1
	run := n[k] * T
	for k > 0 && n[k] == ds[k] && n[k] == ss[k] {
		k--
		run *= n[k]
	}
	if k == 0 {
		copy(dst[dOff:dOff+run], src[sOff:sOff+run])
		return
	}
	// Odometer over dimensions 0..k-1; dimension k (and the merged ones
	// after it) is the run.
	var idx [MaxDim]int64
	for {
		copy(dst[dOff:dOff+run], src[sOff:sOff+run])
		i := k - 1
		for ; i >= 0; i-- {
			idx[i]++
			dOff += dstr[i]
			sOff += sstr[i]
			if idx[i] < n[i] {
				break
			}
			dOff -= n[i] * dstr[i]
			sOff -= n[i] * sstr[i]
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}
