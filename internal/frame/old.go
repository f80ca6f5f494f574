package frame

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/blosc2go/blosc2"
)

// Beta-era frames (C-Blosc2 2.0.0-beta frame.c): a 13-element header with an
// 82-byte fixed part, and a usermeta trailer.
const (
	BetaFixedHeaderLen = 82
	betaMetalayers     = 82
	betaTrailerMinLen  = 30
)

// BetaLayout is an opened beta-era frame.
type BetaLayout struct {
	Layout
	// Usermeta is the frame's one usermeta blob (a Blosc chunk), or nil.
	Usermeta []byte
}

// Beta compcodes (codec_flags low nibble) and their current ids.
var betaCodecs = map[uint8]uint8{0: 0, 1: 1, 2: 2, 4: 4, 5: 5} // 3 Snappy, 6 Lizard: gone

// LoadBeta opens a beta-era frame (v2.0.0-beta.2 … beta.5, and the
// 13-element development frames of early 2021) at the start of ra. The
// header is mapped onto Header: the filters come back compacted (slot 0
// first), and CodecFlags holds the beta compcode list.
func LoadBeta(ra io.ReaderAt, size int64) (*BetaLayout, error) {
	b, err := ReadFull(ra, 0, BetaFixedHeaderLen, size, "beta frame header")
	if err != nil {
		return nil, err
	}
	if b[0] != 0x9D || !IsFrame(b) {
		return nil, fmt.Errorf("%w: not a beta-era frame header", blosc2.ErrHeader)
	}
	be32 := func(p int) int32 { return int32(binary.BigEndian.Uint32(b[p:])) }
	be64 := func(p int) int64 { return int64(binary.BigEndian.Uint64(b[p:])) }
	for _, m := range []struct {
		pos    int
		marker byte
	}{{10, mpInt32}, {15, mpUint64}, {24, 0xA4}, {29, mpInt64}, {38, mpInt64}, {47, mpInt32}, {52, mpInt32}, {57, mpInt16}, {60, mpInt16}, {64, mpFixExt16}} {
		if b[m.pos] != m.marker {
			return nil, fmt.Errorf("%w: beta frame header byte %d is %#02x, want %#02x", blosc2.ErrHeader, m.pos, b[m.pos], m.marker)
		}
	}
	h := Header{
		HeaderLen:    int(be32(11)),
		FrameLen:     be64(16),
		GeneralFlags: b[25],
		CodecFlags:   b[27],
		Nbytes:       be64(30),
		Cbytes:       be64(39),
		TypeSize:     be32(48),
		ChunkSize:    be32(53),
		TComp:        int16(binary.BigEndian.Uint16(b[58:])),
		TDecomp:      int16(binary.BigEndian.Uint16(b[61:])),
		HasVLMeta:    b[63] == mpTrue,
		NFilters:     b[65],
		OtherFlags:   3,
	}
	if v := h.GeneralFlags & 0x0F; v != 1 && v != 2 {
		return nil, fmt.Errorf("%w: beta frame with format version %d", blosc2.ErrUnsupported, v)
	}
	if h.NFilters > 8 {
		return nil, fmt.Errorf("%w: beta frame with %d filters", blosc2.ErrHeader, h.NFilters)
	}
	for i := 0; i < int(h.NFilters) && i < 6; i++ {
		h.Filters[i] = b[66+i]
		h.FiltersMeta[i] = b[74+i]
	}
	c, ok := betaCodecs[h.CodecFlags&0x0F]
	if !ok {
		return nil, fmt.Errorf("%w: beta frame codec %d (Snappy and Lizard are gone from Blosc2)", blosc2.ErrUnsupported, h.CodecFlags&0x0F)
	}
	h.UDCodec = c
	if h.TypeSize <= 0 || h.HeaderLen < BetaFixedHeaderLen+10 || h.Nbytes < 0 || h.Cbytes < 0 {
		return nil, fmt.Errorf("%w: beta frame header: typesize %d, header_len %d, nbytes %d, cbytes %d", blosc2.ErrHeader, h.TypeSize, h.HeaderLen, h.Nbytes, h.Cbytes)
	}
	if h.FrameLen < int64(h.HeaderLen)+betaTrailerMinLen || h.FrameLen > size {
		return nil, fmt.Errorf("%w: beta frame_len %d outside [%d, %d]", blosc2.ErrHeader, h.FrameLen, int64(h.HeaderLen)+betaTrailerMinLen, size)
	}
	hdr, err := ReadFull(ra, 0, int64(h.HeaderLen), size, "beta frame header")
	if err != nil {
		return nil, err
	}
	if err := parseMetaSection(&h, hdr, betaMetalayers); err != nil {
		return nil, err
	}
	tail, err := ReadFull(ra, h.FrameLen-TrailerMinLen, TrailerMinLen, size, "trailer")
	if err != nil {
		return nil, err
	}
	tl, err := TrailerLenAt(tail)
	if err != nil {
		return nil, err
	}
	l := &BetaLayout{}
	l.End = h.FrameLen
	l.TrailerStart = h.FrameLen - tl
	if h.Cbytes == 0 {
		l.TrailerStart = int64(h.HeaderLen)
	}
	if tl < betaTrailerMinLen || l.TrailerStart < int64(h.HeaderLen) || l.TrailerStart > h.FrameLen-betaTrailerMinLen {
		return nil, fmt.Errorf("%w: beta trailer_len %d", blosc2.ErrHeader, tl)
	}
	trailer, err := ReadFull(ra, l.TrailerStart, h.FrameLen-l.TrailerStart, size, "trailer")
	if err != nil {
		return nil, err
	}
	if trailer[2] == 0x93 {
		// Development frames of February 2021: the current vlmetalayer trailer.
		if l.VL, err = ParseTrailer(trailer); err != nil {
			return nil, err
		}
	} else {
		if trailer[2] != mpBin32 {
			return nil, fmt.Errorf("%w: beta trailer: marker %#02x, want usermeta bin32", blosc2.ErrHeader, trailer[2])
		}
		n := int64(int32(binary.BigEndian.Uint32(trailer[3:])))
		if n < 0 || 7+n > int64(len(trailer))-23 {
			return nil, fmt.Errorf("%w: beta usermeta of %d bytes in a %d-byte trailer", blosc2.ErrHeader, n, len(trailer))
		}
		if n > 0 {
			l.Usermeta = trailer[7 : 7+n]
		}
	}
	if h.Cbytes > l.TrailerStart-int64(h.HeaderLen) {
		return nil, fmt.Errorf("%w: cbytes %d: the index would start past the trailer at %d", blosc2.ErrHeader, h.Cbytes, l.TrailerStart)
	}
	l.Header = h
	if h.Nbytes == 0 || h.Cbytes == 0 {
		l.Header.Nbytes = 0
		return l, nil
	}
	l.IndexStart = int64(h.HeaderLen) + h.Cbytes
	idx, err := ReadFull(ra, l.IndexStart, l.TrailerStart-l.IndexStart, size, "index chunk")
	if err != nil {
		return nil, err
	}
	want := -1
	if h.ChunkSize > 0 {
		n := (h.Nbytes + int64(h.ChunkSize) - 1) / int64(h.ChunkSize)
		if n > MaxChunks {
			return nil, fmt.Errorf("%w: %d chunks", blosc2.ErrHeader, n)
		}
		want = int(n)
	}
	if l.Index, err = DecodeIndex(idx, want, 0); err != nil {
		return nil, err
	}
	l.NChunks = l.Index.Len()
	return l, l.CheckEntries(h.Cbytes - blosc2.MinHeaderLen)
}

