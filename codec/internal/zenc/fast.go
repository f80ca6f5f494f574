package zenc

import (
	"math/bits"
	"unsafe"

	"github.com/blosc2go/blosc2/codec/internal/le"
)

// Hash multipliers of libzstd's ZSTD_hashN (zstd_compress_internal.h).
const (
	prime3 = 506832829
	prime4 = 2654435761
	prime5 = 889523592379
	prime6 = 227718039650203
	prime7 = 58295818150454627
	prime8 = 0xCF1BBCDCB7A56463
)

// hasher hashes the mls bytes at a position (libzstd's ZSTD_hashN; the
// 4-byte hash is the 32-bit one, computed in the upper half of a 64-bit
// product).
type hasher struct {
	prime     uint64
	in, out   uint8
	tableMask uint32
}

func newHasher(hashLog, mls uint8) hasher {
	primes := [...]uint64{3: prime3, 4: prime4, 5: prime5, 6: prime6, 7: prime7, 8: prime8}
	return hasher{prime: primes[mls], in: 64 - 8*mls, out: 64 - hashLog, tableMask: 1<<hashLog - 1}
}

// at hashes the bytes at src[i:] (8 of them readable).
func (h hasher) at(src []byte, i int) uint32 {
	u := le.Load64(src, i)
	// The shifts are below 64: masked, they compile without the
	// compiler's guard for larger ones.
	return uint32((u<<(h.in&63))*h.prime>>(h.out&63)) & h.tableMask
}

// prefetchNext asks for table's entries of positions ip+1 and ip+2,
// where src may be hashed there (up to end-8), without waiting for them.
// The binary trees' searches call it before they search ip, as their
// parsers ask for ip+1 next, and often ip+2: the entries' cache misses
// (a 1 MiB block's table at level 22 is 8 MB) then overlap this search
// instead of the next ones. A load kept in a field, as here before,
// overlapped less: it holds back every instruction after it once the
// processor's window is full (level 22 on the values' 1 MiB blocks: 15%
// faster with the prefetches). lazyAsm prefetches ip+1's entry too.
func (h hasher) prefetchNext(table []uint32, src []byte, ip, end int) {
	if ip+2 <= end-8 {
		prefetch(unsafe.Pointer(&table[h.at(src, ip+2)]))
	}
	if ip+1 <= end-8 {
		prefetch(unsafe.Pointer(&table[h.at(src, ip+1)]))
	}
}

// matchLen returns how many bytes from src[a:] and src[b:] (a < b) are
// equal, up to end (at most len(src): the loads stay below it).
func matchLen(src []byte, a, b, end int) int {
	n := 0
	for b+n+8 <= end {
		if x := le.Load64(src, a+n) ^ le.Load64(src, b+n); x != 0 {
			return n + bits.TrailingZeros64(x)>>3
		}
		n += 8
	}
	for b+n < end && src[a+n] == src[b+n] {
		n++
	}
	return n
}

// treeMatchLen is matchLen for the binary trees' walks (tree.go, and
// btFinder's in opt.go): two words compared inline, a longer match
// followed out of line by matchLenOn, in assembly where the CPU has AVX2
// (32 bytes a step). Inlined whole into the walks, whose locals fill the
// registers, matchLen's loop kept its count on the stack, and the long
// matches of shuffled timestamps at level 15 took half of the time.
func treeMatchLen(src []byte, a, b, end int) int {
	if b+16 <= end {
		if x := le.Load64(src, a) ^ le.Load64(src, b); x != 0 {
			return bits.TrailingZeros64(x) >> 3
		}
		if x := le.Load64(src, a+8) ^ le.Load64(src, b+8); x != 0 {
			return 8 + bits.TrailingZeros64(x)>>3
		}
		return matchLenOn(src, a, b, end)
	}
	return matchLen(src, a, b, end)
}

// searchStart returns where a block's search starts (past the frame's
// first byte, which no match can cover) and the search's own two last
// offsets, starting from the decoder's: one reaching before the frame is
// not tried (0).
func (e *Encoder) searchStart(start int) (int, uint32, uint32) {
	ip := max(start, 1)
	rep1, rep2 := e.reps[0], e.reps[1]
	if rep1 > uint32(ip) {
		rep1 = 0
	}
	if rep2 > uint32(ip) {
		rep2 = 0
	}
	return ip, rep1, rep2
}

// kSearchStrength sets how fast the search accelerates over data that
// does not match: one more step every 1<<(kSearchStrength-1) bytes.
const kSearchStrength = 8

