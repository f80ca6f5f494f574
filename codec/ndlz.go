package codec

import (
	"encoding/binary"
	"fmt"

	"github.com/blosc2go/blosc2/internal/errs"
)

// NDLZ is C-Blosc2's NDLZ codec (plugins/codecs/ndlz): an LZ codec for
// 2-dimensional blocks of bytes (typesize 1) that matches whole cells of
// 4×4 or 8×8 bytes (the meta byte: 4 or 8) and, for 4×4 cells, rows and
// pairs of rows, against earlier parts of the stream. It is a
// [ShapedCodec]: compressing needs the b2nd block shape, decompressing
// does not (the stream starts with it).
//
// Streams written here use literal cells, cells of one repeated byte and
// whole-cell matches; they decode with C-Blosc2's NDLZ (the row matches
// C's encoder also finds are not written, so C compresses some data
// better).
const NDLZ ID = 32

type ndlzCodec struct{}

func init() {
	registry[NDLZ] = entry{"ndlz", ndlzCodec{}}
}

// NDLZ tokens.
const (
	ndlzLiteral   = 0x00 // the cell's bytes follow
	ndlzRun       = 0x40 // one byte, repeated over the cell
	ndlzCellMatch = 0xC0 // a 2-byte back offset to an earlier copy of the cell
)

func (ndlzCodec) Compress(dst, src []byte, clevel int, meta uint8, dict []byte) (int, error) {
	return 0, fmt.Errorf("ndlz: %w", ErrNoGeometry)
}

func (ndlzCodec) Decompress(dst, src []byte, meta uint8, dict []byte) (int, error) {
	return ndlzDecompress(dst, src, meta)
}

func (ndlzCodec) DecompressShaped(dst, src []byte, meta uint8, typesize int, g *Geometry) (int, error) {
	return ndlzDecompress(dst, src, meta)
}

func ndlzCell(meta uint8) (int, error) {
	if meta != 4 && meta != 8 {
		return 0, fmt.Errorf("%w: ndlz: cell size %d (4 or 8)", errs.ErrCorrupt, meta)
	}
	return int(meta), nil
}

// ndlzDecompress decodes an NDLZ stream as C-Blosc2 3.3.2 does, with its
// bounds checks: every reference must lie inside src, every token must be
// known, and the block must fill dst exactly.
func ndlzDecompress(dst, src []byte, meta uint8) (int, error) {
	cs, err := ndlzCell(meta)
	if err != nil {
		return 0, err
	}
	if len(src) < 9 {
		return 0, fmt.Errorf("%w: ndlz: %d-byte stream, header needs 9", errs.ErrCorrupt, len(src))
	}
	if src[0] != 2 {
		return 0, fmt.Errorf("%w: ndlz: %d dimensions, not 2", errs.ErrCorrupt, src[0])
	}
	b0 := int64(int32(binary.LittleEndian.Uint32(src[1:])))
	b1 := int64(int32(binary.LittleEndian.Uint32(src[5:])))
	if b0 < 0 || b1 < 0 || b0*b1 != int64(len(dst)) {
		return 0, fmt.Errorf("%w: ndlz: block %d×%d in a %d-byte block", errs.ErrCorrupt, b0, b1, len(dst))
	}
	bs0, bs1 := int(b0), int(b1)
	clear(dst)
	var local, run [64]byte
	ip := 9
	// need reports whether n bytes at pos lie inside src.
	need := func(pos, n int) bool { return pos >= 0 && n >= 0 && pos <= len(src)-n }
	bad := func(what string, pos int) (int, error) {
		return 0, fmt.Errorf("%w: ndlz: %s at offset %d", errs.ErrCorrupt, what, pos)
	}
	nc0, nc1 := (bs0+cs-1)/cs, (bs1+cs-1)/cs
	for c0 := range nc0 {
		p0 := cs
		if c0 == nc0-1 && bs0%cs != 0 {
			p0 = bs0 % cs
		}
		for c1 := range nc1 {
			p1 := cs
			if c1 == nc1-1 && bs1%cs != 0 {
				p1 = bs1 % cs
			}
			cur := ip
			if !need(cur, 1) {
				return bad("stream ends before the cell", cur)
			}
			token := src[ip]
			ip++
			var cell []byte // p0 rows of p1 bytes, read at stride p1
			switch {
			case token == ndlzLiteral:
				if !need(ip, p0*p1) {
					return bad("literal cell past the end", cur)
				}
				cell = src[ip : ip+p0*p1]
				ip += p0 * p1
			case token == ndlzCellMatch:
				if !need(ip, 2) {
					return bad("cell match past the end", cur)
				}
				ref := cur - int(binary.LittleEndian.Uint16(src[ip:]))
				if !need(ref, p0*p1) {
					return bad("cell match reference outside the stream", cur)
				}
				cell = src[ref : ref+p0*p1]
				ip += 2
			case token == ndlzRun:
				if !need(ip, 1) {
					return bad("run past the end", cur)
				}
				for i := range run {
					run[i] = src[ip]
				}
				cell = run[:]
				ip++
			case cs == 4:
				if ip, err = ndlz4Rows(local[:16], src, cur, token, need); err != nil {
					return 0, err
				}
				cell = local[:16]
			default:
				if ip, err = ndlz8Rows(local[:], src, cur, token, need); err != nil {
					return 0, err
				}
				cell = local[:]
			}
			orig := c0*cs*bs1 + c1*cs
			for r := range p0 {
				copy(dst[orig+r*bs1:orig+r*bs1+p1], cell[r*p1:])
			}
		}
	}
	return len(dst), nil
}

