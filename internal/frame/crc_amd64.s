//go:build gc && !purego && !noasm

#include "textflag.h"

// Fold constants for CRC-32C (bit-reflected, polynomial 0x82F63B78), each
// pair {x^(D+31) mod P, x^(D-33) mod P} bit-reflected, for a fold over D
// bits: the low quadword of a 128-bit lane is multiplied by the first,
// the high by the second (crc_amd64.go derives and checks them).
DATA fold1024<>+0(SB)/8, $0x6992cea2 // D = 1024: a lane moves 128 bytes
DATA fold1024<>+8(SB)/8, $0x0d3b6092
GLOBL fold1024<>(SB), RODATA|NOPTR, $16
DATA fold128<>+0(SB)/8, $0xf20c0dfe  // D = 128: to the next lane
DATA fold128<>+8(SB)/8, $0x493c7d27
GLOBL fold128<>(SB), RODATA|NOPTR, $16

// FOLD16 folds the 128-bit lane acc over the next 16 bytes and adds next:
// acc = acc.lo×k.lo ⊕ acc.hi×k.hi ⊕ next (carry-less), with X15 = k.
#define FOLD16(acc, next) \
	VPCLMULQDQ $0x00, X15, acc, X14 \
	VPCLMULQDQ $0x11, X15, acc, acc \
	VPXOR      X14, acc, acc        \
	VPXOR      next, acc, acc

// func updateFusedAVX2(crc uint32, p []byte, k int) (v, r1, r2, r3 uint32)
// p holds 248·k bytes, k ≥ 1: the first 128·k are folded, 128 bytes a
// round in four 256-bit registers (v is their CRC from crc), and, interleaved with them on
// the scalar CRC32 unit, three streams of 40·k bytes each get their CRC
// from 0 without inversion (r1, r2, r3): the two units work at once.
TEXT ·updateFusedAVX2(SB), NOSPLIT, $0-56
	MOVL crc+0(FP), AX
	MOVQ p_base+8(FP), SI
	MOVQ k+32(FP), CX

	// The scalar streams start after the vector region.
	MOVQ CX, R11
	SHLQ $7, R11
	ADDQ SI, R11              // stream 1 at 128·k
	MOVQ CX, DX
	IMULQ $40, DX
	LEAQ (R11)(DX*1), R12     // stream 2
	LEAQ (R12)(DX*1), R13     // stream 3
	XORL R8, R8
	XORL R9, R9
	XORL R10, R10

	NOTL    AX
	VMOVD   AX, X5
	VMOVDQU 0(SI), Y1
	VMOVDQU 32(SI), Y2
	VMOVDQU 64(SI), Y3
	VMOVDQU 96(SI), Y4
	VPXOR   Y5, Y1, Y1
	ADDQ    $128, SI
	VBROADCASTI128 fold1024<>(SB), Y0

fused:
	CRC32Q 0(R11), R8
	CRC32Q 0(R12), R9
	CRC32Q 0(R13), R10
	CRC32Q 8(R11), R8
	CRC32Q 8(R12), R9
	CRC32Q 8(R13), R10
	CRC32Q 16(R11), R8
	CRC32Q 16(R12), R9
	CRC32Q 16(R13), R10
	CRC32Q 24(R11), R8
	CRC32Q 24(R12), R9
	CRC32Q 24(R13), R10
	CRC32Q 32(R11), R8
	CRC32Q 32(R12), R9
	CRC32Q 32(R13), R10
	ADDQ   $40, R11
	ADDQ   $40, R12
	ADDQ   $40, R13
	DECQ   CX
	JZ     fusedReduce
	VPCLMULQDQ $0x00, Y0, Y1, Y5
	VPCLMULQDQ $0x11, Y0, Y1, Y1
	VPCLMULQDQ $0x00, Y0, Y2, Y6
	VPCLMULQDQ $0x11, Y0, Y2, Y2
	VPCLMULQDQ $0x00, Y0, Y3, Y7
	VPCLMULQDQ $0x11, Y0, Y3, Y3
	VPCLMULQDQ $0x00, Y0, Y4, Y8
	VPCLMULQDQ $0x11, Y0, Y4, Y4
	VPXOR      Y5, Y1, Y1
	VPXOR      Y6, Y2, Y2
	VPXOR      Y7, Y3, Y3
	VPXOR      Y8, Y4, Y4
	VPXOR      0(SI), Y1, Y1
	VPXOR      32(SI), Y2, Y2
	VPXOR      64(SI), Y3, Y3
	VPXOR      96(SI), Y4, Y4
	ADDQ       $128, SI
	JMP        fused

fusedReduce:
	VMOVDQU       fold128<>(SB), X15
	VEXTRACTI128  $1, Y1, X9
	VEXTRACTI128  $1, Y2, X10
	VEXTRACTI128  $1, Y3, X11
	VEXTRACTI128  $1, Y4, X12
	FOLD16(X1, X9)
	FOLD16(X1, X2)
	FOLD16(X1, X10)
	FOLD16(X1, X3)
	FOLD16(X1, X11)
	FOLD16(X1, X4)
	FOLD16(X1, X12)
	VZEROUPPER
	MOVQ    X1, DX
	VPEXTRQ $1, X1, BX
	XORL    AX, AX
	CRC32Q  DX, AX
	CRC32Q  BX, AX
	NOTL    AX
	MOVL    AX, v+40(FP)
	MOVL    R8, r1+44(FP)
	MOVL    R9, r2+48(FP)
	MOVL    R10, r3+52(FP)
	RET
