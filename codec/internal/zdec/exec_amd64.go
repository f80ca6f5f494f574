//go:build gc && !purego && !noasm

package zdec

import "github.com/klauspost/cpuid/v2"

// hasBMI2: decodeFast shifts by registers other than CL (SHLX, SHRX).
var hasBMI2 = cpuid.CPU.Supports(cpuid.BMI2)

// hasSSSE3: executeFast deals matches at offsets under 16 over a word
// (PSHUFB).
//
//lint:ignore U1000 the assembly's
var hasSSSE3 = cpuid.CPU.Supports(cpuid.SSSE3)

// patternMask is, for each offset under 16, the PSHUFB mask that deals
// a match's first offset bytes over 16 (byte i from i mod offset), and
// patternStep the largest multiple of the offset that is 16 or less: the
// dealt word repeats at that step.
//
//lint:ignore U1000 the assembly's
var patternMask, patternStep = func() (m [16][16]byte, s [16]int) {
	for d := 1; d < 16; d++ {
		for i := range 16 {
			m[d][i] = byte(i % d)
		}
		s[d] = 16 - 16%d
	}
	return
}()

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
// leaves its literals' reads within their buffer (c.litsEnd) and its
// output's writes 16 bytes from its buffer's end: the literals and matches in 16-byte words
// (offsets under 16 dealt over a word and stored at a multiple of the
// offset; without SSSE3 in 8-byte words, offsets under 8 spread first
// as copyMatch does). It advances c.out and c.litPos and returns how many
// it executed; execute's loop, its twin, does the rest and reports
// what is invalid. SSE2 only, which every amd64 machine has.
//
//go:noescape
func executeFast(c *execContext) int
