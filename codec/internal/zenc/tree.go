package zenc

import "math/bits"

// The binary tree of libzstd's btlazy2 strategy (zstd_lazy.c,
// ZSTD_BtFindBestMatch and its "DUBT" helpers): per hash of mls bytes,
// the positions of that hash sorted as a binary search tree of the
// strings they start, two links per position in f.chain (smaller,
// larger). Positions are inserted unsorted, chained like the hash
// chain's, and sorted into the tree only when a search reaches them.
//
// The tables hold indices, positions plus f.base (at least firstIndex):
// the frame's first position is never a candidate, and unsortedMark is
// no position's.
const unsortedMark = 1

// treeBest returns the best match for ip among the tree's first
// f.attempts candidates, and its offset, as ZSTD_DUBT_findBestMatch
// does: a longer match wins unless its offset costs more bits than four
// per byte it adds. Positions up to ip are inserted first. A search
// leaves positions inside the match it found (but its last 8) out of
// the tree, and finds nothing there (0, 0). Matches end at end.
func (f *finder) treeBest(src []byte, ip, end int) (int, int) {
	if ip < f.next {
		return 0, 0
	}
	// Locals: the stores to the tables would otherwise make the
	// compiler reload f's fields at every step.
	hash, chain, btMask, base := f.hash, f.chain, f.btMask, f.base
	for i := f.next; i < ip; i++ {
		h := f.h.at(src, i)
		idx := uint32(i) + base
		s := 2 * (idx & btMask)
		chain[s], chain[s+1] = hash[h], unsortedMark
		hash[h] = idx
	}
	h := f.h.at(src, ip)
	f.h.prefetchNext(hash, src, ip, end)
	curr := uint32(ip) + base
	btLow := treeLow(curr, btMask)
	unsortLimit := max(btLow, base)
	nbCompares := uint32(f.attempts)

	// Walk the unsorted candidates, reversing their links into a stack,
	// then sort them into the tree, the oldest first.
	nbCandidates := nbCompares
	previous := uint32(0)
	m := hash[h]
	for m > unsortLimit && chain[2*(m&btMask)+1] == unsortedMark && nbCandidates > 1 {
		s := 2 * (m & btMask)
		chain[s+1] = previous
		previous = m
		m = chain[s]
		nbCandidates--
	}
	if s := 2 * (m & btMask); m > unsortLimit && chain[s+1] == unsortedMark {
		// Still unsorted past the budget: cut it off.
		chain[s], chain[s+1] = 0, 0
	}
	for m = previous; m != 0; nbCandidates++ {
		next := chain[2*(m&btMask)+1]
		f.treeSort(src, m, end, nbCandidates, unsortLimit)
		m = next
	}

	// Search the tree for ip, inserting it.
	w := newTreeWalk(curr, btMask)
	matchEnd := curr + 9
	best, offBase := 0, uint32(999999999)
	m = hash[h]
	hash[h] = curr
	for ; nbCompares > 0 && m > base; nbCompares-- {
		ml := min(w.lenSmaller, w.lenLarger)
		pos := int(m - base)
		ml += treeMatchLen(src, pos+ml, ip+ml, end)
		if ml > best {
			matchEnd = max(matchEnd, m+uint32(ml))
			if 4*(ml-best) > bits.Len32(curr-m+1)-bits.Len32(offBase) {
				best, offBase = ml, curr-m+3
			}
			if ip+ml == end {
				break // equal so far: neither smaller nor larger
			}
		}
		var more bool
		if w, m, more = w.link(chain, btMask, m, ml, src[pos+ml] < src[ip+ml], btLow); !more {
			break
		}
	}
	w.close(chain)
	f.next = int(matchEnd-base) - 8
	return best, int(offBase) - 3
}

// treeSort sorts the unsorted index curr into its tree
// (ZSTD_insertDUBT1), comparing at most nbCompares candidates and none
// at or below btLow. Its smaller link holds the next candidate.
func (f *finder) treeSort(src []byte, curr uint32, end int, nbCompares, btLow uint32) {
	chain, btMask, base := f.chain, f.btMask, f.base
	ip := int(curr - base)
	w := newTreeWalk(curr, btMask)
	m := chain[w.smaller]
	for ; nbCompares > 0 && m > base; nbCompares-- {
		ml := min(w.lenSmaller, w.lenLarger)
		pos := int(m - base)
		ml += treeMatchLen(src, pos+ml, ip+ml, end)
		if ip+ml == end {
			break // equal so far: neither smaller nor larger
		}
		var more bool
		if w, m, more = w.link(chain, btMask, m, ml, src[pos+ml] < src[ip+ml], btLow); !more {
			break
		}
	}
	w.close(chain)
}

// treeLow is the oldest index a tree of btMask+1 nodes still holds
// below curr (0: all of them): the nodes' slots are a ring.
func treeLow(curr, btMask uint32) uint32 {
	if btMask < curr {
		return curr - btMask
	}
	return 0
}

// treeWalk is a walk down a tree that inserts a position: the slots
// where its next smaller and next larger candidates are to be linked
// (-1: none), and how many bytes every further candidate on either side
// shares with the position's string. Its four fields and its methods'
// value receivers let the compiler keep a walk in registers.
type treeWalk struct {
	smaller, larger       int
	lenSmaller, lenLarger int
}

func newTreeWalk(curr, btMask uint32) treeWalk {
	s := int(2 * (curr & btMask))
	return treeWalk{smaller: s, larger: s + 1}
}

// link links candidate m, which shares ml bytes with the position's
// string and sorts before it when less, on its side, and returns the
// walk on and the next candidate on that side; more is false when m is
// the tree's oldest (at or below btLow), where the walk stops.
func (w treeWalk) link(chain []uint32, btMask, m uint32, ml int, less bool, btLow uint32) (_ treeWalk, next uint32, more bool) {
	s := int(2 * (m & btMask))
	if less {
		chain[w.smaller], w.lenSmaller = m, ml
		if m <= btLow {
			w.smaller = -1
			return w, 0, false
		}
		w.smaller = s + 1
		return w, chain[s+1], true
	}
	chain[w.larger], w.lenLarger = m, ml
	if m <= btLow {
		w.larger = -1
		return w, 0, false
	}
	w.larger = s
	return w, chain[s], true
}

// close ends the walk's links on both sides.
func (w treeWalk) close(chain []uint32) {
	if w.smaller >= 0 {
		chain[w.smaller] = 0
	}
	if w.larger >= 0 {
		chain[w.larger] = 0
	}
}
