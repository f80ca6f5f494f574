//go:build gc && !purego && !noasm

package zenc

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"
)

// hasBMI2 (and BMI1): the match finders' assembly hashes with shifts by
// registers other than CL (SHRX) and finds a match's end with TZCNT.
var hasBMI2 = cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2)

// searchState is what the match finders' assembly (fastAsm, dfastAsm,
// lazyAsm) reads and writes: the search's state as their Go twins keep it in
// locals, and the ends of e.seqs and e.lits.
type searchState struct {
	src         unsafe.Pointer
	srcLen      int
	hash, chain unsafe.Pointer // e.hash's and e.chain's first entries
	seqs        unsafe.Pointer
	nSeqs       int
	lits        unsafe.Pointer
	nLits       int
	hashPrime   uint64 // e.hash's hasher's multiplier, shifted left by its in-shift
	chainPrime  uint64 // e.chain's
	hashShift   uint64 // 64 - hashLog
	chainShift  uint64 // 64 - chainLog
	base        int
	end, ilimit int
	anchor, ip  int
	rep1, rep2  uint32
	reps        [3]uint32
	// The lazy search's: the finder's state (lazyAsm) and the depth.
	chainMask                      uint32
	nextHash                       uint32
	attempts, nextPos, depth       int // nextPos: the finder's next
	nextHashed, skipping, rowSkips bool
	// The rows' (rows.go), where rows is set: the tags, the row's
	// log, mask, repeat multiplier and the mask of a row's bits in 64
	// (rowRotation), the hashes of positions nextPos on.
	rows               bool
	tags               unsafe.Pointer
	rowLog             uint64
	rowMask            uint32
	rowRepeat, rowBits uint64
	cache              [rowCacheSize]uint32
	// The binary tree's (tree.go), where tree is set: the mask of its
	// nodes' ring.
	tree   bool
	btMask uint32
	// The assembly's own: the step and where it grows, where the last
	// search started, the addresses of src[end] and src[len(src)].
	//lint:ignore U1000 the assembly's
	step, next int
	//lint:ignore U1000 the assembly's
	curr int
	//lint:ignore U1000 the assembly's
	srcEnd, srcLimit uintptr
	// lazyAsm's: the depth searched so far, where best returns to, the
	// oldest index of the chain, the match kept while best runs.
	//lint:ignore U1000 the assembly's
	d, ret, minChain int
	//lint:ignore U1000 the assembly's
	keptML, keptOffBase, keptStart int
	// The candidates of a row, as lazyAsm collects them.
	//lint:ignore U1000 the assembly's
	cands [64]uint32
	// lazyAsm's over the tree (treeBest's variables): ip's hash, curr,
	// btLow, unsortLimit, matchEnd and offBase; the next unsorted
	// candidate and nbCandidates while one is sorted; the common
	// lengths of a walk's two sides; the slot a side's links go to once
	// it has reached the tree's oldest node.
	//lint:ignore U1000 the assembly's
	treeHash, treeCurr, btLow, unsortLimit, matchEnd, offBase uint32
	//lint:ignore U1000 the assembly's
	sortNext uint32
	//lint:ignore U1000 the assembly's
	nbCandidates, lenSmaller, lenLarger int
	//lint:ignore U1000 the assembly's
	unlinked uint32
}

// searchAsm reports whether the assembly may search src[start:end]: with
// BMI2, and with room in e.seqs for a sequence per 4 bytes and in e.lits
// for every byte and 16 more (its copies of literals write whole
// 16-byte words), which block makes.
func (e *Encoder) searchAsm(start, end int) bool {
	return hasBMI2 && cap(e.seqs)-len(e.seqs) >= (end-start)/4+1 && cap(e.lits)-len(e.lits) >= end-start+16
}

// newSearch returns the state the assembly starts from, hash (e.hash's
// first entries) hashed by hh (dfast adds e.chain's).
func (e *Encoder) newSearch(src []byte, start, end int, hash []uint32, hh hasher) searchState {
	ip, rep1, rep2 := e.searchStart(start)
	return searchState{
		src:       unsafe.Pointer(unsafe.SliceData(src)),
		srcLen:    len(src),
		hash:      unsafe.Pointer(unsafe.SliceData(hash)),
		seqs:      unsafe.Pointer(unsafe.SliceData(e.seqs)),
		nSeqs:     len(e.seqs),
		lits:      unsafe.Pointer(unsafe.SliceData(e.lits)),
		nLits:     len(e.lits),
		hashPrime: hh.shiftedPrime(),
		hashShift: uint64(hh.out),
		base:      int(e.base),
		end:       end,
		ilimit:    end - 8,
		anchor:    start,
		ip:        ip,
		rep1:      rep1,
		rep2:      rep2,
		reps:      e.reps,
	}
}

