package blosc2

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/blosc2go/blosc2/codec"
)

// Sizes and limits of the chunk format
// (https://github.com/Blosc/c-blosc2/blob/main/README_CHUNK_FORMAT.rst).
const (
	// MinHeaderLen is the length of the basic (Blosc1-era) header.
	MinHeaderLen = 16
	// ExtendedHeaderLen is the length of the header every Blosc2 chunk has.
	ExtendedHeaderLen = 32
	// MaxOverhead is the most a chunk adds to its data: Compress never
	// returns more than len(src)+MaxOverhead bytes.
	MaxOverhead = 32
	// MaxBufferSize is the largest input one chunk can hold.
	MaxBufferSize = 1<<31 - 1 - MaxOverhead
	// MaxBlockSize is the largest block size a decoder accepts.
	MaxBlockSize = 536866816
	// MaxTypeSize is the largest element size the compressor accepts; sizes
	// above 255 are stored as 1 in the header.
	MaxTypeSize = MaxBlockSize
	// MaxFilters is the number of slots in the filter pipeline.
	MaxFilters = 6
	// MaxDictSize is the largest dictionary a chunk may carry.
	MaxDictSize = 32768
	// MinBufferSize: inputs shorter than this are stored uncompressed.
	MinBufferSize = 32
)

// Chunk format versions (header byte 0).
const (
	VersionBlosc1   = 2 // C-Blosc 1.x
	VersionStable   = 5 // every non-VL chunk C-Blosc2 2.0-3.3 writes
	VersionVLBlocks = 6 // chunks with variable-length blocks
)

// Bits of the flags byte (header byte 2).
const (
	flagShuffle    = 0x01
	flagMemcpyed   = 0x02
	flagBitshuffle = 0x04
	flagDelta      = 0x08
	flagNoSplit    = 0x10
	flagExtended   = flagShuffle | flagBitshuffle
)

// Codec format numbers, bits 5-7 of the flags byte. Several codecs share
// one format (LZ4 and LZ4HC); every codec outside the built-in ones is
// written as formatUser with its id in byte 22.
const (
	formatBloscLZ = 0
	formatLZ4     = 1
	formatSnappy  = 2 // C-Blosc 1.x only; C-Blosc2 has no snappy codec
	formatZlib    = 3
	formatZstd    = 4
	formatUser    = 6
)

// codecFormat is the format number chunks compressed with id carry.
func codecFormat(id codec.ID) int {
	switch id {
	case codec.BloscLZ:
		return formatBloscLZ
	case codec.LZ4, codec.LZ4HC:
		return formatLZ4
	case codec.Snappy:
		return formatSnappy
	case codec.Zlib:
		return formatZlib
	case codec.Zstd:
		return formatZstd
	}
	return formatUser
}

// formatCodec is the codec a format number other than formatUser stands
// for, and false for the formats no codec implements (5, 7).
func formatCodec(format int) (codec.ID, bool) {
	switch format {
	case formatBloscLZ:
		return codec.BloscLZ, true
	case formatLZ4:
		return codec.LZ4, true
	case formatSnappy:
		return codec.Snappy, true
	case formatZlib:
		return codec.Zlib, true
	case formatZstd:
		return codec.Zstd, true
	}
	return 0, false
}

// Bits of blosc2_flags (byte 31) and blosc2_flags2 (byte 30).
const (
	b2UseDict   = 0x01
	b2Lazy      = 0x08
	b2InstrCode = 0x80
	b2VLBlocks  = 0x01
)

// Special is the kind of a special-value chunk: one whose content is implied
// by its header instead of stored.
type Special uint8

// The special-value kinds of blosc2_flags bits 4-6.
const (
	SpecialNone   Special = 0
	SpecialZero   Special = 1 // all bytes zero
	SpecialNaN    Special = 2 // float32 or float64 quiet NaNs
	SpecialValue  Special = 3 // one element, stored after the header, repeated
	SpecialUninit Special = 4 // content unspecified; decoding leaves dst as it is
)

// String names the kind as the CLI's info command prints it.
func (s Special) String() string {
	switch s {
	case SpecialNone:
		return "none"
	case SpecialZero:
		return "zeros"
	case SpecialNaN:
		return "nan"
	case SpecialValue:
		return "value"
	case SpecialUninit:
		return "uninit"
	}
	return fmt.Sprintf("special-%d", uint8(s))
}

