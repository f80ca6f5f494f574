package frame

import (
	"encoding/binary"

	"github.com/blosc2go/blosc2"
)

// Kind is a container format recognised from its first bytes.
type Kind int

// The formats Detect tells apart (the layouts each starts with).
const (
	KindUnknown     Kind = iota
	KindChunk            // a bare Blosc chunk
	KindContiguous       // current frame, frame_type 0
	KindSparseIndex      // current frame, frame_type 1: chunks.b2frame of a directory
	KindBeta             // 13-element header, usermeta trailer (v2.0.0-beta.2 … beta.5)
	KindPreTrailer       // 11/12-element header without trailer (≤ v2.0.0-beta.1)
	KindPacked           // the 2015-2017 packed super-chunk
)

// PackedHeaderLen is the header length of a packed super-chunk.
const PackedHeaderLen = 96

// Detect tells the format of an input of size bytes from b, its first
// bytes (at least 96 are needed to recognise a packed super-chunk, 27 for
// frames, 16 for chunks).
func Detect(b []byte, size int64) Kind {
	if IsFrame(b) {
		switch b[0] {
		case 0x9E:
			if len(b) > PosFrameType && b[PosFrameType] == TypeSparse {
				return KindSparseIndex
			}
			return KindContiguous
		case 0x9D:
			return KindBeta
		case 0x9B, 0x9C:
			return KindPreTrailer
		}
		return KindUnknown
	}
	if IsPacked(b, size) {
		return KindPacked
	}
	if p, err := blosc2.ParsePrefix(b); err == nil && b[0] >= 1 && b[0] <= blosc2.VersionVLBlocks && p.TypeSize > 0 && int64(p.Cbytes) == size {
		return KindChunk
	}
	return KindUnknown
}

// IsPacked reports whether b, the first bytes of an input of size bytes,
// starts a packed super-chunk: version and flags 0, total length at 32
// equal to size, data-offset table at 72 right at the end.
func IsPacked(b []byte, size int64) bool {
	if len(b) < PackedHeaderLen || size < PackedHeaderLen || b[0] != 0 || b[1] != 0 || b[2] != 0 || b[3] != 0 {
		return false
	}
	nchunks := int64(binary.LittleEndian.Uint64(b[16:]))
	cbytes := int64(binary.LittleEndian.Uint64(b[32:]))
	table := int64(binary.LittleEndian.Uint64(b[72:]))
	return cbytes == size && nchunks >= 0 && nchunks <= (size-PackedHeaderLen)/8 && table == size-8*nchunks
}
