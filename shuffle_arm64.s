//go:build gc && !purego && !noasm

#include "textflag.h"

// SHUFFLE and BITSHUFFLE kernels for arm64 NEON (declarations and contracts
// in shuffle_arm64.go). Every kernel handles a whole number of vector
// iterations; the Go drivers do the tails.
//
// Typesizes 2, 4 and 8 use the structure loads and stores, which
// (de)interleave 2 or 4 byte streams: ld4 of 16 four-byte elements gives
// byte j of each in register j. Typesize 8 adds one uzp/zip step to split
// (join) bytes j and j+4.
//
// The 16-byte tiles and the bit transposes use zip and uzp rounds, always
// from one bank of registers into the other (V0..V15 <-> V16..V31), so no
// register renaming is needed. Seen as a permutation of the bit addresses
// (register index : byte position), zip1/zip2 over the register pairs that
// differ in index bit s moves s into position bit 0, shifts the position
// bits up and moves the old top position bit into index bit s; uzp1/uzp2
// do the inverse rotation.
//
// Registers: R0 destination, R1 source, R2/R3 strides, R4..R10 row
// pointers (rows 1..7), R11 iteration count.

// lo, hi = zip1(a, b), zip2(a, b) (interleave the low / high halves).
#define ZIPP(a, b, lo, hi) VZIP1 b.B16, a.B16, lo.B16; VZIP2 b.B16, a.B16, hi.B16
// lo, hi = uzp1(a, b), uzp2(a, b) (even / odd bytes of a:b).
#define UZPP(a, b, lo, hi) VUZP1 b.B16, a.B16, lo.B16; VUZP2 b.B16, a.B16, hi.B16

// Bit transpose of the 8x8 bit matrix in each 64-bit lane of x (byte r =
// row r, bit c = column c): three delta swaps with masks m1 m2 m3 and
// scratch t.
#define BITT(x, t, m1, m2, m3) \
	VUSHR $7, x.D2, t.D2; VEOR x.B16, t.B16, t.B16; VAND m1.B16, t.B16, t.B16; \
	VEOR t.B16, x.B16, x.B16; VSHL $7, t.D2, t.D2; VEOR t.B16, x.B16, x.B16; \
	VUSHR $14, x.D2, t.D2; VEOR x.B16, t.B16, t.B16; VAND m2.B16, t.B16, t.B16; \
	VEOR t.B16, x.B16, x.B16; VSHL $14, t.D2, t.D2; VEOR t.B16, x.B16, x.B16; \
	VUSHR $28, x.D2, t.D2; VEOR x.B16, t.B16, t.B16; VAND m3.B16, t.B16, t.B16; \
	VEOR t.B16, x.B16, x.B16; VSHL $28, t.D2, t.D2; VEOR t.B16, x.B16, x.B16

#define BITMASKS \
	MOVD $0x00aa00aa00aa00aa, R12; VDUP R12, V28.D2; \
	MOVD $0x0000cccc0000cccc, R12; VDUP R12, V29.D2; \
	MOVD $0x00000000f0f0f0f0, R12; VDUP R12, V30.D2

// Row pointers R4..R10 = P + 1..7 strides (stride in S).
#define ROWS(P, S) \
	ADD P, S, R4; ADD R4, S, R5; ADD R5, S, R6; ADD R6, S, R7; \
	ADD R7, S, R8; ADD R8, S, R9; ADD R9, S, R10

// 16x16 byte transpose of V0..V15 (register i, byte j) into V0..V15
// (register j, byte i): rounds on index bits 3, 2, 1, 0 move i3, i2, i1,
// i0 into the position and j3, j2, j1, j0 into the index, in order.
#define TRANSPOSE16 \
	ZIPP(V0, V8, V16, V24); ZIPP(V1, V9, V17, V25); ZIPP(V2, V10, V18, V26); ZIPP(V3, V11, V19, V27); \
	ZIPP(V4, V12, V20, V28); ZIPP(V5, V13, V21, V29); ZIPP(V6, V14, V22, V30); ZIPP(V7, V15, V23, V31); \
	ZIPP(V16, V20, V0, V4); ZIPP(V17, V21, V1, V5); ZIPP(V18, V22, V2, V6); ZIPP(V19, V23, V3, V7); \
	ZIPP(V24, V28, V8, V12); ZIPP(V25, V29, V9, V13); ZIPP(V26, V30, V10, V14); ZIPP(V27, V31, V11, V15); \
	ZIPP(V0, V2, V16, V18); ZIPP(V1, V3, V17, V19); ZIPP(V4, V6, V20, V22); ZIPP(V5, V7, V21, V23); \
	ZIPP(V8, V10, V24, V26); ZIPP(V9, V11, V25, V27); ZIPP(V12, V14, V28, V30); ZIPP(V13, V15, V29, V31); \
	ZIPP(V16, V17, V0, V1); ZIPP(V18, V19, V2, V3); ZIPP(V20, V21, V4, V5); ZIPP(V22, V23, V6, V7); \
	ZIPP(V24, V25, V8, V9); ZIPP(V26, V27, V10, V11); ZIPP(V28, V29, V12, V13); ZIPP(V30, V31, V14, V15)