// Packed is an opened packed super-chunk (C-Blosc2 2.0.0-alpha blosc2_pack).
type Packed struct {
	NChunks    int
	Compcode   uint8 // beta compcode list
	Clevel     int
	Filters    [5]uint8 // 3-bit codes, decoded with C's 2-bit mask
	Offsets    []int64  // data chunk positions
	FiltersPos int64    // 0 when absent
	CodecPos   int64
	MetaPos    int64
	UserPos    int64
}

// LoadPacked reads the 96-byte header and the data-offset table of a
// packed super-chunk of size bytes.
func LoadPacked(ra io.ReaderAt, size int64) (*Packed, error) {
	b, err := ReadFull(ra, 0, PackedHeaderLen, size, "packed header")
	if err != nil {
		return nil, err
	}
	if !IsPacked(b, size) {
		return nil, fmt.Errorf("%w: not a packed super-chunk", blosc2.ErrHeader)
	}
	le64 := func(p int) int64 { return int64(binary.LittleEndian.Uint64(b[p:])) }
	p := &Packed{
		NChunks:    int(le64(16)),
		Compcode:   uint8(binary.LittleEndian.Uint16(b[4:])),
		Clevel:     int(binary.LittleEndian.Uint16(b[6:])),
		FiltersPos: le64(40), CodecPos: le64(48), MetaPos: le64(56), UserPos: le64(64),
	}
	f := binary.LittleEndian.Uint16(b[8:])
	for k := range p.Filters {
		p.Filters[k] = uint8(f>>(3*k)) & 3
	}
	for _, o := range []int64{p.FiltersPos, p.CodecPos, p.MetaPos, p.UserPos} {
		if o != 0 && (o < PackedHeaderLen || o > size-blosc2.MinHeaderLen) {
			return nil, fmt.Errorf("%w: packed ancillary chunk at %d outside the %d-byte buffer", blosc2.ErrCorrupt, o, size)
		}
	}
	table := le64(72)
	t, err := ReadFull(ra, table, 8*int64(p.NChunks), size, "packed offset table")
	if err != nil {
		return nil, err
	}
	p.Offsets = make([]int64, p.NChunks)
	for i := range p.Offsets {
		o := int64(binary.LittleEndian.Uint64(t[8*i:]))
		if o < PackedHeaderLen || o > table-blosc2.MinHeaderLen {
			return nil, fmt.Errorf("%w: packed chunk %d at %d, outside [%d, %d)", blosc2.ErrCorrupt, i, o, PackedHeaderLen, table)
		}
		p.Offsets[i] = o
	}
	return p, nil
}