// Header is the decoded header of a chunk.
type Header struct {
	Version    uint8 // chunk format version (2 for C-Blosc 1.x, 5, 6 for VL blocks)
	VersionLZ  uint8 // codec format version; never checked
	Flags      uint8 // the flags byte (byte 2), as blosc1_cbuffer_metainfo reports it
	TypeSize   int   // element size, 1-255
	Nbytes     int   // uncompressed size
	BlockSize  int   // block size; for VL-block chunks, the number of blocks
	Cbytes     int   // total chunk length, header included
	Extended   bool  // 32-byte header (every Blosc2 chunk) or 16-byte (Blosc1)
	Filters    [MaxFilters]Filter
	Codec      codec.ID // the codec (from byte 22 or, for 16-byte headers, the format)
	CodecMeta  uint8
	flags2     uint8 // blosc2_flags2, byte 30
	blosc2Flag uint8 // blosc2_flags, byte 31
}

// HeaderLen is the length of the header: 16 or 32.
func (h *Header) HeaderLen() int {
	if h.Extended {
		return ExtendedHeaderLen
	}
	return MinHeaderLen
}

// Memcpyed reports whether the data is stored uncompressed after the header.
func (h *Header) Memcpyed() bool { return h.Flags&flagMemcpyed != 0 }

// Special returns the special-value kind of the chunk.
func (h *Header) Special() Special {
	if !h.Extended {
		return SpecialNone
	}
	return Special(h.blosc2Flag >> 4 & 7)
}

// VLBlocks reports whether the chunk has variable-length blocks; then
// BlockSize is the number of blocks.
func (h *Header) VLBlocks() bool { return h.Extended && h.flags2&b2VLBlocks != 0 }

// UseDict reports whether a dictionary follows the block-start table.
func (h *Header) UseDict() bool { return h.Extended && h.blosc2Flag&b2UseDict != 0 }

// Split reports whether full blocks are cut into TypeSize streams.
func (h *Header) Split() bool { return h.Flags&flagNoSplit == 0 }

// Format is the codec format number of the flags byte (bits 5-7): 0
// BloscLZ, 1 LZ4 and LZ4HC, 2 Snappy (C-Blosc 1.x), 3 Zlib, 4 Zstd, 6 a
// codec named by its id ([Header].Codec).
func (h *Header) Format() int { return int(h.Flags >> 5) }

// CodecName names the chunk's codec as the command line prints it: the
// registered name of [Header].Codec, or "format-N" for a format number no
// codec implements (5, 7), whose chunks have no codec id.
func (h *Header) CodecName() string {
	if f := h.Format(); f != formatUser {
		if _, ok := formatCodec(f); !ok {
			return fmt.Sprintf("format-%d", f)
		}
	}
	return codec.Name(h.Codec)
}

// NBlocks is the number of blocks of the chunk.
func (h *Header) NBlocks() int {
	if h.VLBlocks() {
		return h.BlockSize
	}
	if h.Nbytes == 0 {
		return 0
	}
	return (h.Nbytes + h.BlockSize - 1) / h.BlockSize
}

// ParseHeader decodes and validates the header at the start of chunk. It
// checks every header field against the others and against len(chunk)
// (C-Blosc2's blosc_read_header checks), so that the sizes it returns can be trusted to
// allocate and to index chunk.
func ParseHeader(chunk []byte) (Header, error) {
	return parseHeader(chunk, false)
}

// ParseHeaderPrefix decodes and validates the header of a chunk from its
// first bytes b, which may stop before the chunk's end (cbytes): it makes
// every check of [ParseHeader] but the one that needs the whole chunk
// present. A frame reader uses it to describe a stored chunk from the
// bytes it read ahead, as zstd's Header.Decode works on a frame's prefix.
// When b holds the whole chunk it is ParseHeader(b[:cbytes]).
func ParseHeaderPrefix(b []byte) (Header, error) {
	return parseHeader(b, true)
}

