package frame

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/blosc2go/blosc2/internal/errs"
)

// Metalayer is a named fixed-size metadata blob stored raw in the header.
type Metalayer struct {
	Name    string
	Content []byte
	// Offset is the position of the value's bin32 marker (0xC6) from the
	// frame start, as the header's map records it; 0 for one not yet encoded.
	Offset int
}

// Header is the decoded header of a current-layout frame (README_CFRAME_FORMAT.rst).
type Header struct {
	HeaderLen    int   // length of the whole header, metalayers included
	FrameLen     int64 // length of the whole frame; 0 when never patched
	GeneralFlags uint8
	FrameType    uint8 // TypeContiguous or TypeSparse
	CodecFlags   uint8 // compcode | clevel<<4
	OtherFlags   uint8 // splitmode-1
	Nbytes       int64
	Cbytes       int64
	TypeSize     int32
	BlockSize    int32
	ChunkSize    int32 // -1: no chunk yet; 0: variable; >0: fixed
	TComp        int16
	TDecomp      int16
	HasVLMeta    bool
	NFilters     uint8 // the fixext type byte: number of filter slots (6)
	Filters      [6]uint8
	UDCodec      uint8
	CodecMeta    uint8
	FiltersMeta  [6]uint8
	OtherFlags2  uint8
	Reserved     uint8
	Metalayers   []Metalayer
}

// Version is the frame format version (general_flags bits 0-3).
func (h *Header) Version() int { return int(h.GeneralFlags & 0x0F) }

// Compcode is the codec of the frame's default compression parameters.
func (h *Header) Compcode() uint8 {
	c := h.CodecFlags & 0x0F
	if c == UDCodecFormat {
		return h.UDCodec
	}
	return c
}

// Clevel is the compression level of the frame's default parameters.
func (h *Header) Clevel() int { return int(h.CodecFlags >> 4) }

// SplitMode is C-Blosc2's splitmode (1 always … 4 forward-compat).
func (h *Header) SplitMode() int { return int(h.OtherFlags&3) + 1 }

// UseDict reports other_flags2 bit 0.
func (h *Header) UseDict() bool { return h.OtherFlags2&1 != 0 }

// Variable reports a variable chunk size (chunksize 0); the general_flags
// bit is not trusted (C-Blosc2 2.x never set it).
func (h *Header) Variable() bool { return h.ChunkSize == 0 }

// NbytesLossy is the nbytes an unpatched header holds once chunks exist
// only as index entries, which a writer that dies loses: Recover warns
// when it finds it. C-Blosc2 never writes a negative nbytes.
const NbytesLossy = -2

// LossyMark returns the bytes that, written at PosNbytes-1 of an
// unpatched header, make its nbytes field (an int64) NbytesLossy.
func LossyMark() []byte {
	n := int64(NbytesLossy)
	return appendU64([]byte{mpInt64}, uint64(n))
}

// Unpatched reports a header whose sizes a writer never patched: a
// non-seekable destination or a writer that died (frame_len 0 or a negative
// nbytes or cbytes, values C-Blosc2 never writes).
func (h *Header) Unpatched() bool { return h.FrameLen == 0 || h.Nbytes < 0 || h.Cbytes < 0 }

// IsFrame reports whether b starts like a current or beta-era frame header:
// a msgpack fixarray followed by the fixstr "b2frame\0".
func IsFrame(b []byte) bool {
	return len(b) >= 10 && b[0]&0xF0 == mpFixArray && b[1] == 0xA8 && string(b[2:10]) == Magic
}

