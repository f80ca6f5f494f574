package stream

import (
	"fmt"

	"github.com/blosc2go/blosc2"
)

// virtualChunk is the bytes of special chunks (zeros, NaN, a repeated
// value, or uninitialized: zeros) produced a piece at a time rather than
// decoded whole: one chunk declaring far more than it stores (a chunk of
// 32 bytes may declare 2 GiB), or a run of identical chunks the index
// implies (blosc2_schunk_fill_special writes them by the million). Its
// memory is one piece of about 64 KiB whatever the size, and its time
// follows the bytes produced, not the number of chunks.
type virtualChunk struct {
	piece  []byte // the start of every period: whole elements, or whole chunks
	period int64  // the pattern restarts every period bytes (one chunk, or the piece)
	pos    int64  // bytes produced
	total  int64
}

// virtualMin is the declared size from which a single special chunk is
// produced in pieces rather than decoded whole.
const virtualMin = 1 << 20

// virtualPiece is about the size of the pieces of a virtual chunk.
const virtualPiece = 64 << 10

// newVirtualChunk makes the virtual form of run copies of c when c is a
// special chunk and either run > 1 or it declares virtualMin bytes or
// more; ok is false when c is to be decoded as usual. A run it cannot
// produce is an error, never one chunk in place of many.
func newVirtualChunk(c []byte, run int) (v virtualChunk, ok bool, err error) {
	run = max(run, 1)
	if p, err := blosc2.ParsePrefix(c); err != nil || p.Special == blosc2.SpecialNone || (run == 1 && p.Nbytes < virtualMin) {
		if run > 1 {
			return v, false, fmt.Errorf("%w: a run of %d chunks that are not one special chunk", blosc2.ErrCorrupt, run)
		}
		return v, false, nil // the common case: one look at the prefix
	}
	h, err := blosc2.ParseHeader(c)
	valid := err == nil && h.Special() != blosc2.SpecialNone &&
		(h.Special() != blosc2.SpecialValue || h.Cbytes-h.HeaderLen() == h.TypeSize)
	if !valid {
		if run > 1 {
			return v, false, fmt.Errorf("%w: a run of %d chunks whose chunk is not a valid special chunk", blosc2.ErrCorrupt, run)
		}
		return v, false, nil // decoded whole, which reports the error
	}
	nbytes := int64(h.Nbytes)
	v.total = int64(run) * nbytes
	if nbytes <= virtualPiece {
		// Whole chunks side by side make the piece, and the period.
		one, err := blosc2.Decompress(nil, c, nil)
		if err != nil {
			return v, false, err
		}
		k := max(virtualPiece/max(len(one), 1), 1)
		v.piece = make([]byte, 0, k*len(one))
		for range k {
			v.piece = append(v.piece, one...)
		}
		v.period = int64(len(v.piece))
		return v, true, nil
	}
	// Whole elements make the piece; the pattern restarts with each chunk,
	// whose size need not be a whole number of elements.
	n := max(virtualPiece/h.TypeSize, 1) * h.TypeSize
	v.piece = make([]byte, n)
	if h.Special() != blosc2.SpecialUninit {
		if _, err := blosc2.DecompressRange(v.piece[:0], c, 0, n, nil); err != nil {
			if run > 1 {
				return v, false, err
			}
			return virtualChunk{}, false, nil // decoded whole, which reports the error
		}
	}
	v.period = nbytes
	return v, true, nil
}

// left is the number of bytes still to produce.
func (v *virtualChunk) left() int64 { return v.total - v.pos }

// next is the next piece: up to the end of the piece, of the period, or
// of the whole.
func (v *virtualChunk) next() []byte {
	in := v.pos % v.period
	at := in % int64(len(v.piece))
	n := min(int64(len(v.piece))-at, v.period-in, v.total-v.pos)
	v.pos += n
	return v.piece[at : at+n]
}

// skip drops n bytes (n ≤ left) and returns the piece that follows.
func (v *virtualChunk) skip(n int64) []byte {
	v.pos += n
	return v.next()
}