// ndlz4Rows decodes the row-match tokens of 4×4 cells into cell and returns
// the offset after them.
func ndlz4Rows(cell, src []byte, cur int, token byte, need func(pos, n int) bool) (int, error) {
	bad := func(what string) (int, error) {
		return 0, fmt.Errorf("%w: ndlz: %s at offset %d", errs.ErrCorrupt, what, cur)
	}
	ip := cur + 1
	switch {
	case token >= 224: // three rows from one place, one literal row
		if !need(ip, 2) {
			return bad("row match past the end")
		}
		ref := cur - int(binary.LittleEndian.Uint16(src[ip:]))
		ip += 2
		rows := [4][3]int{{1, 2, 3}, {0, 1, 2}, {0, 1, 3}, {0, 2, 3}}[token>>3-28]
		if !need(ref, 12) {
			return bad("row match reference outside the stream")
		}
		for n, r := range rows {
			copy(cell[4*r:4*r+4], src[ref+4*n:])
		}
		for l := range 4 {
			if l != rows[0] && l != rows[1] && l != rows[2] {
				if !need(ip, 4) {
					return bad("literal row past the end")
				}
				copy(cell[4*l:4*l+4], src[ip:])
				ip += 4
				break
			}
		}
	case token >= 128 && token <= 191: // a pair of rows, two literal rows
		if !need(ip, 2) {
			return bad("row match past the end")
		}
		ref := cur - int(binary.LittleEndian.Uint16(src[ip:]))
		ip += 2
		i, j := 2, 3
		if token != 128 {
			i = int(token-128) >> 5
			j = int(token-128)>>3 - i<<2
		}
		if !need(ref, 8) {
			return bad("row match reference outside the stream")
		}
		copy(cell[4*i:4*i+4], src[ref:])
		copy(cell[4*j:4*j+4], src[ref+4:])
		for k := range 4 {
			if k != i && k != j {
				if !need(ip, 4) {
					return bad("literal row past the end")
				}
				copy(cell[4*k:4*k+4], src[ip:])
				ip += 4
			}
		}
	case token >= 40 && token <= 63: // two pairs of rows
		if !need(ip, 4) {
			return bad("row match past the end")
		}
		ref1 := cur - int(binary.LittleEndian.Uint16(src[ip:]))
		ref2 := cur - int(binary.LittleEndian.Uint16(src[ip+2:]))
		ip += 4
		j := int(token-32) >> 3
		var other []int
		for k := 1; k < 4; k++ {
			if k != j {
				other = append(other, k)
			}
		}
		if !need(ref1, 8) || !need(ref2, 8) {
			return bad("row match reference outside the stream")
		}
		copy(cell[0:4], src[ref1:])
		copy(cell[4*j:4*j+4], src[ref1+4:])
		copy(cell[4*other[0]:4*other[0]+4], src[ref2:])
		copy(cell[4*other[1]:4*other[1]+4], src[ref2+4:])
	default:
		return bad(fmt.Sprintf("unknown token %#x", token))
	}
	return ip, nil
}

