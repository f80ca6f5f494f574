// Package frame holds the format code that framereader and framewriter
// share: the constants of the contiguous and sparse frame layouts
// (C-Blosc2's format documents
// https://github.com/Blosc/c-blosc2/blob/main/README_CFRAME_FORMAT.rst and
// https://github.com/Blosc/c-blosc2/blob/main/README_SFRAME_FORMAT.rst), the msgpack encoding of the header
// and the trailer, the chunk-offsets index, the chunk-size rule of
// C-Blosc2's super-chunks, and the recognition of every container format
// from its first bytes (the layouts each starts with).
package frame

// Magic is the string at bytes 2-9 of every frame header.
const Magic = "b2frame\x00"

// Sizes of the fixed parts (README_CFRAME_FORMAT.rst).
const (
	FixedHeaderLen  = 87  // FRAME_HEADER_MINLEN
	EmptyHeaderLen  = 97  // header without metalayers
	TrailerMinLen   = 25  // FRAME_TRAILER_MINLEN: what C reads at frame_len-25
	EmptyTrailerLen = 35  // trailer without vlmetalayers
	MinFrameLen     = 112 // header minimum + trailer minimum, C's lower bound
	EmptyFrameLen   = EmptyHeaderLen + EmptyTrailerLen
	// TrailerLenOffset: trailer_len is the uint32 at frame_len-22, its
	// marker 0xCE at frame_len-23.
	TrailerLenOffset = 22
)

// Limits (README_CFRAME_FORMAT.rst).
const (
	MaxMetalayers        = 16
	MaxVLMetalayersWrite = 16   // frame_update_trailer refuses more
	MaxVLMetalayersRead  = 8192 // BLOSC2_MAX_VLMETALAYERS
	MaxNameLen           = 31
	// MaxChunks is the most chunks an index can describe: 8*n must be a
	// compressible buffer.
	MaxChunks = 268435451
)

// Frame types (byte 26) and format versions (general_flags bits 0-3).
const (
	TypeContiguous  = 0
	TypeSparse      = 1
	VersionRC1      = 2 // fixed-size chunks, regular blocks
	VersionVLBlocks = 3 // variable chunk sizes or VL-block chunks
)

// general_flags bits.
const (
	FlagOffsets64 = 0x10
	FlagVariable  = 0x40
	FlagVLBlocks  = 0x80
)

// UDCodecFormat is the codec nibble meaning "see byte 77".
const UDCodecFormat = 6

// Positions of the fixed header fields (README_CFRAME_FORMAT.rst).
const (
	PosHeaderLen      = 11
	PosFrameLen       = 16
	PosFlags          = 25
	PosFrameType      = 26
	PosCodecFlags     = 27
	PosOtherFlags     = 28
	PosNbytes         = 30
	PosCbytes         = 39
	PosTypeSize       = 48
	PosBlockSize      = 53
	PosChunkSize      = 58
	PosTComp          = 63
	PosTDecomp        = 66
	PosHasVLMeta      = 68
	PosFilterPipeline = 70
	PosMetalayers     = 87
)

// SparseIndexName is the index file of a sparse frame directory.
const SparseIndexName = "chunks.b2frame"

// ChunkFileName is the name of chunk file id in a sparse frame directory.
func ChunkFileName(id int64) string {
	const hex = "0123456789ABCDEF"
	var b [14]byte
	for i := 7; i >= 0; i-- {
		b[i] = hex[id&0xF]
		id >>= 4
	}
	copy(b[8:], ".chunk")
	return string(b[:])
}