// shiftedPrime is h's multiplier shifted left by its in-shift: the
// assembly's hash, u*shiftedPrime>>out, is at's ((u<<in)*prime>>out).
func (h hasher) shiftedPrime() uint64 { return h.prime << (h.in & 63) }

// finish takes the sequences, literals and offsets the assembly wrote,
// and the block's last literals.
func (e *Encoder) finish(st *searchState, src []byte) {
	e.seqs = e.seqs[:st.nSeqs]
	e.lits = append(e.lits[:st.nLits], src[st.anchor:st.end]...)
	e.reps = st.reps
}

// fast runs the fast search: in assembly with BMI2, else in Go. Both
// write the same sequences and literals (FuzzSearch).
func (e *Encoder) fast(src []byte, start, end int, p params) {
	if !e.searchAsm(start, end) {
		e.fastGo(src, start, end, p)
		return
	}
	hh := newHasher(p.hashLog, p.minMatch)
	st := e.newSearch(src, start, end, e.hash[:hh.tableMask+1], hh)
	fastAsm(&st)
	e.finish(&st, src)
}

// dfast runs the double fast search: in assembly with BMI2, else in Go.
// Both write the same sequences and literals (FuzzSearch).
func (e *Encoder) dfast(src []byte, start, end int, p params) {
	if !e.searchAsm(start, end) {
		e.dfastGo(src, start, end, p)
		return
	}
	hh := newHasher(p.hashLog, 8)
	st := e.newSearch(src, start, end, e.hash[:hh.tableMask+1], hh)
	hc := newHasher(p.chainLog, p.minMatch)
	st.chain = unsafe.Pointer(unsafe.SliceData(e.chain[:hc.tableMask+1]))
	st.chainPrime = hc.shiftedPrime()
	st.chainShift = uint64(hc.out)
	dfastAsm(&st)
	e.finish(&st, src)
}

// lazy runs the greedy, lazy, lazy2 and btlazy2 searches: in assembly
// with BMI2, else in Go. Both write the same sequences and leave the same
// finder and tables (FuzzSearch).
func (e *Encoder) lazy(src []byte, start, end int, p params, f *finder) {
	if !e.searchAsm(start, end) {
		e.lazyGo(src, start, end, p, f)
		return
	}
	st := e.newSearch(src, start, end, f.hash, f.h)
	st.attempts = f.attempts
	st.nextPos, st.nextHash, st.nextHashed = f.next, f.nextHash, f.nextHashed
	st.depth = lazyDepth(p.strategy)
	if f.rowLog != 0 {
		st.ilimit = f.ilimit(end)
		st.rows, st.tags, st.cache = true, unsafe.Pointer(unsafe.SliceData(f.tags)), f.cache
		st.rowLog, st.rowMask = uint64(f.rowLog), f.rowMask()
		st.rowRepeat, st.rowBits = rowRotation(f.rowLog)
	} else {
		st.chain = unsafe.Pointer(unsafe.SliceData(f.chain))
		st.chainMask, st.rowSkips = f.chainMask, f.rowSkips
		st.tree, st.btMask = f.tree, f.btMask
	}
	lazyAsm(&st)
	f.next, f.nextHash, f.nextHashed, f.skipping = st.nextPos, st.nextHash, st.nextHashed, st.skipping
	f.cache = st.cache
	e.finish(&st, src)
}

// lazyAsm is lazyGo's loop, its search over the chain, the rows or the
// tree included, in assembly (lazy_amd64.s).
//
//go:noescape
func lazyAsm(st *searchState)

// fastAsm is fastGo's loop in assembly (fast_amd64.s).
//
//go:noescape
func fastAsm(st *searchState)

// dfastAsm is dfastGo's loop in assembly (dfast_amd64.s).
//
//go:noescape
func dfastAsm(st *searchState)

// hasAVX2: matchLenOn compares 32 bytes a step.
var hasAVX2 = cpuid.CPU.Supports(cpuid.AVX, cpuid.AVX2)

// equalPrefixAVX2 returns how many of the n bytes at a and at b are
// equal before the first that differs, comparing 32 at a time.
//
//go:noescape
func equalPrefixAVX2(a, b *byte, n int) int

// matchLenOn is matchLen(src, a, b, end) for a match whose first 16
// bytes are equal (treeMatchLen): equalPrefixAVX2 where the CPU has
// AVX2, matchLen elsewhere.
//
//go:noinline
func matchLenOn(src []byte, a, b, end int) int {
	if !hasAVX2 || end-b <= 16 {
		return 16 + matchLen(src, a+16, b+16, end)
	}
	_ = src[end-1] // a+16 < b+16 < end <= len(src)
	return 16 + equalPrefixAVX2(&src[a+16], &src[b+16], end-b-16)
}

// prefetch asks for p's cache line without waiting for it.
//
//go:noescape
func prefetch(p unsafe.Pointer)
