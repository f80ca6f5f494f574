package frame

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"github.com/blosc2go/blosc2/internal/errs"
)

// VLMeta is a variable-length metalayer: a name and its value, which is a
// Blosc2 chunk holding the user's bytes.
type VLMeta struct {
	Name  string
	Chunk []byte
}

// TrailerLen is the length of the trailer for vlmetas.
func TrailerLen(vl []VLMeta) int {
	n := EmptyTrailerLen
	for _, m := range vl {
		n += len(m.Name) + 6 + len(m.Chunk) + 5
	}
	return n
}

// AppendTrailer encodes the trailer as frame_update_trailer does
// (README_CFRAME_FORMAT.rst, "Trailer"), with the fingerprint fp (C-Blosc2's is the zero value), and
// appends it to dst.
func AppendTrailer(dst []byte, vl []VLMeta, fp Fingerprint) []byte {
	start := len(dst)
	idx := 6
	for _, m := range vl {
		idx += len(m.Name) + 6
	}
	dst = append(dst, 0x94, 0x01, 0x93, mpUint16)
	dst = appendU16(dst, uint16(idx))
	dst = append(dst, mpMap16)
	dst = appendU16(dst, uint16(len(vl)))
	off := 12
	for _, m := range vl {
		off += len(m.Name) + 6
	}
	for _, m := range vl {
		dst = append(dst, mpFixStr|byte(len(m.Name)))
		dst = append(dst, m.Name...)
		dst = append(dst, mpInt32)
		dst = appendU32(dst, uint32(off))
		off += 5 + len(m.Chunk)
	}
	dst = append(dst, mpArray16)
	dst = appendU16(dst, uint16(len(vl)))
	for _, m := range vl {
		dst = append(dst, mpBin32)
		dst = appendU32(dst, uint32(len(m.Chunk)))
		dst = append(dst, m.Chunk...)
	}
	dst = append(dst, mpUint32)
	dst = appendU32(dst, uint32(len(dst)-start+4+18))
	dst = append(dst, mpFixExt16, byte(fp.Type))
	dst = append(dst, fp.Value[:]...)
	return dst
}

// TrailerLenAt reads trailer_len from tail, the last TrailerMinLen bytes
// of a frame, checking the 0xCE marker C-Blosc2 checks.
func TrailerLenAt(tail []byte) (int64, error) {
	if len(tail) < TrailerMinLen {
		return 0, fmt.Errorf("%w: frame end of %d bytes, need %d", errs.ErrTruncated, len(tail), TrailerMinLen)
	}
	t := tail[len(tail)-TrailerMinLen:]
	if t[2] != mpUint32 {
		return 0, fmt.Errorf("%w: trailer: marker %#02x before trailer_len, want 0xce", errs.ErrHeader, t[2])
	}
	return int64(binary.BigEndian.Uint32(t[3:])), nil
}

// ParseTrailer decodes the vlmetalayers of t, the whole trailer, as
// get_vlmeta_from_trailer does: through the offsets of the map. Values are
// slices of t.
func ParseTrailer(t []byte) ([]VLMeta, error) {
	r := &reader{b: t, what: "trailer"}
	if err := r.expect(0x94, "trailer array"); err != nil {
		return nil, err
	}
	if _, err := r.byte1(); err != nil { // version, not checked (as C)
		return nil, err
	}
	if err := r.expect(0x93, "vlmetalayers array"); err != nil {
		return nil, err
	}
	if err := r.expect(mpUint16, "vlmetalayers idx_size"); err != nil {
		return nil, err
	}
	if _, err := r.u16(); err != nil {
		return nil, err
	}
	if err := r.expect(mpMap16, "vlmetalayers map"); err != nil {
		return nil, err
	}
	n, err := r.u16()
	if err != nil {
		return nil, err
	}
	if n > MaxVLMetalayersRead {
		return nil, fmt.Errorf("%w: %d vlmetalayers, at most %d", errs.ErrHeader, n, MaxVLMetalayersRead)
	}
	// Each entry takes at least 7 bytes of map and 5 of value.
	if n*12 > len(t) {
		return nil, fmt.Errorf("%w: %d vlmetalayers cannot fit a %d-byte trailer", errs.ErrHeader, n, len(t))
	}
	out := make([]VLMeta, 0, n)
	for i := range n {
		name, err := r.fixstr(fmt.Sprintf("vlmetalayer %d name", i))
		if err != nil {
			return nil, err
		}
		if err := r.expect(mpInt32, "vlmetalayer offset"); err != nil {
			return nil, err
		}
		off, err := r.u32()
		if err != nil {
			return nil, err
		}
		o := int(int32(off))
		if o < 0 || o+5 > len(t) {
			return nil, fmt.Errorf("%w: vlmetalayer %q at trailer offset %d, outside the %d-byte trailer", errs.ErrHeader, name, o, len(t))
		}
		if t[o] != mpBin32 {
			return nil, fmt.Errorf("%w: vlmetalayer %q: marker %#02x at trailer offset %d, want bin32", errs.ErrHeader, name, t[o], o)
		}
		ln := int(int32(binary.BigEndian.Uint32(t[o+1:])))
		if ln < 0 || ln > len(t)-o-5 {
			return nil, fmt.Errorf("%w: vlmetalayer %q of %d bytes at trailer offset %d overruns the %d-byte trailer", errs.ErrHeader, name, ln, o, len(t))
		}
		for _, m := range out {
			if m.Name == name {
				return nil, fmt.Errorf("%w: vlmetalayer %q appears twice", errs.ErrHeader, name)
			}
		}
		out = append(out, VLMeta{Name: name, Chunk: t[o+5 : o+5+ln : o+5+ln]})
	}
	return out, nil
}

