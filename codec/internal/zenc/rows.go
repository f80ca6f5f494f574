package zenc

import (
	"math/bits"
	"unsafe"

	"github.com/blosc2go/blosc2/codec/internal/le"
)

// rowCacheSize is how many positions ahead the row finder hashes
// (libzstd's ZSTD_ROW_HASH_CACHE_SIZE): their rows are fetched while the
// positions before them are searched.
const rowCacheSize = 8

// rowSkipThreshold, rowGapStart and rowGapEnd: where a search jumps more
// than rowSkipThreshold positions past the last inserted one (a long
// match), the rows get only the gap's first rowGapStart and last
// rowGapEnd (libzstd's ZSTD_row_update_internal).
const (
	rowSkipThreshold = 384
	rowGapStart      = 96
	rowGapEnd        = 32
)

// rows makes f libzstd's row match finder (zstd_lazy.c,
// ZSTD_RowFindBestMatch), which its greedy, lazy and lazy2 strategies
// use over windows of more than 16 KiB: hash is cut into rows of
// 1<<rowLog positions, each the latest first from a head that moves
// back, and tags holds beside each position 8 more bits of its hash, so
// that a search reads one row of tags and compares only the positions
// whose tags are its own. The hashes of the next rowCacheSize positions
// are computed ahead and their rows prefetched: the chain's walk waits
// for each link's load, the row's candidates are known at once.
//
// f.h hashes to the row and the tag (hashLog-rowLog+8 bits), hash and
// tags are 1<<hashLog long.
func (f *finder) rows(tags []uint8, hashLog, searchLog, mls uint8) {
	rowLog := min(max(searchLog, 4), 6)
	f.h = newHasher(hashLog-rowLog+8, mls)
	f.tags = tags
	f.rowLog = rowLog
	f.attempts = 1 << min(searchLog, rowLog)
}

// rowOf returns where the row of hash h starts in f.hash and f.tags.
func (f *finder) rowOf(h uint32) uint32 {
	return h >> 8 << (f.rowLog & 7)
}

// rowFill hashes the positions from i to min(i+rowCacheSize-1, limit)
// into the cache, prefetching their rows (ZSTD_row_fillHashCache).
func (f *finder) rowFill(src []byte, i, limit int) {
	for end := min(i+rowCacheSize-1, limit); i <= end; i++ {
		h := f.h.at(src, i)
		f.cache[i&(rowCacheSize-1)] = h
		f.rowPrefetch(h)
	}
}

// rowPrefetch asks for the start of h's row of indices and its tags.
func (f *finder) rowPrefetch(h uint32) {
	row := f.rowOf(h)
	prefetch(unsafe.Pointer(&f.hash[row]))
	prefetch(unsafe.Pointer(&f.tags[row]))
}

// rowHash returns position i's hash from the cache, where position
// i+rowCacheSize's takes its place (ZSTD_row_nextCachedHash).
func (f *finder) rowHash(src []byte, i int) uint32 {
	next := f.h.at(src, i+rowCacheSize)
	f.rowPrefetch(next)
	h := f.cache[i&(rowCacheSize-1)]
	f.cache[i&(rowCacheSize-1)] = next
	return h
}

// rowMask is the mask of a slot's number in a row.
func (f *finder) rowMask() uint32 { return uint32(1)<<f.rowLog - 1 }

// rowInsert puts index idx, of hash h, at the head of its row, the slot
// before the last head (slot 0 holds the head).
func (f *finder) rowInsert(h, idx uint32) {
	row := f.rowOf(h)
	mask := f.rowMask()
	head := (uint32(f.tags[row]) - 1) & mask
	if head == 0 {
		head = mask
	}
	f.tags[row] = uint8(head)
	f.tags[row+head] = uint8(h)
	le.Set(f.hash, row+head, idx)
}

// rowInsertTo inserts the positions from i to end (excluded), their
// hashes from the cache.
func (f *finder) rowInsertTo(src []byte, i, end int) {
	for ; i < end; i++ {
		f.rowInsert(f.rowHash(src, i), uint32(i)+f.base)
	}
}

// rowBest is best over the rows: the longest match for ip among the
// first f.attempts candidates of ip's row whose tags are ip's, the
// latest first, at least 4 bytes, and its offset; 3 and 0 when there is
// none. It inserts the positions before ip first (none while skipping;
// after a gap of more than rowSkipThreshold, its first and last ones),
// then ip. Positions up to ip+rowCacheSize+8 are read: ip is at most the
// lazy search's ilimit, end-16.
func (f *finder) rowBest(src []byte, ip, end int) (int, int) {
	var h uint32
	if f.skipping {
		h = f.h.at(src, ip)
	} else {
		i := f.next
		if ip-i > rowSkipThreshold {
			f.rowInsertTo(src, i, i+rowGapStart)
			i = ip - rowGapEnd
			f.rowFill(src, i, ip+1)
		}
		f.rowInsertTo(src, i, ip)
		h = f.rowHash(src, ip)
	}
	row := f.rowOf(h)
	rowMask := f.rowMask()
	n := rowMask + 1
	tags := f.tags[row : row+n]
	head := uint32(tags[0]) & rowMask
	// A bit per slot whose tag is h's, rotated so that bit k is the
	// slot k after the head: the latest index first.
	tag := uint64(uint8(h)) * 0x0101010101010101
	var match uint64
	for w := uint32(0); w < n; w += 8 {
		x := le.Load64(tags, int(w)) ^ tag
		// The high bit of each zero byte of x, gathered into a byte.
		z := ^(((x & 0x7F7F7F7F7F7F7F7F) + 0x7F7F7F7F7F7F7F7F) | x | 0x7F7F7F7F7F7F7F7F)
		match |= (z >> 7 * 0x0102040810204080 >> 56) << w
	}
	repeat, rowBits := rowRotation(f.rowLog)
	match = bits.RotateLeft64(match*repeat, -int(head)) & rowBits
	var cands [64]uint32
	k := 0
	for attempts := f.attempts; match != 0 && attempts > 0; match &= match - 1 {
		slot := (head + uint32(bits.TrailingZeros64(match))) & rowMask
		if slot == 0 {
			continue
		}
		idx := le.Get(f.hash, row+slot)
		if idx < f.base {
			break // an earlier frame's, and so are the slots after it
		}
		cands[k] = idx
		k++
		attempts--
	}
	f.rowInsert(h, uint32(ip)+f.base)
	f.next = ip + 1
	ml, off := 3, 0
	for _, idx := range cands[:k] {
		m := int(idx - f.base)
		// The 4 bytes ending one past the best length so far.
		if le.Load32(src, m+ml-3) == le.Load32(src, ip+ml-3) {
			if l := matchLen(src, m, ip, end); l > ml {
				if ml, off = l, ip-m; ip+l == end {
					break
				}
			}
		}
	}
	return ml, off
}

// rowRotation returns the multiplier that repeats a row's mask of
// 1<<rowLog bits over 64, so that rotating the 64 rotates the row's, and
// the mask of the row's bits in 64: rowLog 4, 5 or 6.
func rowRotation(rowLog uint8) (repeat, bits uint64) {
	bits = ^uint64(0) >> (64 - 1<<rowLog)
	switch rowLog {
	case 4:
		return 0x0001000100010001, bits
	case 5:
		return 0x0000000100000001, bits
	}
	return 1, bits
}