// parseHeader is ParseHeader; with prefix, chunk may end before cbytes.
func parseHeader(chunk []byte, prefix bool) (Header, error) {
	var h Header
	if len(chunk) < MinHeaderLen {
		return h, fmt.Errorf("%w: chunk of %d bytes is shorter than the %d-byte header", ErrTruncated, len(chunk), MinHeaderLen)
	}
	h.Version = chunk[0]
	h.VersionLZ = chunk[1]
	h.Flags = chunk[2]
	h.TypeSize = int(chunk[3])
	nbytes := int32(binary.LittleEndian.Uint32(chunk[4:]))
	blocksize := int32(binary.LittleEndian.Uint32(chunk[8:]))
	cbytes := int32(binary.LittleEndian.Uint32(chunk[12:]))
	h.Nbytes, h.BlockSize, h.Cbytes = int(nbytes), int(blocksize), int(cbytes)
	h.Extended = h.Flags&flagExtended == flagExtended

	if h.Nbytes < 0 {
		return h, fmt.Errorf("%w: negative nbytes %d", ErrHeader, h.Nbytes)
	}
	if h.TypeSize == 0 {
		return h, fmt.Errorf("%w: typesize 0", ErrHeader)
	}
	if h.Cbytes < MinHeaderLen {
		return h, fmt.Errorf("%w: cbytes %d is shorter than the header", ErrHeader, h.Cbytes)
	}
	if h.Extended {
		if h.Cbytes < ExtendedHeaderLen {
			return h, fmt.Errorf("%w: cbytes %d is shorter than the 32-byte extended header", ErrHeader, h.Cbytes)
		}
		if len(chunk) < ExtendedHeaderLen {
			return h, fmt.Errorf("%w: chunk of %d bytes is shorter than its 32-byte header", ErrTruncated, len(chunk))
		}
		for i := range MaxFilters {
			h.Filters[i] = Filter{ID: FilterID(chunk[16+i]), Meta: chunk[24+i]}
		}
		if h.Version == 3 {
			// The alpha series left the last slot uninitialised.
			h.Filters[5] = Filter{}
		}
		h.Codec = codec.ID(chunk[22])
		h.CodecMeta = chunk[23]
		h.flags2 = chunk[30]
		h.blosc2Flag = chunk[31]
	} else {
		if h.Flags&flagShuffle != 0 {
			h.Filters[5] = Filter{ID: Shuffle}
		}
		if h.Flags&flagBitshuffle != 0 {
			h.Filters[5] = Filter{ID: BitShuffle}
		}
		if h.Flags&flagDelta != 0 {
			h.Filters[4] = Filter{ID: Delta}
		}
	}
	// Byte 22 names the codec for Blosc2 chunks, but C-Blosc2 only trusts
	// it for user formats; for the others the format decides (an LZ4HC
	// chunk is LZ4 to the decoder either way).
	if f := h.Format(); f != formatUser {
		if id, ok := formatCodec(f); ok {
			if !(h.Extended && codecFormat(h.Codec) == f) {
				h.Codec = id
			}
		}
	}

	if h.Version > VersionVLBlocks && h.flags2&0xFE != 0 {
		return h, fmt.Errorf("%w: chunk version %d with unknown flags2 bits %#x", ErrUnsupported, h.Version, h.flags2)
	}
	if h.Extended && h.blosc2Flag&b2Lazy != 0 {
		return h, fmt.Errorf("%w: lazy chunk (an in-memory C-Blosc2 stand-in, never stored)", ErrUnsupported)
	}
	if h.Extended && h.blosc2Flag&b2InstrCode != 0 {
		return h, fmt.Errorf("%w: instrumented chunk", ErrUnsupported)
	}
	special := h.Special()
	if h.VLBlocks() {
		if special != SpecialNone {
			return h, fmt.Errorf("%w: VL-block chunk marked special (%v)", ErrHeader, special)
		}
		if h.Memcpyed() {
			return h, fmt.Errorf("%w: VL-block chunk marked memcpyed", ErrHeader)
		}
		if h.BlockSize < 1 {
			return h, fmt.Errorf("%w: VL-block chunk with %d blocks", ErrHeader, h.BlockSize)
		}
	} else {
		if h.BlockSize < 1 || h.BlockSize > MaxBlockSize {
			return h, fmt.Errorf("%w: blocksize %d outside 1..%d", ErrHeader, h.BlockSize, MaxBlockSize)
		}
		if h.Nbytes > 0 && h.BlockSize > h.Nbytes {
			// C-Blosc2 3.x clamps such headers rather than rejecting them.
			h.BlockSize = h.Nbytes
		}
	}
	switch special {
	case SpecialNone, SpecialZero:
	case SpecialValue:
		v := h.Cbytes - ExtendedHeaderLen
		if v < 1 || v > MaxTypeSize || v > h.Nbytes || h.Nbytes%v != 0 {
			return h, fmt.Errorf("%w: repeated-value chunk with a %d-byte value for nbytes %d", ErrHeader, v, h.Nbytes)
		}
	case SpecialNaN, SpecialUninit:
		if h.Nbytes%h.TypeSize != 0 {
			return h, fmt.Errorf("%w: %v chunk with nbytes %d not a multiple of typesize %d", ErrHeader, special, h.Nbytes, h.TypeSize)
		}
	default:
		return h, fmt.Errorf("%w: special-value kind %d", ErrHeader, special)
	}
	if h.Cbytes > len(chunk) && !prefix {
		return h, fmt.Errorf("%w: header declares %d bytes, only %d present", ErrTruncated, h.Cbytes, len(chunk))
	}
	if h.Memcpyed() && special == SpecialNone && h.Cbytes != h.Nbytes+h.HeaderLen() {
		return h, fmt.Errorf("%w: memcpyed chunk with cbytes %d, want nbytes+%d = %d", ErrHeader, h.Cbytes, h.HeaderLen(), h.Nbytes+h.HeaderLen())
	}
	return h, nil
}