// ReadTrailer reads exactly one trailer from r, which must be positioned
// at its first byte, and returns its bytes after checking that its
// recorded trailer_len matches. Lengths inside it are bounded by limit
// (the bytes the frame can still hold; pass a negative limit when that is
// unknown) and read incrementally, so a corrupt length cannot force a large
// allocation ahead of the data.
func ReadTrailer(r io.Reader, limit int64) ([]byte, error) {
	// Most trailers are a few dozen bytes: one allocation holds them.
	buf := make([]byte, 0, 128)
	read := func(n int64) ([]byte, error) {
		if limit >= 0 && int64(len(buf))+n > limit {
			return nil, fmt.Errorf("%w: trailer needs %d bytes, the frame has %d left", errs.ErrCorrupt, int64(len(buf))+n, limit)
		}
		start := len(buf)
		for n > 0 {
			// At most exactAlloc bytes more than have arrived.
			k := int(min(n, exactAlloc))
			buf = slices.Grow(buf, k)
			m, err := io.ReadFull(r, buf[len(buf):len(buf)+k])
			buf = buf[:len(buf)+m]
			if err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return nil, fmt.Errorf("%w: trailer ends after %d bytes: %w", errs.ErrTruncated, len(buf), err)
			}
			n -= int64(k)
		}
		return buf[start:], nil
	}
	p, err := read(9)
	if err != nil {
		return nil, err
	}
	if p[0] != 0x94 || p[2] != 0x93 || p[3] != mpUint16 || p[6] != mpMap16 {
		return nil, fmt.Errorf("%w: trailer starts % x, not a frame trailer", errs.ErrHeader, p[:7])
	}
	n := int(binary.BigEndian.Uint16(p[7:]))
	for i := range n {
		c, err := read(1)
		if err != nil {
			return nil, err
		}
		if c[0]&0xE0 != mpFixStr {
			return nil, fmt.Errorf("%w: trailer: vlmetalayer %d name marker %#02x", errs.ErrHeader, i, c[0])
		}
		if _, err := read(int64(c[0]&0x1F) + 5); err != nil {
			return nil, err
		}
	}
	p, err = read(3)
	if err != nil {
		return nil, err
	}
	if p[0] != mpArray16 || int(binary.BigEndian.Uint16(p[1:])) != n {
		return nil, fmt.Errorf("%w: trailer: vlmetalayer values array % x for %d names", errs.ErrHeader, p, n)
	}
	for i := range n {
		p, err := read(5)
		if err != nil {
			return nil, err
		}
		if p[0] != mpBin32 {
			return nil, fmt.Errorf("%w: trailer: vlmetalayer %d value marker %#02x", errs.ErrHeader, i, p[0])
		}
		if _, err := read(int64(binary.BigEndian.Uint32(p[1:]))); err != nil {
			return nil, err
		}
	}
	if _, err := read(5 + 18); err != nil {
		return nil, err
	}
	t := buf
	tl, err := TrailerLenAt(t)
	if err != nil {
		return nil, err
	}
	if tl != int64(len(t)) {
		return nil, fmt.Errorf("%w: trailer is %d bytes long but records trailer_len %d", errs.ErrHeader, len(t), tl)
	}
	return t, nil
}
