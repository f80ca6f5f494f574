package blosc2

import (
	"fmt"
)

// AppendSpecial appends a special-value chunk to dst: nbytes bytes of
// typesize-byte elements that are all zero (SpecialZero), all NaN
// (SpecialNaN, typesize 4 or 8), left uninitialised (SpecialUninit) or all
// equal to value (SpecialValue; then len(value) is the element width and
// typesize is ignored). blocksize 0 records the automatic block size of
// C-Blosc2's default parameters, as blosc2_chunk_zeros & co. do; a frame
// passes its own. The bytes are those of C-Blosc2 3.3.2.
func AppendSpecial(dst []byte, kind Special, nbytes, typesize, blocksize int, value []byte) ([]byte, error) {
	if nbytes < 0 || nbytes > MaxBufferSize {
		return dst, fmt.Errorf("%w: nbytes %d outside 0-%d", ErrInvalidOption, nbytes, MaxBufferSize)
	}
	if kind == SpecialValue {
		typesize = len(value)
		if typesize == 0 || nbytes%typesize != 0 || typesize > MaxTypeSize {
			return dst, fmt.Errorf("%w: repeated value of %d bytes for nbytes %d", ErrInvalidOption, typesize, nbytes)
		}
	}
	if typesize < 1 || typesize > MaxTypeSize {
		return dst, fmt.Errorf("%w: typesize %d", ErrInvalidOption, typesize)
	}
	switch kind {
	case SpecialZero, SpecialUninit, SpecialValue:
	case SpecialNaN:
		if typesize != 4 && typesize != 8 {
			return dst, fmt.Errorf("%w: NaN chunk needs typesize 4 or 8, not %d", ErrInvalidOption, typesize)
		}
	default:
		return dst, fmt.Errorf("%w: special kind %v", ErrInvalidOption, kind)
	}
	if (kind == SpecialNaN || kind == SpecialUninit) && nbytes%typesize != 0 {
		return dst, fmt.Errorf("%w: nbytes %d not a multiple of typesize %d", ErrInvalidOption, nbytes, typesize)
	}
	if blocksize <= 0 {
		p := DefaultCParams()
		p.TypeSize = typesize
		blocksize = autoBlockSize(&p, nbytes)
	}
	if nbytes > 0 {
		blocksize = min(blocksize, nbytes)
	}
	h := Header{
		Version:    VersionStable,
		VersionLZ:  1,
		Flags:      flagExtended,
		TypeSize:   headerTypeSize(typesize),
		Nbytes:     nbytes,
		BlockSize:  blocksize,
		Cbytes:     ExtendedHeaderLen,
		blosc2Flag: uint8(kind) << 4,
	}
	if kind == SpecialValue {
		h.Cbytes += len(value)
	}
	var hdr [ExtendedHeaderLen]byte
	putHeader(hdr[:], &h)
	dst = append(dst, hdr[:]...)
	if kind == SpecialValue {
		dst = append(dst, value...)
	}
	return dst, nil
}

// GetItems decodes items [start, start+n) of chunk, items being
// header-typesize bytes wide, and appends them to dst. It decodes only the
// blocks that hold them (and block 0 when DELTA needs it as reference).
// Of p (nil: defaults), only Geometry is used: the block shape ZFP, NDLZ,
// NDCELL and NDMEAN chunks need.
func GetItems(dst, chunk []byte, start, n int, p *DParams) ([]byte, error) {
	h, err := ParseHeader(chunk)
	if err != nil {
		return dst, err
	}
	ts := h.TypeSize
	if start < 0 || n < 0 || start > h.Nbytes/ts || n > h.Nbytes/ts-start {
		return dst, fmt.Errorf("%w: items [%d, %d+%d) outside the chunk's %d items", ErrInvalidOption, start, start, n, h.Nbytes/ts)
	}
	return getRange(dst, chunk[:h.Cbytes], &h, start*ts, n*ts, p.geometry())
}

// DecompressRange decodes bytes [off, off+n) of chunk's data and appends
// them to dst, decoding only the blocks that hold them (and block 0 when
// DELTA needs it as reference). Unlike GetItems, the range need not be
// whole items. Of p (nil: defaults), only Geometry is used.
func DecompressRange(dst, chunk []byte, off, n int, p *DParams) ([]byte, error) {
	h, err := ParseHeader(chunk)
	if err != nil {
		return dst, err
	}
	if off < 0 || n < 0 || off > h.Nbytes || n > h.Nbytes-off {
		return dst, fmt.Errorf("%w: bytes [%d, %d+%d) outside the chunk's %d", ErrInvalidOption, off, off, n, h.Nbytes)
	}
	return getRange(dst, chunk[:h.Cbytes], &h, off, n, p.geometry())
}

// getRange appends bytes [off, off+n) of the chunk's data to dst; g is
// the block shape, nil outside b2nd arrays.
func getRange(dst, chunk []byte, h *Header, off, n int, g *Geometry) ([]byte, error) {
	start := len(dst)
	dst = append(dst, make([]byte, n)...)
	out := dst[start:]
	if n == 0 {
		return dst, nil
	}
	switch h.Special() {
	case SpecialZero, SpecialUninit:
		return dst, nil
	case SpecialNaN:
		var nan [8]byte
		elem := nan[:min(h.TypeSize, len(nan))]
		if err := fillNaN(elem, h.TypeSize); err != nil {
			return dst[:start], err
		}
		fillRepeat(out, elem, off)
		return dst, nil
	case SpecialValue:
		fillRepeat(out, chunk[ExtendedHeaderLen:h.Cbytes], off)
		return dst, nil
	}
	if h.Memcpyed() {
		copy(out, chunk[h.HeaderLen()+off:])
		return dst, nil
	}
	d, err := newDecoder(h, chunk)
	if err != nil {
		return dst[:start], err
	}
	defer d.release()
	d.geom = g
	if err := checkFilters(h); err != nil {
		return dst[:start], err
	}
	s := getScratch(d.maxBlockLen(), d.maxBlockLen())
	defer putScratch(s)
	blk := s.blk
	var ref []byte
	if d.needsRef() {
		_, n0 := d.blockRange(0)
		ref = make([]byte, n0)
		if err := d.decodeBlock(ref, 0, nil, s); err != nil {
			return dst[:start], err
		}
	}
	end := off + n
	for j := 0; j < d.nblocks; j++ {
		bo, bn := d.blockRange(j)
		if bo+bn <= off || bo >= end {
			continue
		}
		b := blk[:bn]
		if j == 0 && ref != nil {
			b = ref
		} else {
			r := ref
			if j == 0 {
				r = nil
			}
			if err := d.decodeBlock(b, j, r, s); err != nil {
				return dst[:start], err
			}
		}
		lo, hi := max(off, bo), min(end, bo+bn)
		copy(out[lo-off:], b[lo-bo:hi-bo])
	}
	return dst, nil
}
