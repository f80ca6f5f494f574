package blosc2

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/blosc2go/blosc2/codec"
)

// The filters C-Blosc2 3.3.2 registers as plugins (plugins/filters):
// NDCELL and NDMEAN, which walk a block of a b2nd array cell by cell, and
// INT_TRUNC.

// errNoGeometry is the error of a filter that needs a block shape used
// without one.
var errNoGeometry = codec.ErrNoGeometry

// ndMaxDim is the most dimensions NDCELL and NDMEAN accept.
const ndMaxDim = 8

// filterNeedsGeometry reports whether filter id needs the block shape.
func filterNeedsGeometry(id FilterID) bool { return id == NDCell || id == NDMean }

// cellWalk calls run(elem, n) for every row of every cell of a block of
// shape bs cut into cells of shape cs (the edge cells cut short), cells in
// C order, rows in C order inside a cell: elem is the block index of the
// row's first element, n its length. Like C-Blosc2, the cell origin is
// counted in units of cs[0] along every dimension (cs differ only where a
// block side is shorter than the cell, and then there is one cell).
func cellWalk(bs, cs []int, run func(elem, n int)) {
	nd := len(bs)
	var ncell, ii, pad, kk [ndMaxDim]int
	total := 1
	for i := range nd {
		ncell[i] = (bs[i] + cs[i] - 1) / cs[i]
		total *= ncell[i]
	}
	for c := range total {
		// Unravel c into the cell coordinates ii (C order).
		r := c
		for i := nd - 1; i >= 0; i-- {
			ii[i] = r % ncell[i]
			r /= ncell[i]
		}
		orig, stride := 0, cs[0]
		for i := nd - 1; i >= 0; i-- {
			orig += ii[i] * stride
			stride *= bs[i]
		}
		copies := 1
		for i := range nd {
			pad[i] = cs[i]
			if bs[i]%cs[i] != 0 && ii[i] == ncell[i]-1 {
				pad[i] = bs[i] % cs[i]
			}
			if i < nd-1 {
				copies *= pad[i]
			}
		}
		for k := range copies {
			r := k
			for i := nd - 2; i >= 0; i-- {
				kk[i] = r % pad[i]
				r /= pad[i]
			}
			ind, stride := orig, bs[nd-1]
			for i := nd - 2; i >= 0; i-- {
				ind += kk[i] * stride
				stride *= bs[i]
			}
			run(ind, pad[nd-1])
		}
	}
}

// cellShapes checks the geometry for NDCELL (clamp false) or NDMEAN (clamp
// true, sides above the block's cut to it) on a block of n bytes, and
// returns the block and cell shapes.
func cellShapes(g *Geometry, f Filter, typesize, n int, clamp bool) (bs, cs []int, err error) {
	if g == nil {
		return nil, nil, fmt.Errorf("filter %d: %w", f.ID, errNoGeometry)
	}
	nd := len(g.BlockShape)
	if nd < 1 || nd > ndMaxDim {
		return nil, nil, fmt.Errorf("%w: filter %d: %d dimensions (1-%d)", ErrUnsupported, f.ID, nd, ndMaxDim)
	}
	side := int(f.Meta)
	if clamp {
		side = int(int8(f.Meta))
	}
	if side <= 0 {
		return nil, nil, fmt.Errorf("%w: filter %d: cell side %d", ErrCorrupt, f.ID, side)
	}
	elems := 1
	cells := 1
	cs = make([]int, nd)
	for i, s := range g.BlockShape {
		if s <= 0 || elems > n/typesize/s {
			return nil, nil, fmt.Errorf("%w: filter %d: block shape %v of %d-byte values is not the %d-byte block", ErrCorrupt, f.ID, g.BlockShape, typesize, n)
		}
		elems *= s
		cs[i] = side
		if clamp {
			cs[i] = min(side, s)
		}
		if cells > (1<<30)/cs[i] {
			cells = 1 << 30 // more than any block holds
		} else {
			cells *= cs[i]
		}
	}
	if elems*typesize != n {
		return nil, nil, fmt.Errorf("%w: filter %d: block shape %v of %d-byte values is not the %d-byte block", ErrCorrupt, f.ID, g.BlockShape, typesize, n)
	}
	if cells > elems {
		return nil, nil, fmt.Errorf("%w: filter %d: cells of %d elements in a block of %d", ErrCorrupt, f.ID, cells, elems)
	}
	return g.BlockShape, cs, nil
}