// 16 elements per iteration.
//
// func shuffle2NEON(dst, src []byte, stride, n int)
TEXT ·shuffle2NEON(SB), NOSPLIT, $0-64
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD stride+48(FP), R2
	MOVD n+56(FP), R11
	LSR  $4, R11, R11
	CBZ  R11, done
	ADD  R0, R2, R4

loop:
	VLD2.P 32(R1), [V0.B16, V1.B16]
	VST1.P [V0.B16], 16(R0)
	VST1.P [V1.B16], 16(R4)
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET

// func shuffle4NEON(dst, src []byte, stride, n int)
TEXT ·shuffle4NEON(SB), NOSPLIT, $0-64
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD stride+48(FP), R2
	MOVD n+56(FP), R11
	LSR  $4, R11, R11
	CBZ  R11, done
	ROWS(R0, R2)

loop:
	VLD4.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VST1.P [V0.B16], 16(R0)
	VST1.P [V1.B16], 16(R4)
	VST1.P [V2.B16], 16(R5)
	VST1.P [V3.B16], 16(R6)
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET

// ld4 of 8 eight-byte elements leaves bytes j and j+4 alternating in
// register j; uzp1/uzp2 with the next 8 elements' register j separate them.
//
// func shuffle8NEON(dst, src []byte, stride, n int)
TEXT ·shuffle8NEON(SB), NOSPLIT, $0-64
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD stride+48(FP), R2
	MOVD n+56(FP), R11
	LSR  $4, R11, R11
	CBZ  R11, done
	ROWS(R0, R2)

loop:
	VLD4.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD4.P 64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]
	UZPP(V0, V4, V16, V20)
	UZPP(V1, V5, V17, V21)
	UZPP(V2, V6, V18, V22)
	UZPP(V3, V7, V19, V23)
	VST1.P [V16.B16], 16(R0)
	VST1.P [V17.B16], 16(R4)
	VST1.P [V18.B16], 16(R5)
	VST1.P [V19.B16], 16(R6)
	VST1.P [V20.B16], 16(R7)
	VST1.P [V21.B16], 16(R8)
	VST1.P [V22.B16], 16(R9)
	VST1.P [V23.B16], 16(R10)
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET

// 16-byte tiles, 16 elements per iteration: element i (16 bytes at
// src + i*srcStride) into V_i, transpose, row j (V_j) to dst + j*dstStride.
//
// func shuffle16NEON(dst, src []byte, srcStride, dstStride, n int)
TEXT ·shuffle16NEON(SB), NOSPLIT, $0-72
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD srcStride+48(FP), R2
	MOVD dstStride+56(FP), R3
	MOVD n+64(FP), R11
	LSR  $4, R11, R11
	CBZ  R11, done

loop:
	VLD1.P (R1)(R2), [V0.B16]
	VLD1.P (R1)(R2), [V1.B16]
	VLD1.P (R1)(R2), [V2.B16]
	VLD1.P (R1)(R2), [V3.B16]
	VLD1.P (R1)(R2), [V4.B16]
	VLD1.P (R1)(R2), [V5.B16]
	VLD1.P (R1)(R2), [V6.B16]
	VLD1.P (R1)(R2), [V7.B16]
	VLD1.P (R1)(R2), [V8.B16]
	VLD1.P (R1)(R2), [V9.B16]
	VLD1.P (R1)(R2), [V10.B16]
	VLD1.P (R1)(R2), [V11.B16]
	VLD1.P (R1)(R2), [V12.B16]
	VLD1.P (R1)(R2), [V13.B16]
	VLD1.P (R1)(R2), [V14.B16]
	VLD1.P (R1)(R2), [V15.B16]
	TRANSPOSE16
	MOVD   R0, R5
	VST1.P [V0.B16], (R5)(R3)
	VST1.P [V1.B16], (R5)(R3)
	VST1.P [V2.B16], (R5)(R3)
	VST1.P [V3.B16], (R5)(R3)
	VST1.P [V4.B16], (R5)(R3)
	VST1.P [V5.B16], (R5)(R3)
	VST1.P [V6.B16], (R5)(R3)
	VST1.P [V7.B16], (R5)(R3)
	VST1.P [V8.B16], (R5)(R3)
	VST1.P [V9.B16], (R5)(R3)
	VST1.P [V10.B16], (R5)(R3)
	VST1.P [V11.B16], (R5)(R3)
	VST1.P [V12.B16], (R5)(R3)
	VST1.P [V13.B16], (R5)(R3)
	VST1.P [V14.B16], (R5)(R3)
	VST1.P [V15.B16], (R5)(R3)
	ADD    $16, R0
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET

// func unshuffle2NEON(dst, src []byte, stride, n int)
TEXT ·unshuffle2NEON(SB), NOSPLIT, $0-64
	MOVD src_base+24(FP), R1
	MOVD dst_base+0(FP), R0
	MOVD stride+48(FP), R2
	MOVD n+56(FP), R11
	LSR  $4, R11, R11
	CBZ  R11, done
	ADD  R1, R2, R4

loop:
	VLD1.P 16(R1), [V0.B16]
	VLD1.P 16(R4), [V1.B16]
	VST2.P [V0.B16, V1.B16], 32(R0)
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET

// func unshuffle4NEON(dst, src []byte, stride, n int)
TEXT ·unshuffle4NEON(SB), NOSPLIT, $0-64
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD stride+48(FP), R2
	MOVD n+56(FP), R11
	LSR  $4, R11, R11
	CBZ  R11, done
	ROWS(R1, R2)

loop:
	VLD1.P 16(R1), [V0.B16]
	VLD1.P 16(R4), [V1.B16]
	VLD1.P 16(R5), [V2.B16]
	VLD1.P 16(R6), [V3.B16]
	VST4.P [V0.B16, V1.B16, V2.B16, V3.B16], 64(R0)
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET

// zip1/zip2 of rows j and j+4 give st4's register j for elements 0..7 and
// 8..15.
//
// func unshuffle8NEON(dst, src []byte, stride, n int)
TEXT ·unshuffle8NEON(SB), NOSPLIT, $0-64
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD stride+48(FP), R2
	MOVD n+56(FP), R11
	LSR  $4, R11, R11
	CBZ  R11, done
	ROWS(R1, R2)

loop:
	VLD1.P 16(R1), [V0.B16]
	VLD1.P 16(R4), [V1.B16]
	VLD1.P 16(R5), [V2.B16]
	VLD1.P 16(R6), [V3.B16]
	VLD1.P 16(R7), [V4.B16]
	VLD1.P 16(R8), [V5.B16]
	VLD1.P 16(R9), [V6.B16]
	VLD1.P 16(R10), [V7.B16]
	ZIPP(V0, V4, V16, V20)
	ZIPP(V1, V5, V17, V21)
	ZIPP(V2, V6, V18, V22)
	ZIPP(V3, V7, V19, V23)
	VST4.P [V16.B16, V17.B16, V18.B16, V19.B16], 64(R0)
	VST4.P [V20.B16, V21.B16, V22.B16, V23.B16], 64(R0)
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET

// Inverse of shuffle16NEON (the transpose is its own inverse).
//
// func unshuffle16NEON(dst, src []byte, dstStride, srcStride, n int)
TEXT ·unshuffle16NEON(SB), NOSPLIT, $0-72
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD dstStride+48(FP), R2
	MOVD srcStride+56(FP), R3
	MOVD n+64(FP), R11
	LSR  $4, R11, R11
	CBZ  R11, done

loop:
	MOVD   R1, R5
	VLD1.P (R5)(R3), [V0.B16]
	VLD1.P (R5)(R3), [V1.B16]
	VLD1.P (R5)(R3), [V2.B16]
	VLD1.P (R5)(R3), [V3.B16]
	VLD1.P (R5)(R3), [V4.B16]
	VLD1.P (R5)(R3), [V5.B16]
	VLD1.P (R5)(R3), [V6.B16]
	VLD1.P (R5)(R3), [V7.B16]
	VLD1.P (R5)(R3), [V8.B16]
	VLD1.P (R5)(R3), [V9.B16]
	VLD1.P (R5)(R3), [V10.B16]
	VLD1.P (R5)(R3), [V11.B16]
	VLD1.P (R5)(R3), [V12.B16]
	VLD1.P (R5)(R3), [V13.B16]
	VLD1.P (R5)(R3), [V14.B16]
	VLD1.P (R5)(R3), [V15.B16]
	TRANSPOSE16
	VST1.P [V0.B16], (R0)(R2)
	VST1.P [V1.B16], (R0)(R2)
	VST1.P [V2.B16], (R0)(R2)
	VST1.P [V3.B16], (R0)(R2)
	VST1.P [V4.B16], (R0)(R2)
	VST1.P [V5.B16], (R0)(R2)
	VST1.P [V6.B16], (R0)(R2)
	VST1.P [V7.B16], (R0)(R2)
	VST1.P [V8.B16], (R0)(R2)
	VST1.P [V9.B16], (R0)(R2)
	VST1.P [V10.B16], (R0)(R2)
	VST1.P [V11.B16], (R0)(R2)
	VST1.P [V12.B16], (R0)(R2)
	VST1.P [V13.B16], (R0)(R2)
	VST1.P [V14.B16], (R0)(R2)
	VST1.P [V15.B16], (R0)(R2)
	ADD    $16, R1
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET

