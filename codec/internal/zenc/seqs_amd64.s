//go:build gc && !purego && !noasm

#include "go_asm.h"
#include "textflag.h"

// encodeSeqsAsm(st *seqState) is seqCoder.encodeGo's loop (block.go),
// statement for statement; the comments name encodeGo's variables.
// Registers:
//   R12 st                 DI  &buf[pos]
//   AX  acc                BX  n
//   SI  &seqs[i]           R8  &codes[i]
//   R9  sOF                R10 sML
//   R11 sLL
//   CX, DX, R13, R14, R15  scratch
// st holds the tables' addresses.

// ENCODE(state, code, tt, states): the bits that take state to code with
// the table whose tt (a register, clobbered) and states (in st) are
// given, added to acc, and the next state (cTable.encode).
#define ENCODE(state, code, tt, states) \
	MOVL    (tt)(code*8), DX         \
	ADDL    state, DX                \
	SHRL    $16, DX                  \
	BZHIQ   DX, state, CX            \
	SHLXQ   BX, CX, CX               \
	ORQ     CX, AX                   \
	ADDQ    DX, BX                   \
	SHRXL   DX, state, CX            \
	ADDL    4(tt)(code*8), CX        \
	ANDL    $511, CX                 \
	MOVQ    states, tt               \
	MOVWLZX (tt)(CX*2), state

// ADD_BITS(v, nb): acc |= v's nb low bits above its n; n += nb
// (addBits; clobbers v).
#define ADD_BITS(v, nb) \
	BZHIQ nb, v, v  \
	SHLXQ BX, v, v  \
	ORQ   v, AX     \
	ADDQ  nb, BX

// FLUSH: acc stored at pos, pos past its whole bytes, the bits left
// (flushBits).
#define FLUSH \
	MOVQ  AX, (DI)    \
	MOVQ  BX, CX      \
	SHRQ  $3, CX      \
	ADDQ  CX, DI      \
	SHLQ  $3, CX      \
	SHRXQ CX, AX, AX  \
	ANDQ  $7, BX

TEXT ·encodeSeqsAsm(SB), NOSPLIT, $0-8
	MOVQ st+0(FP), R12
	MOVQ seqState_out(R12), DI
	MOVQ seqState_acc(R12), AX
	MOVQ seqState_n(R12), BX
	MOVQ seqState_sOF(R12), R9
	MOVQ seqState_sML(R12), R10
	MOVQ seqState_sLL(R12), R11
	// i = len(seqs)-1: SI and R8 at seqs[i] and codes[i].
	MOVQ seqState_count(R12), CX
	DECQ CX
	LEAQ (CX)(CX*2), CX
	MOVQ seqState_codes(R12), R8
	ADDQ CX, R8
	MOVQ seqState_seqs(R12), SI
	LEAQ (SI)(CX*4), SI

loop:
	// The states: offset, match length, literal length.
	MOVBQZX 2(R8), R13
	MOVQ    seqState_ofTT(R12), R14
	ENCODE(R9, R13, R14, seqState_ofSt(R12))
	MOVBQZX 1(R8), R13
	MOVQ    seqState_mlTT(R12), R14
	ENCODE(R10, R13, R14, seqState_mlSt(R12))
	MOVBQZX 0(R8), R13
	MOVQ    seqState_llTT(R12), R14
	ENCODE(R11, R13, R14, seqState_llSt(R12))

	// llBits (R13), mlBits (R14), ofBits (R15); their sum in DX.
	ANDQ    $63, R13
	MOVQ    seqState_llBits(R12), CX
	MOVBQZX (CX)(R13*1), R13
	MOVBQZX 1(R8), R14
	ANDQ    $63, R14
	MOVQ    seqState_mlBits(R12), CX
	MOVBQZX (CX)(R14*1), R14
	MOVBQZX 2(R8), R15
	LEAQ    (R13)(R14*1), DX
	ADDQ    R15, DX
	CMPQ    DX, $30
	JLS     room
	FLUSH

room:
	MOVL 0(SI), CX
	ADD_BITS(CX, R13)
	MOVL 4(SI), CX
	ADD_BITS(CX, R14)
	CMPQ DX, $56
	JLS  offset
	FLUSH

offset:
	MOVL 8(SI), CX
	ADD_BITS(CX, R15)
	FLUSH

	// i--: on while i >= 0.
	SUBQ $3, R8
	SUBQ $12, SI
	CMPQ SI, seqState_seqs(R12)
	JCC  loop

	MOVQ DI, seqState_out(R12)
	MOVQ AX, seqState_acc(R12)
	MOVQ BX, seqState_n(R12)
	MOVQ R9, seqState_sOF(R12)
	MOVQ R10, seqState_sML(R12)
	MOVQ R11, seqState_sLL(R12)
	RET