// ndcellForward writes the block src into dst cell by cell.
func ndcellForward(dst, src []byte, f Filter, typesize int, g *Geometry) error {
	bs, cs, err := cellShapes(g, f, typesize, len(src), false)
	if err != nil {
		return err
	}
	op := 0
	cellWalk(bs, cs, func(elem, n int) {
		op += copy(dst[op:], src[elem*typesize:(elem+n)*typesize])
	})
	return nil
}

// ndcellBackward puts the cells of src back in place: the inverse of both
// NDCELL and NDMEAN (clamp).
func ndcellBackward(dst, src []byte, f Filter, typesize int, g *Geometry, clamp bool) error {
	bs, cs, err := cellShapes(g, f, typesize, len(src), clamp)
	if err != nil {
		return err
	}
	ip := 0
	cellWalk(bs, cs, func(elem, n int) {
		ip += copy(dst[elem*typesize:(elem+n)*typesize], src[ip:])
	})
	return nil
}

// ndmeanForward writes, cell by cell, each cell's mean as many times as
// the cell has elements, summing in the order and precision C-Blosc2 does.
func ndmeanForward(dst, src []byte, f Filter, typesize int, g *Geometry) error {
	if typesize != 4 && typesize != 8 {
		return fmt.Errorf("%w: ndmean works on float32 and float64, not typesize %d", ErrInvalidOption, typesize)
	}
	bs, cs, err := cellShapes(g, f, typesize, len(src), true)
	if err != nil {
		return err
	}
	// Cells are visited row by row; a cell ends when the rows of its
	// extent have been seen. Rows are gathered per cell first.
	nd := len(bs)
	var sum32 float32
	var sum64 float64
	count := 0
	rows := 0
	// The rows of one cell are consecutive in cellWalk's order; count
	// how many rows each cell has by recomputing its extent.
	var ncell [ndMaxDim]int
	for i := range nd {
		ncell[i] = (bs[i] + cs[i] - 1) / cs[i]
	}
	cellRows := func(c int) int {
		r, n := c, 1
		for i := nd - 1; i >= 0; i-- {
			ii := r % ncell[i]
			r /= ncell[i]
			if i == nd-1 {
				continue
			}
			p := cs[i]
			if bs[i]%cs[i] != 0 && ii == ncell[i]-1 {
				p = bs[i] % cs[i]
			}
			n *= p
		}
		return n
	}
	cell, want := 0, cellRows(0)
	op := 0
	cellWalk(bs, cs, func(elem, n int) {
		for i := elem; i < elem+n; i++ {
			if typesize == 4 {
				sum32 += math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
			} else {
				sum64 += math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))
			}
		}
		count += n
		rows++
		if rows < want {
			return
		}
		for range count {
			if typesize == 4 {
				binary.LittleEndian.PutUint32(dst[op:], math.Float32bits(sum32/float32(count)))
			} else {
				binary.LittleEndian.PutUint64(dst[op:], math.Float64bits(sum64/float64(count)))
			}
			op += typesize
		}
		sum32, sum64, count, rows = 0, 0, 0, 0
		cell++
		want = cellRows(cell)
	})
	return nil
}

// intTrunc zeroes the low bits of each integer of src into dst: int8(meta)
// ≥ 0 keeps that many high bits, < 0 zeroes -meta low bits.
func intTrunc(dst, src []byte, meta uint8, typesize int) error {
	width := 8 * typesize
	if typesize != 1 && typesize != 2 && typesize != 4 && typesize != 8 {
		return fmt.Errorf("%w: int_trunc works on 1, 2, 4 and 8-byte integers, not typesize %d", ErrInvalidOption, typesize)
	}
	prec := int(int8(meta))
	zeroed := -prec
	if prec >= 0 {
		zeroed = width - prec
	}
	if zeroed < 0 || zeroed >= width {
		return fmt.Errorf("%w: int_trunc of %d-bit integers cannot keep %d bits", ErrInvalidOption, width, prec)
	}
	mask := ^(uint64(1)<<zeroed - 1)
	n := len(src) / typesize * typesize
	for i := 0; i < n; i += typesize {
		switch typesize {
		case 1:
			dst[i] = src[i] & byte(mask)
		case 2:
			binary.LittleEndian.PutUint16(dst[i:], binary.LittleEndian.Uint16(src[i:])&uint16(mask))
		case 4:
			binary.LittleEndian.PutUint32(dst[i:], binary.LittleEndian.Uint32(src[i:])&uint32(mask))
		default:
			binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(src[i:])&mask)
		}
	}
	copy(dst[n:], src[n:])
	return nil
}
