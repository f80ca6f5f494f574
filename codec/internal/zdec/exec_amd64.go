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
// output's writes 16 bytes from its buffer's end: the literals and
// matches in 16-byte words (offsets under 16 dealt over a word and
// stored at a multiple of the offset; without SSSE3 in 8-byte words,
// offsets under 8 spread first as copyMatch does). It advances c.out
// and c.litPos and returns how many it executed; execute's loop, its
// twin, does the rest and reports what is invalid. SSE2 only, which
// every amd64 machine has.
//
//go:noescape
func executeFast(c *execContext) int

// decodeExecute decodes and executes dc's sequences in one pass
// (decodeExecuteBMI2), as libzstd and klauspost's decoders do for most
// blocks: the copies of one sequence run while the next one's decoding
// waits on its loads. ec is the execution's context, as executeFast
// takes it. It stops before a sequence executeFast would leave to its
// twin, which it stores decoded in dc's sequences at its index, and at
// an overread, which the sequences loop then reports; it advances dc
// and ec and returns how many sequences it executed and decoded. The
// two passes do the rest. Only with BMI2 and SSSE3.
func decodeExecute(dc *decodeContext, ec *execContext) (executed, decoded int) {
	if !hasBMI2 || !hasSSSE3 {
		return 0, 0
	}
	c := fusedContext{dec: *dc, exec: *ec, masks: &patternMask, steps: &patternStep}
	executed = decodeExecuteBMI2(&c)
	*dc, *ec = c.dec, c.exec
	return executed, c.decoded
}

// fusedContext is what decodeExecuteBMI2 reads, and advances: the
// decoding's context first, at offset 0 (so that the assembly reads its
// fields as decodeFast does, decodeContext_*(DI); TestFusedLayout), the
// execution's, the dealing tables, and its results; the rest is its own.
type fusedContext struct {
	dec   decodeContext
	exec  execContext
	masks *[16][16]byte
	steps *[16]int

	decoded int

	//lint:ignore U1000 decodeExecuteBMI2's own: the assembly writes and reads them
	outLimit, litLimit, frameStart uintptr
	//lint:ignore U1000 decodeExecuteBMI2's own
	left uint64
	//lint:ignore U1000 decodeExecuteBMI2's own
	ll, ml, of uint32
}

//go:noescape
func decodeExecuteBMI2(c *fusedContext) int
