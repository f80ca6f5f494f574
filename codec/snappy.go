package codec

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/snappy"
)

// snappyCodec is C-Blosc 1.x's Snappy (compcode 3, format 2): raw Snappy
// blocks, no framing, through klauspost/compress/snappy. C-Blosc2 dropped
// it, so only Blosc1 (version-2) chunks may carry it; the root package
// refuses it in Blosc2 chunks. clevel, meta and dict are ignored, as in C.
type snappyCodec struct{}

// snappyBufs recycles the buffers that take a stream when dst is shorter
// than snappy.MaxEncodedLen, which snappy.Encode needs to write in place.
var snappyBufs sync.Pool

func (snappyCodec) Compress(dst, src []byte, _ int, _ uint8, _ []byte) (int, error) {
	bound := snappy.MaxEncodedLen(len(src))
	if bound < 0 {
		return 0, nil // too large for a Snappy block: store raw
	}
	if len(dst) >= bound {
		return len(snappy.Encode(dst, src)), nil
	}
	bp, _ := snappyBufs.Get().(*[]byte)
	if bp == nil || cap(*bp) < bound {
		b := make([]byte, bound)
		bp = &b
	}
	defer snappyBufs.Put(bp)
	enc := snappy.Encode((*bp)[:bound], src)
	if len(enc) > len(dst) {
		return 0, nil // does not fit: the caller stores the stream raw
	}
	return copy(dst, enc), nil
}

func (snappyCodec) Decompress(dst, src []byte, _ uint8, _ []byte) (int, error) {
	n, err := snappy.DecodedLen(src)
	if err != nil {
		return 0, fmt.Errorf("%w: snappy: %v", ErrCorrupt, err)
	}
	if n != len(dst) {
		return 0, fmt.Errorf("%w: snappy stream declares %d bytes, want %d", ErrCorrupt, n, len(dst))
	}
	// The strict decoder refuses what C-Blosc 1.x's Snappy refuses (the
	// S2 extensions snappy.Decode accepts).
	out, err := snappy.DecodeStrict(dst, src)
	if err != nil {
		return 0, fmt.Errorf("%w: snappy: %v", ErrCorrupt, err)
	}
	if len(out) != len(dst) || (len(out) > 0 && &out[0] != &dst[0]) {
		return 0, fmt.Errorf("%w: snappy stream decodes to %d bytes, want %d", ErrCorrupt, len(out), len(dst))
	}
	return len(out), nil
}
