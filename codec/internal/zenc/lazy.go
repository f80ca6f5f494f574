package zenc

import (
	"math/bits"

	"github.com/blosc2go/blosc2/codec/internal/le"
)

// kLazySkippingStep: a search skipping more bytes than this at a time
// stops inserting every position it passes (libzstd 1.5.6).
const kLazySkippingStep = 8

// finder is libzstd's hash chain match finder (zstd_lazy.c,
// ZSTD_HcFindBestMatch): a hash table of the latest position per hash of
// mls bytes, and per position the previous one of the same hash. The
// tables hold indices, positions plus base (see Encoder). With tree set
// it is libzstd's binary tree instead (tree.go), over the same tables;
// with rowLog set, libzstd's rows (rows.go), over hash and tags, where
// params.rows says.
//
// Over 16 KiB libzstd searches rows at every lazy level; where the
// chain serves instead, it inserts positions as the rows do there
// (best).
//
// hash and chain are exactly as long as the hash and chainMask index
// (EncodeAll slices them so): add and best index them unchecked.
type finder struct {
	hash      []uint32
	chain     []uint32
	h         hasher
	chainMask uint32
	base      uint32 // the index of the frame's first position
	attempts  int
	next      int // the first position not yet inserted
	skipping  bool
	rowSkips  bool
	// nextHash is the hash of position next, when nextHashed.
	nextHash   uint32
	nextHashed bool
	tree       bool
	btMask     uint32 // the tree's: 2*(btMask+1) entries of chain
	// The rows' (rows.go), where rowLog is not 0: the tags, and the
	// hashes of positions next to next+rowCacheSize-1.
	tags   []uint8
	rowLog uint8
	cache  [rowCacheSize]uint32
}

// add inserts the positions from i to end (excluded), only i while
// skipping.
func (f *finder) add(src []byte, i, end int) {
	if f.skipping {
		end = min(end, i+1)
	}
	// Locals: the stores to the tables would otherwise make the
	// compiler reload f's fields at every position.
	hash, chain, hs, mask, base := f.hash, f.chain, f.h, f.chainMask, f.base
	for ; i < end; i++ {
		h := hs.at(src, i)
		idx := uint32(i) + base
		le.Set(chain, idx&mask, le.Get(hash, h))
		le.Set(hash, h, idx)
	}
}

// best returns the longest match for ip found in the chain's first
// f.attempts candidates, at least 4 bytes, and its offset; 3 and 0 when
// there is none. Matches end at end.
func (f *finder) best(src []byte, ip, end int) (int, int) {
	if f.tree {
		return f.treeBest(src, ip, end)
	}
	if f.rowLog != 0 {
		return f.rowBest(src, ip, end)
	}
	// Insert the positions up to ip (excluded), only the first of
	// them while skipping; ip's chain starts at idx. After a gap of
	// more than 384 positions (a long match) only the gap's first 96
	// and last 32 are inserted, as libzstd's row match finder does
	// (ZSTD_row_update_internal) where it is used, over windows of
	// more than 16 KiB (rowSkips): on long matches libzstd's frames are
	// then as large as it writes them (the shuffled timestamps at level
	// 5, 11% larger than with every position) and twice as fast to
	// write. (Written out here, not called: two calls a position cost
	// ERA's floats 5-7% at levels 5-9.)
	i := f.next
	gap := f.rowSkips && ip-i > rowSkipThreshold && !f.skipping
	if i < ip && f.nextHashed {
		// The first position's hash was computed to look it up.
		le.Set(f.chain, (uint32(i)+f.base)&f.chainMask, le.Get(f.hash, f.nextHash))
		le.Set(f.hash, f.nextHash, uint32(i)+f.base)
		i++
		if f.skipping {
			i = ip
		}
	}
	if gap {
		f.add(src, i, f.next+rowGapStart)
		i = ip - rowGapEnd
	}
	if i < ip { // most often not: the search moves a position at a time
		f.add(src, i, ip)
	}
	f.next = ip
	f.nextHash, f.nextHashed = f.h.at(src, ip), true
	idx := le.Get(f.hash, f.nextHash)
	cur := uint32(ip) + f.base
	minChain := uint32(0)
	if size := f.chainMask + 1; cur > size {
		minChain = cur - size
	}
	ml, off := 3, 0
	chain, mask, base := f.chain, f.chainMask, f.base
	for n := f.attempts; idx >= base && n > 0; n-- {
		m := int(idx - base)
		// The 4 bytes ending one past the best length so far: a
		// candidate that differs there cannot be longer.
		if le.Load32(src, m+ml-3) == le.Load32(src, ip+ml-3) {
			if l := matchLen(src, m, ip, end); l > ml {
				if ml, off = l, ip-m; ip+l == end {
					break
				}
			}
		}
		if idx <= minChain {
			break
		}
		idx = le.Get(chain, idx&mask)
	}
	return ml, off
}