// ndlz8Rows decodes the row-match tokens of 8×8 cells: three (type 21) or
// two (type 17) consecutive rows from one place, the other rows literal.
func ndlz8Rows(cell, src []byte, cur int, token byte, need func(pos, n int) bool) (int, error) {
	bad := func(what string) (int, error) {
		return 0, fmt.Errorf("%w: ndlz: %s at offset %d", errs.ErrCorrupt, what, cur)
	}
	var n int
	switch token >> 3 {
	case 21:
		n = 3
	case 17:
		n = 2
	default:
		return bad(fmt.Sprintf("unknown token %#x", token))
	}
	row := int(token & 7)
	if row+n-1 >= 8 {
		return bad("row match past the cell")
	}
	ip := cur + 1
	if !need(ip, 2) {
		return bad("row match past the end")
	}
	ref := cur - int(binary.LittleEndian.Uint16(src[ip:]))
	ip += 2
	if !need(ref, 8*n) {
		return bad("row match reference outside the stream")
	}
	for l := range n {
		copy(cell[8*(row+l):8*(row+l)+8], src[ref+8*l:])
	}
	for l := range 8 {
		if l < row || l >= row+n {
			if !need(ip, 8) {
				return bad("literal row past the end")
			}
			copy(cell[8*l:8*l+8], src[ip:])
			ip += 8
		}
	}
	return ip, nil
}

// CompressShaped writes the block (bs0×bs1 bytes) cell by cell: a run token
// for a cell of one byte, a match for a cell equal to an earlier literal
// cell within 65535 bytes, a literal otherwise.
func (ndlzCodec) CompressShaped(dst, src []byte, clevel int, meta uint8, typesize int, g *Geometry) (int, error) {
	cs, err := ndlzCell(meta)
	if err != nil {
		return 0, fmt.Errorf("%w: ndlz: cell size %d (4 or 8)", errs.ErrInvalidOption, meta)
	}
	if g == nil {
		return 0, fmt.Errorf("ndlz: %w", ErrNoGeometry)
	}
	if len(g.BlockShape) != 2 {
		return 0, fmt.Errorf("%w: ndlz: %d dimensions, it needs 2", errs.ErrInvalidOption, len(g.BlockShape))
	}
	bs0, bs1 := g.BlockShape[0], g.BlockShape[1]
	if typesize != 1 || bs0 <= 0 || bs1 <= 0 || bs0 > len(src)/bs1 || bs0*bs1 != len(src) {
		return 0, fmt.Errorf("%w: ndlz works on blocks of bytes (typesize 1), not %d-byte values in %v", errs.ErrInvalidOption, typesize, g.BlockShape)
	}
	out := make([]byte, 9, len(src)+len(src)/8+16)
	out[0] = 2
	binary.LittleEndian.PutUint32(out[1:], uint32(bs0))
	binary.LittleEndian.PutUint32(out[5:], uint32(bs1))
	seen := map[string]int{} // packed cell bytes → offset of a literal copy
	cell := make([]byte, 0, cs*cs)
	nc0, nc1 := (bs0+cs-1)/cs, (bs1+cs-1)/cs
	for c0 := range nc0 {
		p0 := min(cs, bs0-c0*cs)
		for c1 := range nc1 {
			p1 := min(cs, bs1-c1*cs)
			cell = cell[:0]
			orig := c0*cs*bs1 + c1*cs
			for r := range p0 {
				cell = append(cell, src[orig+r*bs1:orig+r*bs1+p1]...)
			}
			same := true
			for _, b := range cell {
				same = same && b == cell[0]
			}
			cur := len(out)
			switch ref, ok := seen[string(cell)]; {
			case same:
				out = append(out, ndlzRun, cell[0])
			case ok && cur-ref <= 0xFFFF:
				out = append(out, ndlzCellMatch, byte(cur-ref), byte((cur-ref)>>8))
			default:
				out = append(out, ndlzLiteral)
				seen[string(cell)] = len(out)
				out = append(out, cell...)
			}
			if len(out) >= len(src) {
				return 0, nil // does not compress: stored as is
			}
		}
	}
	if len(out) > len(dst) {
		return 0, nil
	}
	return copy(dst, out), nil
}