// ParseFixed decodes the 87-byte fixed part of a current-layout header. It
// checks the layout markers C-Blosc2 relies on and the values C-Blosc2
// validates (get_header_info), so the numbers it returns are safe to use
// as bounds once compared with the input's size.
func ParseFixed(b []byte) (Header, error) {
	var h Header
	if len(b) < FixedHeaderLen {
		return h, fmt.Errorf("%w: frame header of %d bytes, need %d", errs.ErrTruncated, len(b), FixedHeaderLen)
	}
	if !IsFrame(b) {
		return h, fmt.Errorf("%w: no \"b2frame\" magic at the frame start", errs.ErrHeader)
	}
	if b[0] != 0x9E {
		return h, fmt.Errorf("%w: frame header is a %d-element array (beta-era layout), not 14", errs.ErrUnsupported, b[0]&0x0F)
	}
	be32 := func(p int) int32 { return int32(binary.BigEndian.Uint32(b[p:])) }
	be64 := func(p int) int64 { return int64(binary.BigEndian.Uint64(b[p:])) }
	h.HeaderLen = int(be32(PosHeaderLen))
	h.FrameLen = be64(PosFrameLen)
	h.GeneralFlags = b[PosFlags]
	h.FrameType = b[PosFrameType]
	h.CodecFlags = b[PosCodecFlags]
	h.OtherFlags = b[PosOtherFlags]
	h.Nbytes = be64(PosNbytes)
	h.Cbytes = be64(PosCbytes)
	h.TypeSize = be32(PosTypeSize)
	h.BlockSize = be32(PosBlockSize)
	h.ChunkSize = be32(PosChunkSize)
	h.TComp = int16(binary.BigEndian.Uint16(b[PosTComp:]))
	h.TDecomp = int16(binary.BigEndian.Uint16(b[PosTDecomp:]))
	h.HasVLMeta = b[PosHasVLMeta] == mpTrue
	h.NFilters = b[PosFilterPipeline]
	copy(h.Filters[:], b[PosFilterPipeline+1:])
	h.UDCodec = b[PosFilterPipeline+7]
	h.CodecMeta = b[PosFilterPipeline+8]
	copy(h.FiltersMeta[:], b[PosFilterPipeline+9:])
	h.OtherFlags2 = b[PosFilterPipeline+15]
	h.Reserved = b[PosFilterPipeline+16]

	for _, m := range []struct {
		pos    int
		marker byte
		name   string
	}{
		{10, mpInt32, "header_len"}, {15, mpUint64, "frame_len"}, {24, 0xA4, "flags"},
		{29, mpInt64, "nbytes"}, {38, mpInt64, "cbytes"}, {47, mpInt32, "typesize"},
		{52, mpInt32, "blocksize"}, {57, mpInt32, "chunksize"}, {62, mpInt16, "tcomp"},
		{65, mpInt16, "tdecomp"}, {69, mpFixExt16, "filter pipeline"},
	} {
		if b[m.pos] != m.marker {
			return h, fmt.Errorf("%w: frame header byte %d (%s marker) is %#02x, want %#02x", errs.ErrHeader, m.pos, m.name, b[m.pos], m.marker)
		}
	}
	if v := h.Version(); v > VersionVLBlocks {
		return h, fmt.Errorf("%w: frame format version %d (this reader knows up to %d)", errs.ErrUnsupported, v, VersionVLBlocks)
	}
	if h.FrameType != TypeContiguous && h.FrameType != TypeSparse {
		return h, fmt.Errorf("%w: frame type %d", errs.ErrUnsupported, h.FrameType)
	}
	if h.HeaderLen < EmptyHeaderLen {
		return h, fmt.Errorf("%w: header_len %d shorter than the %d-byte minimum", errs.ErrHeader, h.HeaderLen, EmptyHeaderLen)
	}
	if h.TypeSize <= 0 {
		return h, fmt.Errorf("%w: frame typesize %d", errs.ErrHeader, h.TypeSize)
	}
	if h.NFilters > 6 {
		return h, fmt.Errorf("%w: %d filter slots, at most 6", errs.ErrHeader, h.NFilters)
	}
	if b[PosHasVLMeta] != mpTrue && b[PosHasVLMeta] != mpFalse {
		return h, fmt.Errorf("%w: has_vlmetalayers byte %#02x is not a msgpack bool", errs.ErrHeader, b[PosHasVLMeta])
	}
	return h, nil
}

// ParseMetalayers decodes the metalayer section of hdr, the whole header
// (h.HeaderLen bytes), as get_meta_from_header does: through the offsets
// of the map, each checked to lie inside the header.
func ParseMetalayers(h *Header, hdr []byte) error {
	if len(hdr) < h.HeaderLen {
		return fmt.Errorf("%w: header of %d bytes, header_len says %d", errs.ErrTruncated, len(hdr), h.HeaderLen)
	}
	return parseMetaSection(h, hdr[:h.HeaderLen], PosMetalayers)
}

