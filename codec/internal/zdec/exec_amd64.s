//go:build gc && !purego && !noasm

#include "go_asm.h"
#include "textflag.h"

// func executeFast(c *execContext) int
//
// The contract is exec_amd64.go's. Registers:
//   SI  the next sequence          R9  the end of the sequences
//   DX  the output position        R8  the last output end allowed (dst+dstLen-16)
//   R10 the literals' position     R11 the last literals end allowed (lits+litsLen-16)
//   R12 the frame's first byte     R13 the window
//   AX, BX, CX: the sequence's literal length, match length, offset
//   R14: the match's position; DI: scratch, then the match's source
TEXT ·executeFast(SB), NOSPLIT, $0-16
	MOVQ c+0(FP), AX
	MOVQ execContext_seqs(AX), SI
	MOVQ execContext_nseqs(AX), R9
	LEAQ (R9)(R9*2), R9
	LEAQ (SI)(R9*4), R9
	MOVQ execContext_dst(AX), DI
	MOVQ execContext_dstLen(AX), R8
	LEAQ -16(DI)(R8*1), R8
	MOVQ execContext_out(AX), DX
	ADDQ DI, DX
	MOVQ execContext_start(AX), R12
	ADDQ DI, R12
	MOVQ execContext_lits(AX), R10
	MOVQ execContext_litsLen(AX), R11
	LEAQ -16(R10)(R11*1), R11
	MOVQ execContext_litPos(AX), BX
	ADDQ BX, R10
	MOVQ execContext_window(AX), R13
	CMPQ SI, R9
	JAE  done

loop:
	MOVL 0(SI), AX // literal length
	MOVL 4(SI), BX // match length
	MOVL 8(SI), CX // offset

	// The checks: the literals and the output in bounds with their
	// slack, the offset in 1..window and within the frame's output.
	LEAQ (R10)(AX*1), DI
	CMPQ DI, R11
	JHI  done
	LEAQ (DX)(AX*1), R14
	LEAQ (R14)(BX*1), DI
	CMPQ DI, R8
	JHI  done
	TESTQ CX, CX
	JZ   done
	CMPQ CX, R13
	JHI  done
	MOVQ R14, DI
	SUBQ R12, DI
	CMPQ CX, DI
	JHI  done

	// The literals, 16 bytes at a time, the first word whatever their
	// length: what lands past them the match overwrites.
	MOVOU (R10), X0
	MOVOU X0, (DX)
	CMPQ AX, $16
	JLS  literalsDone
	MOVQ $16, DI

literals:
	MOVOU (R10)(DI*1), X0
	MOVOU X0, (DX)(DI*1)
	ADDQ $16, DI
	CMPQ DI, AX
	JCS  literals

literalsDone:
	ADDQ AX, R10
	MOVQ R14, DI
	SUBQ CX, DI          // the match's source
	LEAQ (R14)(BX*1), DX // the output after the match
	CMPQ CX, $16
	JCS  shortOffset

	// An offset of 16 or more: each word read is already written.
	MOVOU (DI), X0
	MOVOU X0, (R14)
	CMPQ BX, $16
	JLS  next
	ADDQ $16, DI
	ADDQ $16, R14

words16:
	MOVOU (DI), X0
	MOVOU X0, (R14)
	ADDQ $16, DI
	ADDQ $16, R14
	CMPQ R14, DX
	JCS  words16
	JMP  next

shortOffset:
	CMPQ CX, $8
	JCS  spread

words8:
	MOVQ (DI), AX
	MOVQ AX, (R14)
	ADDQ $8, DI
	ADDQ $8, R14
	CMPQ R14, DX
	JCS  words8
	JMP  next

spread:
	// An offset under 8: the first 8 bytes one at a time, then words
	// from the smallest multiple of the offset that is 8 or more back.
	MOVB 0(DI), AX
	MOVB AX, 0(R14)
	MOVB 1(DI), AX
	MOVB AX, 1(R14)
	MOVB 2(DI), AX
	MOVB AX, 2(R14)
	MOVB 3(DI), AX
	MOVB AX, 3(R14)
	MOVB 4(DI), AX
	MOVB AX, 4(R14)
	MOVB 5(DI), AX
	MOVB AX, 5(R14)
	MOVB 6(DI), AX
	MOVB AX, 6(R14)
	MOVB 7(DI), AX
	MOVB AX, 7(R14)
	ADDQ $8, R14
	CMPQ R14, DX
	JCC  next
	LEAQ ·spreadDistance(SB), AX
	MOVQ (AX)(CX*8), AX
	MOVQ R14, DI
	SUBQ AX, DI
	JMP  words8

next:
	ADDQ $12, SI
	CMPQ SI, R9
	JCS  loop

done:
	MOVQ c+0(FP), AX
	MOVQ execContext_dst(AX), DI
	SUBQ DI, DX
	MOVQ DX, execContext_out(AX)
	MOVQ execContext_lits(AX), DI
	SUBQ DI, R10
	MOVQ R10, execContext_litPos(AX)
	MOVQ execContext_seqs(AX), DI
	SUBQ DI, SI
	MOVQ SI, AX
	MOVQ $12, CX
	XORQ DX, DX
	DIVQ CX
	MOVQ AX, ret+8(FP)
	RET
