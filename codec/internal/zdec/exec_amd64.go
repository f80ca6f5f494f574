//go:build gc && !purego && !noasm

package zdec

import "github.com/klauspost/cpuid/v2"

// hasBMI2: decodeFast shifts by registers other than CL (SHLX, SHRX).
var hasBMI2 = cpuid.CPU.Supports(cpuid.BMI2)

// Accelerated reports whether the sequences are decoded and executed in
// assembly: on amd64 with BMI2.
func Accelerated() bool { return hasBMI2 }

// decodeFast decodes c's sequences into c.seqs, in order, as the
// sequences loop does, its twin: the offset's, match length's and
// literal length's extra bits, the three states' next, a reload after
// each sequence (and one between when the extra bits pass 31), the
// repeated offsets resolved. It stops early only where the stream is
// overread. It advances c's bit reader, states and offsets, and returns
// how many sequences it decoded; the loop decodes the rest, and reports
// the overread. Only with BMI2: otherwise the loop decodes them all.
func decodeFast(c *decodeContext) int {
	if !hasBMI2 {
		return 0
	}
	return decodeFastBMI2(c)
}

//go:noescape
func decodeFastBMI2(c *decodeContext) int

// executeFast executes c's sequences in order while each is valid and
// leaves its literals' reads 16 bytes and its output's writes 16 bytes
// from their buffers' ends: the literals and matches in 16-byte words
// (8-byte ones for offsets under 16, offsets under 8 spread first as
// copyMatch does). It advances c.out and c.litPos and returns how many
// it executed; execute's loop, its twin, does the rest and reports
// what is invalid. SSE2 only, which every amd64 machine has.
//
//go:noescape
func executeFast(c *execContext) int