// ilimit is where the lazy search of a block ending at end stops: past
// it, 8 bytes cannot be hashed, nor (rows) the positions rowCacheSize on.
func (f *finder) ilimit(end int) int {
	if f.rowLog != 0 {
		return end - 8 - rowCacheSize
	}
	return end - 8
}

// lazyDepth is how many positions past a match the lazy strategies look
// for a better one: greedy 0, lazy 1, lazy2 and btlazy2 2.
func lazyDepth(strategy uint8) int {
	switch strategy {
	case stratGreedy:
		return 0
	case stratLazy:
		return 1
	}
	return 2
}

// lazyGo is libzstd's greedy, lazy, lazy2 and btlazy2 strategies
// (zstd_lazy.c, ZSTD_compressBlock_lazy_generic without dictionary, hash
// chain or binary tree search) at depth 0, 1 and 2: after a match is
// found at one position, up to depth next positions are searched for a
// better one, a longer match counting against a larger offset. It appends the sequences of
// src[start:end] to e.seqs and their literals to e.lits. Over the hash
// chain, the rows and the tree it is the twin of lazyAsm (amd64), which
// writes the same sequences; lazy chooses.
//
// Loads stay within src: positions searched are at most ilimit =
// end-8 (end-16 over rows, which hash 8 positions ahead) and their
// matches' lengths are counted up to end; candidates are
// earlier positions; repeat offsets are at most the position they are
// tried at, as in fast.
func (e *Encoder) lazyGo(src []byte, start, end int, p params, f *finder) {
	depth := lazyDepth(p.strategy)
	ilimit := f.ilimit(end)
	anchor := start
	ip, rep1, rep2 := e.searchStart(start)
	f.skipping = false
	if f.rowLog != 0 {
		f.rowFill(src, f.next, ilimit)
	}
	// libzstd's estimate of what a match is worth: its length, weighed,
	// less its offset value's bits.
	gain := func(ml, offBase, weight int) int { return ml*weight - (bits.Len32(uint32(offBase)) - 1) }
	for ip < ilimit {
		ml, offBase := 0, 1 // offBase: 1 the last offset, else offset+3
		st := ip + 1
		if rep1 > 0 && le.Load32(src, ip+1-int(rep1)) == le.Load32(src, ip+1) {
			ml = matchLen(src, ip+1+4-int(rep1), ip+1+4, end) + 4
		}
		if ml == 0 || depth > 0 {
			if ml2, off := f.best(src, ip, end); ml2 > ml {
				ml, st, offBase = ml2, ip, off+3
			}
			if ml < 4 {
				step := (ip-anchor)>>kSearchStrength + 1
				ip += step
				f.skipping = step > kLazySkippingStep
				continue
			}
			// A better match one or two positions on?
			for d := 1; d <= depth && ip < ilimit; {
				ip++
				repWeight, bonus := 3, 4
				if d == 2 {
					repWeight, bonus = 4, 7
				}
				if rep1 > 0 && le.Load32(src, ip) == le.Load32(src, ip-int(rep1)) {
					mlRep := matchLen(src, ip+4-int(rep1), ip+4, end) + 4
					if mlRep*repWeight > gain(ml, offBase, repWeight)+1 {
						ml, offBase, st = mlRep, 1, ip
					}
				}
				ml2, off := f.best(src, ip, end)
				if ml2 >= 4 && gain(ml2, off+3, 4) > gain(ml, offBase, 4)+bonus {
					ml, offBase, st = ml2, off+3, ip
					d = 1 // a better match: look on from it
					continue
				}
				d++
			}
			if offBase > 3 {
				// Extend a new offset's match backwards.
				off := offBase - 3
				for st > anchor && st-off > 0 && src[st-1] == src[st-1-off] {
					st--
					ml++
				}
				rep2, rep1 = rep1, uint32(off)
			}
		}
		// The match's offset is now the last one, new or repeated.
		e.store(src[anchor:st], rep1, uint32(ml))
		ip = st + ml
		anchor = ip
		if f.skipping && f.rowLog != 0 {
			// The cache was left behind while skipping.
			f.rowFill(src, f.next, ilimit)
		}
		f.skipping = false
		for ip <= ilimit && rep2 > 0 && le.Load32(src, ip) == le.Load32(src, ip-int(rep2)) {
			ml := matchLen(src, ip+4-int(rep2), ip+4, end) + 4
			rep1, rep2 = rep2, rep1
			e.store(nil, rep1, uint32(ml))
			ip += ml
			anchor = ip
		}
	}
	e.lits = append(e.lits, src[anchor:end]...)
}
