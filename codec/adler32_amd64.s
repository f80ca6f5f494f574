//go:build gc && !purego && !noasm

#include "textflag.h"

// The weight of each byte of a 32-byte step in s2: the first byte is
// added to s1 before all 32 additions of s1 to s2, the last before one.
DATA adlerWeights<>+0x00(SB)/8, $0x191a1b1c1d1e1f20
DATA adlerWeights<>+0x08(SB)/8, $0x1112131415161718
DATA adlerWeights<>+0x10(SB)/8, $0x090a0b0c0d0e0f10
DATA adlerWeights<>+0x18(SB)/8, $0x0102030405060708
GLOBL adlerWeights<>(SB), RODATA|NOPTR, $32

// HSUM adds the eight dwords of y (whose low half is x) into r.
#define HSUM(y, x, r) \
	VEXTRACTI128 $1, y, X6 \
	VPADDD       X6, x, x  \
	VPSHUFD      $0x4e, x, X6 \
	VPADDD       X6, x, x  \
	VPSHUFD      $0xb1, x, X6 \
	VPADDD       X6, x, x  \
	VMOVD        x, r

// func adler32AVX2(adler uint32, p []byte) uint32
//
// Per block of at most 5536 bytes (a multiple of 32 under zlib's NMAX),
// from sums s1, s2: s2 += len·s1, then per 32-byte step, in dword lanes,
// Y2 += Y0 (s1's growth before the step, times 32 at the end), Y0 += the
// bytes (VPSADBW), Y1 += the bytes times their weights (VPMADDUBSW then
// VPMADDWD by 1); the lanes are added into s1 and s2 in 64-bit registers
// and both reduced modulo 65521. No lane can overflow: Y0's total stays
// under 5536·255, Y2's under 173 times that, Y1's under 5536·255·32.
TEXT ·adler32AVX2(SB), NOSPLIT, $0-36
	MOVL adler+0(FP), R11
	MOVL R11, R12
	SHRL $16, R12             // s2
	ANDL $0xffff, R11         // s1
	MOVQ p_base+8(FP), SI
	MOVQ p_len+16(FP), CX
	VMOVDQU  adlerWeights<>(SB), Y15
	VPCMPEQB Y14, Y14, Y14
	VPSRLW   $15, Y14, Y14    // 1 in every word
	VPXOR    Y13, Y13, Y13
	MOVQ     $65521, R9

block:
	TESTQ   CX, CX
	JZ      done
	MOVQ    $5536, R8
	CMPQ    CX, R8
	CMOVQLT CX, R8            // this block's length
	SUBQ    R8, CX
	MOVQ    R11, R10
	IMULQ   R8, R10
	ADDQ    R10, R12          // s2 += len·s1
	VPXOR   Y0, Y0, Y0
	VPXOR   Y1, Y1, Y1
	VPXOR   Y2, Y2, Y2

step:
	VMOVDQU    (SI), Y3
	VPADDD     Y0, Y2, Y2
	VPSADBW    Y13, Y3, Y4
	VPADDD     Y4, Y0, Y0
	VPMADDUBSW Y15, Y3, Y5
	VPMADDWD   Y14, Y5, Y5
	VPADDD     Y5, Y1, Y1
	ADDQ       $32, SI
	SUBQ       $32, R8
	JNZ        step

	HSUM(Y0, X0, R10)
	ADDQ R10, R11             // s1 += the bytes
	HSUM(Y2, X2, R10)
	SHLQ $5, R10
	ADDQ R10, R12
	HSUM(Y1, X1, R10)
	ADDQ R10, R12             // s2 += 32·Σ s1 growth + Σ weighted bytes

	MOVQ R11, AX
	XORL DX, DX
	DIVQ R9
	MOVQ DX, R11
	MOVQ R12, AX
	XORL DX, DX
	DIVQ R9
	MOVQ DX, R12
	JMP  block

done:
	VZEROUPPER
	SHLL $16, R12
	ORL  R12, R11
	MOVL R11, ret+32(FP)
	RET
