//go:build gc && !purego && !noasm

package zenc

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"
)

// hasBMI2 (and BMI1): dfastAsm hashes with shifts by registers other
// than CL (SHRX) and finds a match's end with TZCNT.
var hasBMI2 = cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2)

// dfastState is dfastAsm's input and output: the search's state as
// dfastGo keeps it in locals, and the ends of e.seqs and e.lits, whose
// capacities the caller has checked.
type dfastState struct {
	src         unsafe.Pointer
	srcLen      int
	long, short unsafe.Pointer
	seqs        unsafe.Pointer
	nSeqs       int
	lits        unsafe.Pointer
	nLits       int
	longPrime   uint64 // the 8-byte hash's multiplier
	shortPrime  uint64 // the short hash's, shifted left by its in-shift
	longShift   uint64 // 64 - hashLog
	shortShift  uint64 // 64 - chainLog
	base        int
	end, ilimit int
	anchor, ip  int
	rep1, rep2  uint32
	reps        [3]uint32
	// The assembly's own: the step and where it grows, where the last
	// search started, the addresses of src[end] and src[len(src)].
	//lint:ignore U1000 the assembly's
	step, next int
	//lint:ignore U1000 the assembly's
	curr int
	//lint:ignore U1000 the assembly's
	srcEnd, srcLimit uintptr
}

// dfast runs the double fast search: in assembly with BMI2, else in Go.
// Both write the same sequences and literals (FuzzDfast).
func (e *Encoder) dfast(src []byte, start, end int, p params) {
	if !hasBMI2 || cap(e.seqs)-len(e.seqs) < (end-start)/4+1 || cap(e.lits)-len(e.lits) < end-start+16 {
		e.dfastGo(src, start, end, p)
		return
	}
	hl := newHasher(p.hashLog, 8)
	hs := newHasher(p.chainLog, p.minMatch)
	ip, rep1, rep2 := e.searchStart(start)
	st := dfastState{
		src:        unsafe.Pointer(unsafe.SliceData(src)),
		srcLen:     len(src),
		long:       unsafe.Pointer(unsafe.SliceData(e.hash[:hl.tableMask+1])),
		short:      unsafe.Pointer(unsafe.SliceData(e.chain[:hs.tableMask+1])),
		seqs:       unsafe.Pointer(unsafe.SliceData(e.seqs)),
		nSeqs:      len(e.seqs),
		lits:       unsafe.Pointer(unsafe.SliceData(e.lits)),
		nLits:      len(e.lits),
		longPrime:  hl.prime,
		shortPrime: hs.prime << (hs.in & 63),
		longShift:  uint64(hl.out),
		shortShift: uint64(hs.out),
		base:       int(e.base),
		end:        end,
		ilimit:     end - 8,
		anchor:     start,
		ip:         ip,
		rep1:       rep1,
		rep2:       rep2,
		reps:       e.reps,
	}
	dfastAsm(&st)
	e.seqs = e.seqs[:st.nSeqs]
	e.lits = append(e.lits[:st.nLits], src[st.anchor:end]...)
	e.reps = st.reps
}

// dfastAsm is dfastGo's loop in assembly (dfast_amd64.s).
//
//go:noescape
func dfastAsm(st *dfastState)
