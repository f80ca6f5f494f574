//go:build gc && !purego && !noasm

package frame

import (
	"github.com/blosc2go/blosc2/internal/race"
	"github.com/klauspost/cpuid/v2"
)

// foldCRC: the AVX2 kernel (crc_amd64.s) folds 128 bytes at a time with
// VPCLMULQDQ on 256-bit registers while, interleaved, the scalar CRC32
// instruction sums three more streams: the vector and the scalar units
// work at once, about twice hash/crc32's speed (which uses the scalar
// instruction alone). hash/crc32 is its pure-Go twin, and does the tail
// and the CPUs without VPCLMULQDQ.
var foldCRC = cpuid.CPU.Supports(cpuid.AVX2, cpuid.VPCLMULQDQ)

// A call of the kernel sums a superblock: fusedRounds rounds of 128
// folded bytes and 3×40 bytes summed by the scalar unit. Its four CRCs are
// combined with the shifts by fixed lengths computed once (shifts), so
// the combination costs three multiplications per 62 KiB.
const (
	fusedRounds = 256
	streamLen   = 40 * fusedRounds
	superblock  = (128 + 3*40) * fusedRounds
	foldMin     = superblock
)

// shifted[j-1] carries a CRC past j streams: shifted[j-1].mul(c) is
// c·x^(8·j·streamLen) mod P. The combination of a superblock's four CRCs
// costs twelve table loads; mulModP's bit loop, whose branches the data
// decides, cost a third as much as the kernel's pass over the 62 KiB.
var shifted = func() (t [3]*mulTable) {
	if foldCRC {
		for j := range t {
			t[j] = newMulTable(crcShift(1<<31, uint32(j+1)*streamLen))
		}
	}
	return t
}()

// A mulTable multiplies by a constant k modulo P a byte at a time:
// multiplication distributes over the XOR of a value's four bytes.
type mulTable [4][256]uint32

func newMulTable(k uint32) *mulTable {
	t := new(mulTable)
	for i := range t {
		for b := range t[i] {
			t[i][b] = mulModP(k, uint32(b)<<(8*i))
		}
	}
	return t
}

func (t *mulTable) mul(c uint32) uint32 {
	return t[0][byte(c)] ^ t[1][byte(c>>8)] ^ t[2][byte(c>>16)] ^ t[3][c>>24]
}

//go:noescape
func updateFusedAVX2(crc uint32, p []byte, k int) (v, r1, r2, r3 uint32)

// updateFold returns the CRC of the whole superblocks that begin p, from
// crc, and how many bytes that is.
func updateFold(crc uint32, p []byte) (uint32, int) {
	race.ReadSlice(p[:len(p)/superblock*superblock]) // the detector does not see assembly read
	n := 0
	for ; len(p)-n >= superblock; n += superblock {
		v, r1, r2, r3 := updateFusedAVX2(crc, p[n:n+superblock], fusedRounds)
		// The streams follow the folded bytes: each CRC is carried past
		// the streams after it and the four are added, with the
		// inversions undone around it.
		raw := shifted[2].mul(^v) ^ shifted[1].mul(r1) ^ shifted[0].mul(r2) ^ r3
		crc = ^raw
	}
	return crc, n
}
