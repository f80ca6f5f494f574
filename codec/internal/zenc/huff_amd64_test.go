//go:build gc && !purego && !noasm

package zenc

import (
	"bytes"
	"testing"
)

// FuzzHuffRounds: huffRoundsAsm writes the bytes of its Go twin,
// huffRoundsGo, and ends in its position, word and count, for any
// literals under codes of every length 1-huffMaxBits, from any word and
// count a flush leaves.
func FuzzHuffRounds(f *testing.F) {
	if !hasBMI2 {
		f.Skip("no BMI2 here: the literals are coded by the Go twin only, so there is nothing to compare")
	}
	for _, in := range inputs(f) {
		f.Add(in[:min(len(in), 5000)])
	}
	f.Add(bytes.Repeat([]byte{255, 0, 17}, 300))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 3 {
			return
		}
		// Each symbol's length from the input's first bytes (wrapping),
		// its code bits from a multiplicative hash: the loop's result
		// does not depend on the codes being a prefix code, only on
		// their lengths being at most huffMaxBits.
		var code [256]uint64
		for s := range code {
			l := uint64(1 + int(in[s%len(in)])%huffMaxBits)
			x := uint64(s+1) * 0x9E3779B97F4A7C15
			code[s] = x>>(64-l)<<(64-l) | l
		}
		bits := uint64(in[0] & 7)
		acc := uint64(in[1]) * 0x0101010101010101
		pos := int(in[2] % 9)
		lits := in[3:]
		lits = lits[:len(lits)/(2*huffRound)*(2*huffRound)]
		room := pos + (len(lits)*huffMaxBits+7)/8 + 8
		twinBuf, asmBuf := make([]byte, room), make([]byte, room)
		tp, ta, tb := huffRoundsGo(twinBuf, pos, acc, bits, lits, &code)
		ap, aa, ab := huffRounds(asmBuf, pos, acc, bits, lits, &code)
		if !bytes.Equal(twinBuf, asmBuf) {
			t.Fatalf("%d literals: the streams differ", len(lits))
		}
		if tp != ap || ta != aa || tb != ab {
			t.Fatalf("%d literals: asm ends at %d, %#x, %d; Go at %d, %#x, %d", len(lits), ap, aa, ab, tp, ta, tb)
		}
	})
}