// parseMetaSection reads the metalayers whose array(3) starts at pos.
func parseMetaSection(h *Header, hdr []byte, pos int) error {
	r := &reader{b: hdr, p: pos, what: "header"}
	if err := r.expect(0x93, "metalayers array"); err != nil {
		return err
	}
	if err := r.expect(mpUint16, "metalayers idx_size"); err != nil {
		return err
	}
	if _, err := r.u16(); err != nil {
		return err
	}
	if err := r.expect(mpMap16, "metalayers map"); err != nil {
		return err
	}
	n, err := r.u16()
	if err != nil {
		return err
	}
	if n > MaxMetalayers {
		return fmt.Errorf("%w: %d metalayers, at most %d", errs.ErrHeader, n, MaxMetalayers)
	}
	h.Metalayers = make([]Metalayer, 0, n)
	for i := range n {
		name, err := r.fixstr(fmt.Sprintf("metalayer %d name", i))
		if err != nil {
			return err
		}
		if err := r.expect(mpInt32, "metalayer offset"); err != nil {
			return err
		}
		off, err := r.u32()
		if err != nil {
			return err
		}
		o := int(int32(off))
		if o < pos || o+5 > len(hdr) {
			return fmt.Errorf("%w: metalayer %q at offset %d, outside the %d-byte header", errs.ErrHeader, name, o, len(hdr))
		}
		if hdr[o] != mpBin32 {
			return fmt.Errorf("%w: metalayer %q: marker %#02x at offset %d, want bin32", errs.ErrHeader, name, hdr[o], o)
		}
		ln := int(int32(binary.BigEndian.Uint32(hdr[o+1:])))
		if ln < 0 || ln > len(hdr)-o-5 {
			return fmt.Errorf("%w: metalayer %q of %d bytes at offset %d overruns the %d-byte header", errs.ErrHeader, name, ln, o, len(hdr))
		}
		if _, dup := FindMetalayer(h.Metalayers, name); dup {
			return fmt.Errorf("%w: metalayer %q appears twice", errs.ErrHeader, name)
		}
		h.Metalayers = append(h.Metalayers, Metalayer{Name: name, Content: hdr[o+5 : o+5+ln : o+5+ln], Offset: o})
	}
	return nil
}

// MetaSectionLen is the length of the metalayer section for metas.
func MetaSectionLen(metas []Metalayer) int {
	n := 10
	for _, m := range metas {
		n += len(m.Name) + 6 + len(m.Content) + 5
	}
	return n
}

// ComputeLen sets h.HeaderLen and every metalayer's Offset from the
// metalayers (README_CFRAME_FORMAT.rst).
func (h *Header) ComputeLen() {
	h.HeaderLen = FixedHeaderLen + MetaSectionLen(h.Metalayers)
	off := FixedHeaderLen + 7
	for _, m := range h.Metalayers {
		off += len(m.Name) + 6
	}
	off += 3
	for i := range h.Metalayers {
		h.Metalayers[i].Offset = off
		off += 5 + len(h.Metalayers[i].Content)
	}
}