// putHeader writes the header for h into b: the 16 bytes every chunk
// starts with and, when h.Flags marks it (both shuffle bits, as ParseHeader
// reads it), the 16-byte Blosc2 extension. A Blosc1 (version-2) header is
// the first part alone: its flags byte (blosc1Flags) implies its filter and
// codec.
func putHeader(b []byte, h *Header) {
	b[0] = h.Version
	b[1] = h.VersionLZ
	b[2] = h.Flags
	b[3] = uint8(h.TypeSize)
	binary.LittleEndian.PutUint32(b[4:], uint32(h.Nbytes))
	binary.LittleEndian.PutUint32(b[8:], uint32(h.BlockSize))
	binary.LittleEndian.PutUint32(b[12:], uint32(h.Cbytes))
	if h.Flags&flagExtended != flagExtended {
		return
	}
	for i, f := range h.Filters {
		b[16+i] = uint8(f.ID)
		b[24+i] = f.Meta
	}
	b[22] = uint8(h.Codec)
	b[23] = h.CodecMeta
	b[30] = h.flags2
	b[31] = h.blosc2Flag
}

// blosc1Flags is the flags byte of a Blosc1 (16-byte) header for h, memcpy
// bit aside: shuffle or bitshuffle (the filter in slot 5, where ParseHeader
// puts it back), bit 4 when blocks are not split, and the codec format in
// bits 5-7. C-Blosc 1.x writes all of them also into the header of a chunk
// it stores as is.
func blosc1Flags(h *Header, split bool) uint8 {
	f := uint8(codecFormat(h.Codec)) << 5
	if !split {
		f |= flagNoSplit
	}
	switch h.Filters[MaxFilters-1].ID {
	case Shuffle:
		f |= flagShuffle
	case BitShuffle:
		f |= flagBitshuffle
	}
	return f
}

// Prefix is what a chunk declares in its first bytes: enough to step over
// it in a container without reading the rest.
type Prefix struct {
	Nbytes   int // uncompressed size
	Cbytes   int // the chunk's whole length, header included
	TypeSize int // element size (byte 3)
	// VLBlocks reports variable-length blocks and Special the kind of a
	// special-value chunk; both known only when the prefix holds the
	// 32-byte extended header.
	VLBlocks bool
	Special  Special
}

// PackedDelta reads the delta mark of a chunk stored in a packed
// super-chunk (C-Blosc2 2.0's in-memory serialisation, which
// framereader reads): flags bit 3 means there that the chunk was
// delta-encoded against the super-chunk's filters chunk, not the
// chunk-level DELTA filter [Decompress] would undo. When it is set (on a
// shuffled or unshuffled chunk, not the extended-header marker), delta is
// true and plain is a copy of chunk without it, for Decompress; the caller
// adds the reference back. Otherwise plain is chunk itself.
func PackedDelta(chunk []byte) (plain []byte, delta bool) {
	if len(chunk) < MinHeaderLen || chunk[2]&flagDelta == 0 || chunk[2]&flagExtended == flagExtended {
		return chunk, false
	}
	plain = bytes.Clone(chunk)
	plain[2] &^= flagDelta
	return plain, true
}

// ParsePrefix reads the sizes a chunk declares from b, its first
// MinHeaderLen (or more) bytes, with the checks of [ParseHeader] that need
// no other byte: cbytes covers at least the header, nbytes is not
// negative. Frame walkers use it to hop from chunk to chunk.
func ParsePrefix(b []byte) (Prefix, error) {
	var p Prefix
	if len(b) < MinHeaderLen {
		return p, fmt.Errorf("%w: chunk prefix of %d bytes, need %d", ErrTruncated, len(b), MinHeaderLen)
	}
	p.Nbytes = int(int32(binary.LittleEndian.Uint32(b[4:])))
	p.Cbytes = int(int32(binary.LittleEndian.Uint32(b[12:])))
	if p.Nbytes < 0 {
		return p, fmt.Errorf("%w: negative nbytes %d", ErrHeader, p.Nbytes)
	}
	if p.Cbytes < MinHeaderLen {
		return p, fmt.Errorf("%w: cbytes %d is shorter than the header", ErrHeader, p.Cbytes)
	}
	p.TypeSize = int(b[3])
	if len(b) >= ExtendedHeaderLen && b[2]&flagExtended == flagExtended {
		p.VLBlocks = b[30]&b2VLBlocks != 0
		p.Special = Special(b[31] >> 4 & 7)
	}
	return p, nil
}
