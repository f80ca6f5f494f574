package blosc2

import (
	"fmt"

	"github.com/blosc2go/blosc2/codec"
)

// Blosc1 chunks (CParams.Format = ChunkBlosc1) are compressed by the same
// encoder as Blosc2 chunks; what differs is here: the refusals, the block
// size and split policy of C-Blosc 1.21 (compute_blocksize, split_block in
// c-blosc's blosc/blosc.c), and the header, which putHeader writes.

// Limits of C-Blosc 1.x (c-blosc blosc/blosc.c and blosc.h).
const (
	blosc1MinBufferSize = 128   // MIN_BUFFERSIZE: shorter inputs are stored as is
	blosc1MaxSplits     = 16    // MAX_SPLITS: wider elements are never split
	blosc1L1            = 32768 // L1: the base of the automatic block size
	blosc1MaxTypeSize   = 255   // BLOSC_MAX_TYPESIZE
	// blosc1MaxBlockSize is BLOSC_MAX_BLOCKSIZE, (INT_MAX - 255*4) / 3.
	blosc1MaxBlockSize = (1<<31 - 1 - blosc1MaxTypeSize*4) / 3
)

// validateBlosc1 refuses what a Blosc1 chunk cannot express and moves its
// one filter to slot 5, where ParseHeader puts the filter of a 16-byte
// header.
func (q *CParams) validateBlosc1() error {
	if _, err := codec.LookupBlosc1(q.Codec, false); err != nil {
		return fmt.Errorf("%w: Blosc1 chunks: %v", ErrInvalidOption, err)
	}
	if q.TypeSize > blosc1MaxTypeSize {
		return fmt.Errorf("%w: Blosc1 chunks hold typesizes up to %d, not %d", ErrInvalidOption, blosc1MaxTypeSize, q.TypeSize)
	}
	if q.UseDict {
		return fmt.Errorf("%w: Blosc1 chunks cannot carry dictionaries (UseDict)", ErrInvalidOption)
	}
	if q.CodecMeta != 0 {
		return fmt.Errorf("%w: Blosc1 chunks have no codec meta (CodecMeta %d)", ErrInvalidOption, q.CodecMeta)
	}
	var kept Filter
	for i, f := range q.Filters {
		switch f.ID {
		case NoFilter:
			continue
		case Shuffle:
			if w := shuffleWidth(f, q.TypeSize); w != q.TypeSize {
				return fmt.Errorf("%w: Blosc1 chunks shuffle by the typesize %d, not by the width %d of slot %d's meta", ErrInvalidOption, q.TypeSize, w, i)
			}
		case BitShuffle:
		case Delta:
			return fmt.Errorf("%w: Blosc1 chunks cannot express delta (slot %d): C-Blosc 1.x has no delta filter", ErrInvalidOption, i)
		case TruncPrec:
			return fmt.Errorf("%w: Blosc1 chunks cannot express trunc_prec (slot %d)", ErrInvalidOption, i)
		case ByteDelta, ByteDeltaBuggy:
			return fmt.Errorf("%w: Blosc1 chunks cannot express bytedelta (slot %d)", ErrInvalidOption, i)
		default:
			return fmt.Errorf("%w: Blosc1 chunks cannot express filter id %d (slot %d)", ErrInvalidOption, f.ID, i)
		}
		if kept.ID != NoFilter {
			return fmt.Errorf("%w: Blosc1 chunks hold one filter (shuffle or bitshuffle), not several", ErrInvalidOption)
		}
		kept = Filter{ID: f.ID}
	}
	if kept.ID == NoFilter {
		q.Filters = [MaxFilters]Filter{}
	} else {
		q.Filters = Pipeline(kept)
	}
	return nil
}

// blosc1SplitBlock is C-Blosc 1.21's split_block: whether blocks of bs
// bytes with elements of t bytes are split, by split mode. SplitAlways and
// SplitNever are as in C-Blosc2; SplitAuto splits BloscLZ and Snappy
// streams, and SplitForward (the default) every codec but Zstd, of elements
// up to 16 bytes in blocks of at least 128 elements.
func blosc1SplitBlock(p *CParams, t, bs int) bool {
	switch p.SplitMode {
	case SplitAlways:
		return true
	case SplitNever:
		return false
	}
	fits := t <= blosc1MaxSplits && bs/t >= blosc1MinBufferSize
	if p.SplitMode == SplitAuto {
		return fits && (p.Codec == BloscLZ || p.Codec == Snappy)
	}
	return fits && p.Codec != Zstd
}

// blosc1Split is the split bit of a Blosc1 chunk with blocks of bs bytes:
// blosc1SplitBlock, but never where C-Blosc 1.x's decoder would not split
// (it also requires typesize ≤ 16 and 128 elements a block, from before the
// bit existed): C-Blosc 1.21 with SplitAlways writes chunks it cannot read.
func blosc1Split(p *CParams, t, bs int) bool {
	return blosc1SplitBlock(p, t, bs) && t <= blosc1MaxSplits && bs/t >= blosc1MinBufferSize
}

// blosc1BlockSize is C-Blosc 1.21's compute_blocksize: the automatic size
// (or p.BlockSize, at least 128 bytes), enlarged for split blocks, clamped
// to nbytes and rounded down to a multiple of the typesize.
func blosc1BlockSize(p *CParams, nbytes int) int {
	t := p.TypeSize
	if nbytes < t {
		return 1
	}
	bs := nbytes
	switch {
	case p.BlockSize > 0:
		bs = min(max(p.BlockSize, blosc1MinBufferSize), blosc1MaxBlockSize)
	case nbytes >= blosc1L1:
		bs = levelBlockSize(blosc1L1, p)
	}
	// C-Blosc 1.21 enlarges forced block sizes too.
	if p.Level > 0 && blosc1SplitBlock(p, t, bs) {
		bs = min(bs, 1<<18) * t
		bs = min(max(bs, 1<<16), 1<<20)
	}
	bs = min(bs, nbytes)
	if bs > t {
		bs = bs / t * t
	}
	return bs
}