// Bit transpose of one byte row, 128 bytes per iteration. Each 64-bit lane
// g (8 input bytes) is bit-transposed, so that its byte b is byte g of bit
// row b: register (g3 g2 g1), position (g0 b2 b1 b0). uzp rounds on index
// bits 0, 1, 2 give position (g3 g2 g1 g0) and register b, in V16..V23.
//
// func bitTransNEON(dst, src []byte, stride, n int)
TEXT ·bitTransNEON(SB), NOSPLIT, $0-64
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD stride+48(FP), R2
	MOVD n+56(FP), R11
	LSR  $7, R11, R11
	CBZ  R11, done
	ROWS(R0, R2)
	BITMASKS

loop:
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P 64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]
	BITT(V0, V31, V28, V29, V30)
	BITT(V1, V31, V28, V29, V30)
	BITT(V2, V31, V28, V29, V30)
	BITT(V3, V31, V28, V29, V30)
	BITT(V4, V31, V28, V29, V30)
	BITT(V5, V31, V28, V29, V30)
	BITT(V6, V31, V28, V29, V30)
	BITT(V7, V31, V28, V29, V30)
	UZPP(V0, V1, V16, V17)
	UZPP(V2, V3, V18, V19)
	UZPP(V4, V5, V20, V21)
	UZPP(V6, V7, V22, V23)
	UZPP(V16, V18, V0, V2)
	UZPP(V17, V19, V1, V3)
	UZPP(V20, V22, V4, V6)
	UZPP(V21, V23, V5, V7)
	UZPP(V0, V4, V16, V20)
	UZPP(V1, V5, V17, V21)
	UZPP(V2, V6, V18, V22)
	UZPP(V3, V7, V19, V23)
	VST1.P [V16.B16], 16(R0)
	VST1.P [V17.B16], 16(R4)
	VST1.P [V18.B16], 16(R5)
	VST1.P [V19.B16], 16(R6)
	VST1.P [V20.B16], 16(R7)
	VST1.P [V21.B16], 16(R8)
	VST1.P [V22.B16], 16(R9)
	VST1.P [V23.B16], 16(R10)
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET

// Inverse bit transpose, 128 output bytes per iteration: the zip rounds
// undo bitTransNEON's uzp rounds (bits 2, 1, 0), then each 64-bit lane is
// bit-transposed back.
//
// func bitUntransNEON(dst, src []byte, stride, n int)
TEXT ·bitUntransNEON(SB), NOSPLIT, $0-64
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD stride+48(FP), R2
	MOVD n+56(FP), R11
	LSR  $7, R11, R11
	CBZ  R11, done
	ROWS(R1, R2)
	BITMASKS

loop:
	VLD1.P 16(R1), [V0.B16]
	VLD1.P 16(R4), [V1.B16]
	VLD1.P 16(R5), [V2.B16]
	VLD1.P 16(R6), [V3.B16]
	VLD1.P 16(R7), [V4.B16]
	VLD1.P 16(R8), [V5.B16]
	VLD1.P 16(R9), [V6.B16]
	VLD1.P 16(R10), [V7.B16]
	ZIPP(V0, V4, V16, V20)
	ZIPP(V1, V5, V17, V21)
	ZIPP(V2, V6, V18, V22)
	ZIPP(V3, V7, V19, V23)
	ZIPP(V16, V18, V0, V2)
	ZIPP(V17, V19, V1, V3)
	ZIPP(V20, V22, V4, V6)
	ZIPP(V21, V23, V5, V7)
	ZIPP(V0, V1, V16, V17)
	ZIPP(V2, V3, V18, V19)
	ZIPP(V4, V5, V20, V21)
	ZIPP(V6, V7, V22, V23)
	BITT(V16, V31, V28, V29, V30)
	BITT(V17, V31, V28, V29, V30)
	BITT(V18, V31, V28, V29, V30)
	BITT(V19, V31, V28, V29, V30)
	BITT(V20, V31, V28, V29, V30)
	BITT(V21, V31, V28, V29, V30)
	BITT(V22, V31, V28, V29, V30)
	BITT(V23, V31, V28, V29, V30)
	VST1.P [V16.B16, V17.B16, V18.B16, V19.B16], 64(R0)
	VST1.P [V20.B16, V21.B16, V22.B16, V23.B16], 64(R0)
	SUBS   $1, R11, R11
	BNE    loop

done:
	RET
