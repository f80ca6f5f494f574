//go:build gc && !purego && !noasm

#include "textflag.h"

// equalPrefixAVX2(a, b *byte, n int) int: how many of the n bytes at a
// and at b are equal before the first that differs. 32 bytes a step
// (VPCMPEQB, VPMOVMSKB), then 8, then 1.
// Registers: SI a, DI b, CX n, AX the count, DX scratch.
TEXT ·equalPrefixAVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	XORQ AX, AX

loop32:
	LEAQ      32(AX), DX
	CMPQ      DX, CX
	JA        tail8
	VMOVDQU   (SI)(AX*1), Y0
	VPCMPEQB  (DI)(AX*1), Y0, Y0
	VPMOVMSKB Y0, DX
	XORL      $0xffffffff, DX
	JNZ       diff32
	ADDQ      $32, AX
	JMP       loop32

diff32:
	VZEROUPPER
	BSFL DX, DX
	ADDQ DX, AX
	MOVQ AX, ret+24(FP)
	RET

tail8:
	VZEROUPPER

loop8:
	LEAQ 8(AX), DX
	CMPQ DX, CX
	JA   loop1
	MOVQ (SI)(AX*1), DX
	XORQ (DI)(AX*1), DX
	JNZ  diff8
	ADDQ $8, AX
	JMP  loop8

diff8:
	BSFQ DX, DX
	SHRQ $3, DX
	ADDQ DX, AX
	MOVQ AX, ret+24(FP)
	RET

loop1:
	CMPQ    AX, CX
	JAE     done
	MOVBLZX (SI)(AX*1), DX
	CMPB    DL, (DI)(AX*1)
	JNE     done
	INCQ    AX
	JMP     loop1

done:
	MOVQ AX, ret+24(FP)
	RET

// prefetch(p unsafe.Pointer): PREFETCHT0 of p's cache line, which, unlike a
// load, does not hold the instructions after it until the line comes.
TEXT ·prefetch(SB), NOSPLIT, $0-8
	MOVQ       p+0(FP), AX
	PREFETCHT0 (AX)
	RET
