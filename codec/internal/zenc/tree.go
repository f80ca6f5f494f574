package zenc

import "math/bits"

// The binary tree of libzstd's btlazy2 strategy (zstd_lazy.c,
// ZSTD_BtFindBestMatch and its "DUBT" helpers): per hash of mls bytes,
// the positions of that hash sorted as a binary search tree of the
// strings they start, two links per position in f.chain (smaller,
// larger). Positions are inserted unsorted, chained like the hash
// chain's, and sorted into the tree only when a search reaches them.
//
// Here the tables hold libzstd's indices, positions plus treeBase
// (libzstd's first index): 0 marks an empty slot, treeBase's position
// is never a candidate, and unsortedMark is no position's.
const (
	treeBase     = 2
	unsortedMark = 1
)

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
	hash, chain, btMask := f.hash, f.chain, f.btMask
	for i := f.next; i < ip; i++ {
		h := f.h.at(src, i)
		idx := uint32(i + treeBase)
		s := 2 * (idx & btMask)
		chain[s], chain[s+1] = hash[h], unsortedMark
		hash[h] = idx
	}
	h := f.h.at(src, ip)
	curr := uint32(ip + treeBase)
	btLow := uint32(0)
	if btMask < curr {
		btLow = curr - btMask
	}
	unsortLimit := max(btLow, treeBase)
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
	var lenSmaller, lenLarger int
	smaller, larger := int(2*(curr&btMask)), int(2*(curr&btMask))+1
	matchEnd := curr + 9
	best, offBase := 0, uint32(999999999)
	m = hash[h]
	hash[h] = curr
	for ; nbCompares > 0 && m > treeBase; nbCompares-- {
		next := int(2 * (m & btMask))
		ml := min(lenSmaller, lenLarger)
		pos := int(m) - treeBase
		ml += matchLen(src, pos+ml, ip+ml, end)
		if ml > best {
			matchEnd = max(matchEnd, m+uint32(ml))
			if 4*(ml-best) > bits.Len32(curr-m+1)-bits.Len32(offBase) {
				best, offBase = ml, curr-m+3
			}
			if ip+ml == end {
				break // equal so far: neither smaller nor larger
			}
		}
		if src[pos+ml] < src[ip+ml] {
			chain[smaller] = m
			lenSmaller = ml
			if m <= btLow {
				smaller = -1
				break
			}
			smaller, m = next+1, chain[next+1]
		} else {
			chain[larger] = m
			lenLarger = ml
			if m <= btLow {
				larger = -1
				break
			}
			larger, m = next, chain[next]
		}
	}
	if smaller >= 0 {
		chain[smaller] = 0
	}
	if larger >= 0 {
		chain[larger] = 0
	}
	f.next = int(matchEnd) - 8 - treeBase
	return best, int(offBase) - 3
}

// treeSort sorts the unsorted index curr into its tree
// (ZSTD_insertDUBT1), comparing at most nbCompares candidates and none
// at or below btLow. Its smaller link holds the next candidate.
func (f *finder) treeSort(src []byte, curr uint32, end int, nbCompares, btLow uint32) {
	chain, btMask := f.chain, f.btMask
	ip := int(curr) - treeBase
	var lenSmaller, lenLarger int
	smaller := int(2 * (curr & btMask))
	larger := smaller + 1
	m := chain[smaller]
	for ; nbCompares > 0 && m > treeBase; nbCompares-- {
		next := int(2 * (m & btMask))
		ml := min(lenSmaller, lenLarger)
		pos := int(m) - treeBase
		ml += matchLen(src, pos+ml, ip+ml, end)
		if ip+ml == end {
			break // equal so far: neither smaller nor larger
		}
		if src[pos+ml] < src[ip+ml] {
			chain[smaller] = m
			lenSmaller = ml
			if m <= btLow {
				smaller = -1
				break
			}
			smaller, m = next+1, chain[next+1]
		} else {
			chain[larger] = m
			lenLarger = ml
			if m <= btLow {
				larger = -1
				break
			}
			larger, m = next, chain[next]
		}
	}
	if smaller >= 0 {
		chain[smaller] = 0
	}
	if larger >= 0 {
		chain[larger] = 0
	}
}
