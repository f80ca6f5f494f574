//go:build gc && !purego && !noasm

package zenc

import (
	"unsafe"

	"github.com/blosc2go/blosc2/codec/internal/zfmt"
)

// seqState is what encodeSeqsAsm reads and writes: a seqCoder with its
// tables' arrays and the stream's buffer as addresses.
type seqState struct {
	out            unsafe.Pointer // &buf[pos]
	acc, n         uint64
	seqs, codes    unsafe.Pointer // &seqs[0], &codes[0]
	count          int
	sOF, sML, sLL  uint64
	ofTT, mlTT     unsafe.Pointer // the tables' tt
	llTT           unsafe.Pointer
	ofSt, mlSt     unsafe.Pointer // the tables' states
	llSt           unsafe.Pointer
	llBits, mlBits unsafe.Pointer // &zfmt.LLBits[0], &zfmt.MLBits[0]
}

// encodeSeqsAsm is encodeGo's loop (block.go), statement for statement.
//
//go:noescape
func encodeSeqsAsm(st *seqState)

// encode runs encodeSeqsAsm where the CPU has BMI2, encodeGo elsewhere.
func (c *seqCoder) encode(buf []byte, seqs []seq, codes [][3]uint8) {
	if !hasBMI2 || len(seqs) == 0 {
		c.encodeGo(buf, seqs, codes)
		return
	}
	// Room for the words the loop stores, as encodeGo's le.Store64s
	// assume; and a code for each sequence.
	_ = buf[c.pos+12*len(seqs)+7]
	_ = codes[len(seqs)-1]
	of, ml, ll := c.tables[0], c.tables[1], c.tables[2]
	st := seqState{
		out:    unsafe.Pointer(&buf[c.pos]),
		acc:    c.acc,
		n:      uint64(c.n),
		seqs:   unsafe.Pointer(unsafe.SliceData(seqs)),
		codes:  unsafe.Pointer(unsafe.SliceData(codes)),
		count:  len(seqs),
		sOF:    uint64(c.states[0]),
		sML:    uint64(c.states[1]),
		sLL:    uint64(c.states[2]),
		ofTT:   unsafe.Pointer(&of.tt[0]),
		mlTT:   unsafe.Pointer(&ml.tt[0]),
		llTT:   unsafe.Pointer(&ll.tt[0]),
		ofSt:   unsafe.Pointer(&of.states[0]),
		mlSt:   unsafe.Pointer(&ml.states[0]),
		llSt:   unsafe.Pointer(&ll.states[0]),
		llBits: unsafe.Pointer(&zfmt.LLBits[0]),
		mlBits: unsafe.Pointer(&zfmt.MLBits[0]),
	}
	encodeSeqsAsm(&st)
	c.pos += int(uintptr(st.out) - uintptr(unsafe.Pointer(&buf[c.pos])))
	c.acc, c.n = st.acc, uint(st.n)
	c.states = [3]uint32{uint32(st.sOF), uint32(st.sML), uint32(st.sLL)}
}