// fastGo is libzstd's "fast" strategy (zstd_fast.c,
// ZSTD_compressBlock_fast_noDict_generic, without its step option): one
// hash table of positions, positions tried in pairs, a 4-byte check of
// the candidate and of the last offset two positions ahead, and after
// each match the previous offset tried again. It appends the sequences
// of src[start:end] to e.seqs and their literals to e.lits; src[:start]
// is the history matches may reach. It is the twin of fastAsm (amd64),
// which writes the same sequences; fast chooses.
//
// Every load is within src (le.Load* does not check): the positions
// searched and hashed stay at or below ilimit = end-8; a candidate is a
// position hashed earlier (0, the frame's first, is never hashed: an
// index at or below base is no candidate, as in libzstd); and a repeat
// offset is at most the position it is tried at (those reaching before
// the frame are dropped at the block's start, and the others are
// offsets of matches found since).
func (e *Encoder) fastGo(src []byte, start, end int, p params) {
	h := newHasher(p.hashLog, p.minMatch)
	table := e.hash[:h.tableMask+1]
	base := int(e.base) // the tables hold positions plus base (see Encoder)
	const step0 = 2
	ilimit := end - 8
	anchor := start
	ip0, rep1, rep2 := e.searchStart(start)
	for {
		// _start: ip0 at the first position to search.
		step := step0
		nextStep := ip0 + 1<<(kSearchStrength-1)
		ip1 := ip0 + 1
		ip2 := ip0 + step
		ip3 := ip2 + 1
		if ip3 >= ilimit {
			break
		}
		hash0 := h.at(src, ip0)
		hash1 := h.at(src, ip1)
		idx := int(le.Get(table, hash0)) - base
		var match0, mLength, current0 int
		found := false
		for {
			// The last offset, two positions ahead.
			rval := uint32(0)
			if rep1 > 0 {
				rval = le.Load32(src, ip2-int(rep1))
			}
			current0 = ip0
			le.Set(table, hash0, uint32(ip0+base))
			if rep1 > 0 && le.Load32(src, ip2) == rval {
				ip0 = ip2
				match0 = ip0 - int(rep1)
				mLength = 0
				if src[ip0-1] == src[match0-1] {
					mLength = 1
				}
				ip0 -= mLength
				match0 -= mLength
				mLength += 4
				le.Set(table, hash1, uint32(ip1+base))
				found = true
				break
			}
			if idx > 0 && le.Load32(src, ip0) == le.Load32(src, idx) {
				le.Set(table, hash1, uint32(ip1+base))
				match0, mLength = -1, 0
				found = true
				break
			}
			idx = int(le.Get(table, hash1)) - base
			hash0 = hash1
			hash1 = h.at(src, ip2)
			ip0, ip1, ip2 = ip1, ip2, ip3
			current0 = ip0
			le.Set(table, hash0, uint32(ip0+base))
			if idx > 0 && le.Load32(src, ip0) == le.Load32(src, idx) {
				if step <= 4 {
					le.Set(table, hash1, uint32(ip1+base))
				}
				match0, mLength = -1, 0
				found = true
				break
			}
			idx = int(le.Get(table, hash1)) - base
			hash0 = hash1
			hash1 = h.at(src, ip2)
			ip0, ip1 = ip1, ip2
			ip2 = ip0 + step
			ip3 = ip1 + step
			if ip2 >= nextStep {
				step++
				nextStep += 1 << (kSearchStrength - 1)
			}
			if ip3 >= ilimit {
				break
			}
		}
		if !found {
			break
		}
		if match0 < 0 {
			// _offset: a new offset; extend the match backwards.
			match0 = idx
			rep2, rep1 = rep1, uint32(ip0-match0)
			mLength = 4
			for ip0 > anchor && match0 > 0 && src[ip0-1] == src[match0-1] {
				ip0--
				match0--
				mLength++
			}
		}
		// _match
		mLength += matchLen(src, match0+mLength, ip0+mLength, end)
		e.store(src[anchor:ip0], uint32(ip0-match0), uint32(mLength))
		ip0 += mLength
		anchor = ip0
		if ip0 <= ilimit {
			le.Set(table, h.at(src, current0+2), uint32(current0+2+base))
			le.Set(table, h.at(src, ip0-2), uint32(ip0-2+base))
			if rep2 > 0 {
				for ip0 <= ilimit && le.Load32(src, ip0) == le.Load32(src, ip0-int(rep2)) {
					r := matchLen(src, ip0+4-int(rep2), ip0+4, end) + 4
					rep1, rep2 = rep2, rep1
					le.Set(table, h.at(src, ip0), uint32(ip0+base))
					e.store(nil, rep1, uint32(r))
					ip0 += r
					anchor = ip0
				}
			}
		}
	}
	e.lits = append(e.lits, src[anchor:end]...)
}