// Append encodes the whole header (fixed part and metalayers) as
// new_header_frame does and appends it to dst. It calls ComputeLen first.
func (h *Header) Append(dst []byte) []byte {
	h.ComputeLen()
	dst = append(dst, 0x9E, 0xA8)
	dst = append(dst, Magic...)
	dst = append(dst, mpInt32)
	dst = appendU32(dst, uint32(h.HeaderLen))
	dst = append(dst, mpUint64)
	dst = appendU64(dst, uint64(h.FrameLen))
	dst = append(dst, 0xA4, h.GeneralFlags, h.FrameType, h.CodecFlags, h.OtherFlags)
	dst = append(dst, mpInt64)
	dst = appendU64(dst, uint64(h.Nbytes))
	dst = append(dst, mpInt64)
	dst = appendU64(dst, uint64(h.Cbytes))
	dst = append(dst, mpInt32)
	dst = appendU32(dst, uint32(h.TypeSize))
	dst = append(dst, mpInt32)
	dst = appendU32(dst, uint32(h.BlockSize))
	dst = append(dst, mpInt32)
	dst = appendU32(dst, uint32(h.ChunkSize))
	dst = append(dst, mpInt16)
	dst = appendU16(dst, uint16(h.TComp))
	dst = append(dst, mpInt16)
	dst = appendU16(dst, uint16(h.TDecomp))
	if h.HasVLMeta {
		dst = append(dst, mpTrue)
	} else {
		dst = append(dst, mpFalse)
	}
	dst = append(dst, mpFixExt16, 6)
	dst = append(dst, h.Filters[:]...)
	dst = append(dst, h.UDCodec, h.CodecMeta)
	dst = append(dst, h.FiltersMeta[:]...)
	dst = append(dst, h.OtherFlags2, h.Reserved)
	// Metalayers: array(3) of idx_size, map name->offset, array of bin32.
	idx := 7
	for _, m := range h.Metalayers {
		idx += len(m.Name) + 6
	}
	dst = append(dst, 0x93, mpUint16)
	dst = appendU16(dst, uint16(idx))
	dst = append(dst, mpMap16)
	dst = appendU16(dst, uint16(len(h.Metalayers)))
	for _, m := range h.Metalayers {
		dst = append(dst, mpFixStr|byte(len(m.Name)))
		dst = append(dst, m.Name...)
		dst = append(dst, mpInt32)
		dst = appendU32(dst, uint32(m.Offset))
	}
	dst = append(dst, mpArray16)
	dst = appendU16(dst, uint16(len(h.Metalayers)))
	for _, m := range h.Metalayers {
		dst = append(dst, mpBin32)
		dst = appendU32(dst, uint32(len(m.Content)))
		dst = append(dst, m.Content...)
	}
	return dst
}

// CheckMetaName validates a metalayer or vlmetalayer name.
func CheckMetaName(name string) error {
	if len(name) == 0 || len(name) > MaxNameLen {
		return fmt.Errorf("%w: metalayer name %q must have 1-%d bytes", errs.ErrInvalidOption, name, MaxNameLen)
	}
	return nil
}

// FindMetalayer returns the metalayer of ms called name.
func FindMetalayer(ms []Metalayer, name string) (Metalayer, bool) {
	for _, m := range ms {
		if m.Name == name {
			return m, true
		}
	}
	return Metalayer{}, false
}

// Metalayer returns a copy of the content of the fixed metalayer name.
func (h *Header) Metalayer(name string) ([]byte, bool) {
	m, ok := FindMetalayer(h.Metalayers, name)
	if !ok {
		return nil, false
	}
	return bytes.Clone(m.Content), true
}

// AddMetalayer appends a fixed metalayer to metas after the checks every
// writer makes when it is declared: a 1-31 byte name (CheckMetaName), not
// declared before, at most MaxMetalayers, content under 2 GiB, and names
// that keep the header's 16-bit metalayer index in range.
func AddMetalayer(metas *[]Metalayer, name string, content []byte) error {
	if err := CheckMetaName(name); err != nil {
		return err
	}
	if _, dup := FindMetalayer(*metas, name); dup {
		return fmt.Errorf("%w: metalayer %q declared twice", errs.ErrInvalidOption, name)
	}
	if len(*metas) >= MaxMetalayers {
		return fmt.Errorf("%w: more than %d metalayers", errs.ErrInvalidOption, MaxMetalayers)
	}
	if len(content) > 1<<31-1 {
		return fmt.Errorf("%w: metalayer %q of %d bytes", errs.ErrTooLarge, name, len(content))
	}
	*metas = append(*metas, Metalayer{Name: name, Content: bytes.Clone(content)})
	if MetaSectionLen(*metas)-3 >= 1<<16 {
		*metas = (*metas)[:len(*metas)-1]
		return fmt.Errorf("%w: metalayer names overflow the header's 16-bit index", errs.ErrTooLarge)
	}
	return nil
}
