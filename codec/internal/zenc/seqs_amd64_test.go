//go:build gc && !purego && !noasm

package zenc

import (
	"bytes"
	"testing"

	"github.com/blosc2go/blosc2/codec/internal/zfmt"
)

// FuzzSeqCoder: encodeSeqsAsm writes the bytes of its Go twin, encodeGo,
// and ends in its states, for any sequences under the tables the
// sequences section builds for them.
func FuzzSeqCoder(f *testing.F) {
	if !hasBMI2 {
		f.Skip("no BMI2 here: the sequences are coded by the Go twin only, so there is nothing to compare")
	}
	for _, in := range inputs(f) {
		f.Add(in[:min(len(in), 4000)])
	}
	f.Add([]byte{1, 0, 3, 0, 1, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 9, 9, 9, 9, 9, 9, 9, 9})
	// Enough sequences for tables of 512 states (zfmt.MaxFSELog).
	many := make([]byte, 8<<14)
	x := uint32(1)
	for i := range many {
		x = x*1664525 + 1013904223
		many[i] = byte(x >> 24)
	}
	f.Add(many)
	f.Fuzz(func(t *testing.T, in []byte) {
		// Each 8 bytes make a sequence: lengths of up to 17 bits and
		// offset values of up to 24, each shifted down by an amount the
		// bytes give, so that short ones (and repeat codes 1-3) come too.
		var seqs []seq
		for i := 0; i+8 <= len(in) && len(seqs) < 1<<14; i += 8 {
			b := in[i : i+8]
			ll := (uint32(b[0]) | uint32(b[1])<<8 | uint32(b[6]&1)<<16) >> (b[6] >> 4)
			ml := (uint32(b[2]) | uint32(b[3])<<8 | uint32(b[7]&1)<<16) >> (b[7] >> 4)
			of := 1 + (uint32(b[4])|uint32(b[5])<<8|uint32(b[6]&0xe)<<15)>>(b[7]&15)
			seqs = append(seqs, seq{litLen: ll, matchLen: ml, offset: of})
		}
		if len(seqs) < 2 {
			return
		}
		var e Encoder
		if _, err := e.sequences(nil, seqs); err != nil {
			t.Fatal(err)
		}
		codes := e.codes[:len(seqs)]
		last := codes[len(seqs)-1]
		of, ml, ll := e.cur[zfmt.OF], e.cur[zfmt.ML], e.cur[zfmt.LL]
		n := uint(in[0] & 7)
		start := seqCoder{tables: [3]*cTable{of, ml, ll}, states: [3]uint32{of.init(last[zfmt.OF]), ml.init(last[zfmt.ML]), ll.init(last[zfmt.LL])},
			acc: uint64(in[1]) & (1<<n - 1), n: n, pos: int(in[2] % 9)}
		room := start.pos + 12*len(seqs) + 16
		twin, asm := start, start
		twinBuf, asmBuf := make([]byte, room), make([]byte, room)
		twin.encodeGo(twinBuf, seqs[:len(seqs)-1], codes[:len(seqs)-1])
		asm.encode(asmBuf, seqs[:len(seqs)-1], codes[:len(seqs)-1])
		if !bytes.Equal(twinBuf, asmBuf) {
			t.Fatalf("%d sequences: the streams differ", len(seqs))
		}
		if twin != asm {
			t.Fatalf("%d sequences: the coders end differently: %+v, %+v", len(seqs), asm, twin)
		}
	})
}
