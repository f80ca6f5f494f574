//go:build gc && !purego && !noasm

package zenc

import "unsafe"

// huffRoundsAsm is huffRoundsGo's loop, statement for statement, over the
// n codes (a multiple of 2×huffRound) of the bytes at lits, written at
// out; it returns the address past the stream's whole bytes, its word
// and its count.
//
//go:noescape
func huffRoundsAsm(out, lits *byte, n int, code *[256]uint64, acc, bits uint64) (end *byte, accOut, bitsOut uint64)

// huffRounds runs huffRoundsAsm where the CPU has BMI2 (its shifts by
// registers other than CL, which let a code's shift not wait on a move),
// huffRoundsGo elsewhere.
func huffRounds(buf []byte, pos int, acc, bits uint64, lits []byte, code *[256]uint64) (int, uint64, uint64) {
	if !hasBMI2 || len(lits) == 0 {
		return huffRoundsGo(buf, pos, acc, bits, lits, code)
	}
	// Room for the words the loop stores, as huffRoundsGo's flushTops
	// check: codes of at most huffMaxBits after at most 7 bits, the last
	// stored as a whole word.
	_ = buf[pos+(len(lits)*huffMaxBits+7)/8+7]
	start := &buf[pos]
	end, acc, bits := huffRoundsAsm(start, unsafe.SliceData(lits), len(lits), code, acc, bits)
	return pos + int(uintptr(unsafe.Pointer(end))-uintptr(unsafe.Pointer(start))), acc, bits
}
