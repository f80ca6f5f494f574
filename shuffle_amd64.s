//go:build gc && !purego && !noasm

#include "textflag.h"

// SHUFFLE and BITSHUFFLE kernels for amd64, SSE2 and AVX2 (declarations and
// contracts in shuffle_amd64.go). Every kernel handles a whole number of
// vector iterations; the Go drivers do the tails. Loads and stores are
// unaligned.
//
// All byte transposes are built from one step, ZIP(p, q, t): the bytes of
// registers p and q interleaved (punpcklbw/punpckhbw), low halves into p,
// high halves into t, after which q is free. Seen as a permutation of the
// bit addresses (register index : byte position), one ZIP over the pairs
// of registers that differ in index bit s moves s into position bit 0,
// shifts the position bits up and moves the old top position bit into index
// bit s. A transpose is a sequence of such rotations; the sequences used
// here (ROUNDS2, ROUNDS4AB, ROUNDS8, ROUND8D) and where each row ends up
// are derived in the comments. AVX2 runs the same sequences on YMM registers, in which
// punpck works per 128-bit lane: the kernels load (or store) the two lanes
// from addresses that make the lane bit the highest element-index bit, so
// each lane is an independent copy of the SSE2 computation.
//
// The shuffle kernels take 64 elements per iteration, so that each row
// receives one whole 64-byte line (software-prefetched, see PREFETCH8).
//
// Register map (all kernels; frame layout from the Go declarations,
// dst+0 src+24 then the int arguments from +48):
//   SI      source pointer         DI      destination pointer
//   AX      iterations left        R8      row stride (byte rows side)
//   R9      3*R8                   R10     5*R8 (bit kernels: row 4 base)
//   R11     7*R8                   R12     scratch row pointer
//   BX      element stride (tiles) or pmovmskb result
//   CX, DX, R13  3, 5, 7 times BX (tiles)
//   X0-X9 / Y0-Y9  data; X9-X11 / Y9-Y11  masks in the bit kernels
// Rows 0..7 of P are (P), (P)(R8*1), (P)(R8*2), (P)(R9*1), (P)(R8*4),
// (P)(R10*1), (P)(R9*2), (P)(R11*1).

// SSE2 step.
#define SZIP(p, q, t) MOVO p, t; PUNPCKLBW q, p; PUNPCKHBW q, t
// AVX2 step (per 128-bit lane): same register effect as SZIP.
#define VZIP(p, q, t) VPUNPCKHBW q, p, t; VPUNPCKLBW q, p, p

// The register sequences below use ZIP, defined to SZIP or VZIP before use.

// ROUNDS2: four rounds on two registers r0 r1 (free r2); result in r0 r1.
#define ROUNDS2(r0, r1, r2) ZIP(r0, r1, r2); ZIP(r0, r2, r1); ZIP(r0, r1, r2); ZIP(r0, r2, r1)

// ROUNDS4AB: a round on index bit 1 (pairs 0-2, 1-3) then on bit 0 (0-1,
// 2-3), on L0..L3 = r0..r3 with r4 free; afterwards L = r0 r3 r4 r1.
#define ROUNDS4AB(r0, r1, r2, r3, r4) \
	ZIP(r0, r2, r4); ZIP(r1, r3, r2); \
	ZIP(r0, r1, r3); ZIP(r4, r2, r1)

// ROUNDS8: rounds on index bits 2, 1, 0 of L0..L7 = r0..r7, r8 free;
// afterwards L = r0 r6 r7 r1 r8 r2 r3 r4 and r5 is free.
#define ROUNDS8(r0, r1, r2, r3, r4, r5, r6, r7, r8) \
	ZIP(r0, r4, r8); ZIP(r1, r5, r4); ZIP(r2, r6, r5); ZIP(r3, r7, r6); \
	ZIP(r0, r2, r7); ZIP(r1, r3, r2); ZIP(r8, r5, r3); ZIP(r4, r6, r5); \
	ZIP(r0, r1, r6); ZIP(r7, r2, r1); ZIP(r8, r4, r2); ZIP(r3, r5, r4)

// ROUND8D: a fourth round on index bit 2 after ROUNDS8 (same arguments);
// afterwards L = r0 r6 r7 r1 r5 r8 r2 r3.
#define ROUND8D(r0, r1, r2, r3, r4, r5, r6, r7, r8) \
	ZIP(r0, r8, r5); ZIP(r6, r2, r8); ZIP(r7, r3, r2); ZIP(r1, r4, r3)

// Bit transpose of the 8x8 bit matrix in every 64-bit lane of x (byte r =
// row r, bit c = column c): three delta swaps, masks in m1 m2 m3, t scratch.
#define SBITT(x, t, m1, m2, m3) \
	MOVO x, t; PSRLQ $7, t; PXOR x, t; PAND m1, t; PXOR t, x; PSLLQ $7, t; PXOR t, x; \
	MOVO x, t; PSRLQ $14, t; PXOR x, t; PAND m2, t; PXOR t, x; PSLLQ $14, t; PXOR t, x; \
	MOVO x, t; PSRLQ $28, t; PXOR x, t; PAND m3, t; PXOR t, x; PSLLQ $28, t; PXOR t, x

#define VBITT(x, t, m1, m2, m3) \
	VPSRLQ $7, x, t; VPXOR x, t, t; VPAND m1, t, t; VPXOR t, x, x; VPSLLQ $7, t, t; VPXOR t, x, x; \
	VPSRLQ $14, x, t; VPXOR x, t, t; VPAND m2, t, t; VPXOR t, x, x; VPSLLQ $14, t, t; VPXOR t, x, x; \
	VPSRLQ $28, x, t; VPXOR x, t, t; VPAND m3, t, t; VPXOR t, x, x; VPSLLQ $28, t, t; VPXOR t, x, x

#define BITMASK1 $0x00aa00aa00aa00aa
#define BITMASK2 $0x0000cccc0000cccc
#define BITMASK3 $0x00000000f0f0f0f0

// Multiples of the row stride in R8.
#define STRIDES \
	LEAQ (R8)(R8*2), R9; \
	LEAQ (R8)(R8*4), R10; \
	LEAQ (R9)(R8*4), R11


// Software prefetch of the rows the shuffle kernels write, 8 lines ahead.
// Each iteration writes one 64-byte line of every row; with 2 to 16
// output streams the hardware prefetchers fall behind (measured at 1 MiB
// with AVX2: typesize 4 from 0.67 to 0.92 of copy's speed, typesize 8 from
// 0.54 to 0.82). Prefetching past the end of a buffer is harmless.
#define PREFETCH2 PREFETCHT0 512(DI); PREFETCHT0 512(DI)(R8*1)
#define PREFETCH4 PREFETCH2; PREFETCHT0 512(DI)(R8*2); PREFETCHT0 512(DI)(R9*1)
#define PREFETCH8 PREFETCH4; PREFETCHT0 512(DI)(R8*4); PREFETCHT0 512(DI)(R10*1); PREFETCHT0 512(DI)(R9*2); PREFETCHT0 512(DI)(R11*1)

// The unshuffle kernels read rows and write one contiguous stream, 128 to
// 512 bytes per iteration; software prefetch of the destination 2 KiB
// ahead (measured at 1 MiB, typesize 8: AVX-512 from 0.84 to 1.0 of
// copy's speed; prefetching the source rows as well made no difference).
#define PREFETCHDST2 PREFETCHT0 2048(DI); PREFETCHT0 2112(DI)
#define PREFETCHDST4 PREFETCHDST2; PREFETCHT0 2176(DI); PREFETCHT0 2240(DI)
#define PREFETCHDST8 PREFETCHDST4; PREFETCHT0 2304(DI); PREFETCHT0 2368(DI); PREFETCHT0 2432(DI); PREFETCHT0 2496(DI)

// The 16-byte tile kernels write 16 rows. When the row stride is a multiple
// of 4 KiB (a power-of-two block), all 16 rows fall into the same L1 cache
// set, more lines than it has ways, and writing 16 bytes to each row in
// turn evicts every line before it is complete (measured: 8x slower). So
// they transpose 64 elements into a 16 x 64-byte scratch area on the stack
// (0(SP)..1023(SP)) and then copy each row's 64 bytes, a whole line, out
// at once.
#define ROWOUTS(j) \
	MOVOU (j*64)(SP), X0; MOVOU (j*64+16)(SP), X1; MOVOU (j*64+32)(SP), X2; MOVOU (j*64+48)(SP), X3; \
	PREFETCHT0 512(R12); \
	MOVOU X0, (R12); MOVOU X1, 16(R12); MOVOU X2, 32(R12); MOVOU X3, 48(R12); \
	ADDQ R8, R12

#define ROWOUTV(j) \
	VMOVDQU (j*64)(SP), Y0; VMOVDQU (j*64+32)(SP), Y1; PREFETCHT0 512(R12); \
	VMOVDQU Y0, (R12); VMOVDQU Y1, 32(R12); \
	ADDQ R8, R12

// Copies the 16 scratch rows to DI + j*R8.
#define ROWSOUT(ROWOUT) \
	MOVQ DI, R12; \
	ROWOUT(0); ROWOUT(1); ROWOUT(2); ROWOUT(3); ROWOUT(4); ROWOUT(5); ROWOUT(6); ROWOUT(7); \
	ROWOUT(8); ROWOUT(9); ROWOUT(10); ROWOUT(11); ROWOUT(12); ROWOUT(13); ROWOUT(14); ROWOUT(15)

// ---------------------------------------------------------------- SSE2

#define ZIP SZIP

// Typesize 2, groups of 16 elements (32 bytes). Bits: register i3,
// position (i2 i1 i0 j0); four rounds bring position to (i3 i2 i1 i0) and
// j0 to the register index. Four groups per iteration (64 elements), so
// that each row receives a whole 64-byte line, alternating between two
// register sets.
#define SHUF2S(off, doff, r0, r1, r2) \
	MOVOU off(SI), r0; MOVOU (off+16)(SI), r1; \
	ROUNDS2(r0, r1, r2); \
	MOVOU r0, doff(DI); MOVOU r1, doff(DI)(R8*1)

// func shuffle2SSE2(dst, src []byte, stride, n int)
TEXT ·shuffle2SSE2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	SHRQ $6, AX
	JZ   done

loop:
	PREFETCH2
	SHUF2S(0, 0, X0, X1, X2)
	SHUF2S(32, 16, X3, X4, X5)
	SHUF2S(64, 32, X0, X1, X2)
	SHUF2S(96, 48, X3, X4, X5)
	ADDQ $128, SI
	ADDQ $64, DI
	DECQ AX
	JNZ  loop

done:
	RET

// Typesize 4, groups of 16 elements (64 bytes), four per iteration.
// Register (i3 i2), position (i1 i0 j1 j0); rounds on bits 1, 0, 1, 0 give
// position (i3 i2 i1 i0) and register (j1 j0), in r0..r3 in order.
#define SHUF4S(off, doff, r0, r1, r2, r3, r4) \
	MOVOU off(SI), r0; MOVOU (off+16)(SI), r1; MOVOU (off+32)(SI), r2; MOVOU (off+48)(SI), r3; \
	ROUNDS4AB(r0, r1, r2, r3, r4); \
	ROUNDS4AB(r0, r3, r4, r1, r2); \
	MOVOU r0, doff(DI); MOVOU r1, doff(DI)(R8*1); MOVOU r2, doff(DI)(R8*2); MOVOU r3, doff(DI)(R9*1)

// func shuffle4SSE2(dst, src []byte, stride, n int)
TEXT ·shuffle4SSE2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	STRIDES
	SHRQ $6, AX
	JZ   done

loop:
	PREFETCH4
	SHUF4S(0, 0, X0, X1, X2, X3, X4)
	SHUF4S(64, 16, X5, X6, X7, X8, X9)
	SHUF4S(128, 32, X0, X1, X2, X3, X4)
	SHUF4S(192, 48, X5, X6, X7, X8, X9)
	ADDQ $256, SI
	ADDQ $64, DI
	DECQ AX
	JNZ  loop

done:
	RET

// Typesize 8, groups of 16 elements (128 bytes), four per iteration.
// Register (i3 i2 i1), position (i0 j2 j1 j0); rounds on bits 2, 1, 0, 2
// give position (i3 i2 i1 i0) and register (j0 j2 j1): row j is in
// L[4*j0 + 2*j2 + j1], i.e. rows 0..7 in L0 L4 L1 L5 L2 L6 L3 L7 =
// X0 X5 X6 X8 X7 X2 X1 X3.
#define SHUF8S(off, doff) \
	MOVOU off(SI), X0; MOVOU (off+16)(SI), X1; MOVOU (off+32)(SI), X2; MOVOU (off+48)(SI), X3; \
	MOVOU (off+64)(SI), X4; MOVOU (off+80)(SI), X5; MOVOU (off+96)(SI), X6; MOVOU (off+112)(SI), X7; \
	ROUNDS8(X0, X1, X2, X3, X4, X5, X6, X7, X8); \
	ROUND8D(X0, X1, X2, X3, X4, X5, X6, X7, X8); \
	MOVOU X0, doff(DI); MOVOU X5, doff(DI)(R8*1); MOVOU X6, doff(DI)(R8*2); MOVOU X8, doff(DI)(R9*1); \
	MOVOU X7, doff(DI)(R8*4); MOVOU X2, doff(DI)(R10*1); MOVOU X1, doff(DI)(R9*2); MOVOU X3, doff(DI)(R11*1)

// func shuffle8SSE2(dst, src []byte, stride, n int)
TEXT ·shuffle8SSE2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	STRIDES
	SHRQ $6, AX
	JZ   done

loop:
	PREFETCH8
	SHUF8S(0, 0)
	SHUF8S(128, 16)
	SHUF8S(256, 32)
	SHUF8S(384, 48)
	ADDQ $512, SI
	ADDQ $64, DI
	DECQ AX
	JNZ  loop

done:
	RET

// 16-byte tiles: element i is the 16 bytes at src + i*srcStride, byte j of
// it goes to dst + j*dstStride + i. Groups of 8 elements: register
// (i2 i1 i0), position (j3 j2 j1 j0); rounds on bits 2, 1, 0 give position
// (j0 i2 i1 i0), register (j3 j2 j1): L[k] holds row 2k in its low and
// row 2k+1 in its high 8 bytes, L = X0 X6 X7 X1 X8 X2 X3 X4. Eight groups
// (64 elements) per iteration go through the scratch rows.
#define SH16S(g) \
	MOVOU (SI), X0; MOVOU (SI)(BX*1), X1; MOVOU (SI)(BX*2), X2; MOVOU (SI)(CX*1), X3; \
	MOVOU (SI)(BX*4), X4; MOVOU (SI)(DX*1), X5; MOVOU (SI)(CX*2), X6; MOVOU (SI)(R13*1), X7; \
	ROUNDS8(X0, X1, X2, X3, X4, X5, X6, X7, X8); \
	MOVQ X0, (g*8)(SP); MOVHPS X0, (64+g*8)(SP); \
	MOVQ X6, (128+g*8)(SP); MOVHPS X6, (192+g*8)(SP); \
	MOVQ X7, (256+g*8)(SP); MOVHPS X7, (320+g*8)(SP); \
	MOVQ X1, (384+g*8)(SP); MOVHPS X1, (448+g*8)(SP); \
	MOVQ X8, (512+g*8)(SP); MOVHPS X8, (576+g*8)(SP); \
	MOVQ X2, (640+g*8)(SP); MOVHPS X2, (704+g*8)(SP); \
	MOVQ X3, (768+g*8)(SP); MOVHPS X3, (832+g*8)(SP); \
	MOVQ X4, (896+g*8)(SP); MOVHPS X4, (960+g*8)(SP); \
	LEAQ (SI)(BX*8), SI

// func shuffle16StripSSE2(dst, src []byte, srcStride, dstStride, n int)
TEXT ·shuffle16StripSSE2(SB), $1024-72
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ srcStride+48(FP), BX
	MOVQ dstStride+56(FP), R8
	MOVQ n+64(FP), AX
	STRIDES
	LEAQ (BX)(BX*2), CX
	LEAQ (BX)(BX*4), DX
	LEAQ (CX)(BX*4), R13
	SHRQ $6, AX
	JZ   done

loop:
	SH16S(0)
	SH16S(1)
	SH16S(2)
	SH16S(3)
	SH16S(4)
	SH16S(5)
	SH16S(6)
	SH16S(7)
	ROWSOUT(ROWOUTS)
	ADDQ $64, DI
	DECQ AX
	JNZ  loop

done:
	RET

// The same without the scratch rows, 8 elements per iteration, for row
// strides that do not alias.
//
// func shuffle16SSE2(dst, src []byte, srcStride, dstStride, n int)
TEXT ·shuffle16SSE2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ srcStride+48(FP), BX
	MOVQ dstStride+56(FP), R8
	MOVQ n+64(FP), AX
	STRIDES
	LEAQ (BX)(BX*2), CX
	LEAQ (BX)(BX*4), DX
	LEAQ (CX)(BX*4), R13
	SHRQ $3, AX
	JZ   done

loop:
	MOVOU  (SI), X0
	MOVOU  (SI)(BX*1), X1
	MOVOU  (SI)(BX*2), X2
	MOVOU  (SI)(CX*1), X3
	MOVOU  (SI)(BX*4), X4
	MOVOU  (SI)(DX*1), X5
	MOVOU  (SI)(CX*2), X6
	MOVOU  (SI)(R13*1), X7
	ROUNDS8(X0, X1, X2, X3, X4, X5, X6, X7, X8)
	LEAQ   (DI)(R8*8), R12
	MOVQ   X0, (DI)
	MOVHPS X0, (DI)(R8*1)
	MOVQ   X6, (DI)(R8*2)
	MOVHPS X6, (DI)(R9*1)
	MOVQ   X7, (DI)(R8*4)
	MOVHPS X7, (DI)(R10*1)
	MOVQ   X1, (DI)(R9*2)
	MOVHPS X1, (DI)(R11*1)
	MOVQ   X8, (R12)
	MOVHPS X8, (R12)(R8*1)
	MOVQ   X2, (R12)(R8*2)
	MOVHPS X2, (R12)(R9*1)
	MOVQ   X3, (R12)(R8*4)
	MOVHPS X3, (R12)(R10*1)
	MOVQ   X4, (R12)(R9*2)
	MOVHPS X4, (R12)(R11*1)
	LEAQ   (SI)(BX*8), SI
	ADDQ   $8, DI
	DECQ   AX
	JNZ    loop

done:
	RET

// Inverse of shuffle2SSE2, groups of 16 elements, four per iteration.
// Register j0, position (i3 i2 i1 i0); one round: position (i2 i1 i0 j0),
// register i3.
#define UNSHUF2S(off, doff, r0, r1, r2) \
	MOVOU off(SI), r0; MOVOU off(SI)(R8*1), r1; \
	ZIP(r0, r1, r2); \
	MOVOU r0, doff(DI); MOVOU r2, (doff+16)(DI)

// func unshuffle2SSE2(dst, src []byte, stride, n int)
TEXT ·unshuffle2SSE2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	SHRQ $6, AX
	JZ   done

loop:
	UNSHUF2S(0, 0, X0, X1, X2)
	UNSHUF2S(16, 32, X3, X4, X5)
	UNSHUF2S(32, 64, X0, X1, X2)
	UNSHUF2S(48, 96, X3, X4, X5)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ AX
	JNZ  loop

done:
	RET

// Inverse of shuffle4SSE2, four groups of 16 elements per iteration.
// Register (j1 j0), position (i3 i2 i1 i0); rounds on bits 1, 0 give
// position (i1 i0 j1 j0), register (i3 i2): L = r0 r3 r4 r1.
#define UNSHUF4S(off, doff, r0, r1, r2, r3, r4) \
	MOVOU off(SI), r0; MOVOU off(SI)(R8*1), r1; MOVOU off(SI)(R8*2), r2; MOVOU off(SI)(R9*1), r3; \
	ROUNDS4AB(r0, r1, r2, r3, r4); \
	MOVOU r0, doff(DI); MOVOU r3, (doff+16)(DI); MOVOU r4, (doff+32)(DI); MOVOU r1, (doff+48)(DI)

// func unshuffle4SSE2(dst, src []byte, stride, n int)
TEXT ·unshuffle4SSE2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	STRIDES
	SHRQ $6, AX
	JZ   done

loop:
	UNSHUF4S(0, 0, X0, X1, X2, X3, X4)
	UNSHUF4S(16, 64, X5, X6, X7, X8, X9)
	UNSHUF4S(32, 128, X0, X1, X2, X3, X4)
	UNSHUF4S(48, 192, X5, X6, X7, X8, X9)
	ADDQ $64, SI
	ADDQ $256, DI
	DECQ AX
	JNZ  loop

done:
	RET

// Inverse of shuffle8SSE2, four groups of 16 elements per iteration.
// Register (j2 j1 j0), position (i3 i2 i1 i0); rounds on bits 2, 1, 0 give
// position (i0 j2 j1 j0), register (i3 i2 i1): L = X0 X6 X7 X1 X8 X2 X3 X4.
#define UNSHUF8S(off, doff) \
	MOVOU off(SI), X0; MOVOU off(SI)(R8*1), X1; MOVOU off(SI)(R8*2), X2; MOVOU off(SI)(R9*1), X3; \
	MOVOU off(SI)(R8*4), X4; MOVOU off(SI)(R10*1), X5; MOVOU off(SI)(R9*2), X6; MOVOU off(SI)(R11*1), X7; \
	ROUNDS8(X0, X1, X2, X3, X4, X5, X6, X7, X8); \
	MOVOU X0, doff(DI); MOVOU X6, (doff+16)(DI); MOVOU X7, (doff+32)(DI); MOVOU X1, (doff+48)(DI); \
	MOVOU X8, (doff+64)(DI); MOVOU X2, (doff+80)(DI); MOVOU X3, (doff+96)(DI); MOVOU X4, (doff+112)(DI)

// func unshuffle8SSE2(dst, src []byte, stride, n int)
TEXT ·unshuffle8SSE2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	STRIDES
	SHRQ $6, AX
	JZ   done

loop:
	UNSHUF8S(0, 0)
	UNSHUF8S(16, 128)
	UNSHUF8S(32, 256)
	UNSHUF8S(48, 384)
	ADDQ $64, SI
	ADDQ $512, DI
	DECQ AX
	JNZ  loop

done:
	RET

// Inverse of shuffle16SSE2, 8 elements per iteration: byte j of element i
// comes from src + j*srcStride + i, element i goes to dst + i*dstStride.
// L[k] is loaded with row 2k (low) and row 2k+1 (high): register
// (j3 j2 j1), position (j0 i2 i1 i0); rounds on bits 2, 1, 0, 2 give
// position (j3 j2 j1 j0) and register (i0 i2 i1): element i is in
// L[4*i0 + 2*i2 + i1], elements 0..7 in X0 X5 X6 X8 X7 X2 X1 X3.
//
// func unshuffle16SSE2(dst, src []byte, dstStride, srcStride, n int)
TEXT ·unshuffle16SSE2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ dstStride+48(FP), BX
	MOVQ srcStride+56(FP), R8
	MOVQ n+64(FP), AX
	STRIDES
	LEAQ (BX)(BX*2), CX
	LEAQ (BX)(BX*4), DX
	LEAQ (CX)(BX*4), R13
	SHRQ $3, AX
	JZ   done

loop:
	LEAQ   (SI)(R8*8), R12
	MOVQ   (SI), X0
	MOVHPS (SI)(R8*1), X0
	MOVQ   (SI)(R8*2), X1
	MOVHPS (SI)(R9*1), X1
	MOVQ   (SI)(R8*4), X2
	MOVHPS (SI)(R10*1), X2
	MOVQ   (SI)(R9*2), X3
	MOVHPS (SI)(R11*1), X3
	MOVQ   (R12), X4
	MOVHPS (R12)(R8*1), X4
	MOVQ   (R12)(R8*2), X5
	MOVHPS (R12)(R9*1), X5
	MOVQ   (R12)(R8*4), X6
	MOVHPS (R12)(R10*1), X6
	MOVQ   (R12)(R9*2), X7
	MOVHPS (R12)(R11*1), X7
	ROUNDS8(X0, X1, X2, X3, X4, X5, X6, X7, X8)
	ROUND8D(X0, X1, X2, X3, X4, X5, X6, X7, X8)
	MOVOU  X0, (DI)
	MOVOU  X5, (DI)(BX*1)
	MOVOU  X6, (DI)(BX*2)
	MOVOU  X8, (DI)(CX*1)
	MOVOU  X7, (DI)(BX*4)
	MOVOU  X2, (DI)(DX*1)
	MOVOU  X1, (DI)(CX*2)
	MOVOU  X3, (DI)(R13*1)
	ADDQ   $8, SI
	LEAQ   (DI)(BX*8), DI
	DECQ   AX
	JNZ    loop

done:
	RET

// Bit transpose of one byte row, 64 bytes per iteration: pmovmskb collects
// bit 7 of 16 bytes (byte i to bit i), 2 bytes of bit row 7; doubling every
// byte (paddb) brings the next bit to the top. The four masks of a row are
// joined into one 64-bit store.
#define BITROWS(row) \
	PMOVMSKB X0, BX; PMOVMSKB X1, CX; SHLL $16, CX; ORL CX, BX; \
	PMOVMSKB X2, CX; SHLQ $32, CX; ORQ CX, BX; \
	PMOVMSKB X3, CX; SHLQ $48, CX; ORQ CX, BX; MOVQ BX, row; \
	PADDB X0, X0; PADDB X1, X1; PADDB X2, X2; PADDB X3, X3

// func bitTransSSE2(dst, src []byte, stride, n int)
TEXT ·bitTransSSE2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	LEAQ (R8)(R8*2), R9
	LEAQ (DI)(R8*4), R10 // bit rows 4..7
	SHRQ $6, AX
	JZ   done

loop:
	MOVOU (SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	BITROWS((R10)(R9*1))
	BITROWS((R10)(R8*2))
	BITROWS((R10)(R8*1))
	BITROWS((R10))
	BITROWS((DI)(R9*1))
	BITROWS((DI)(R8*2))
	BITROWS((DI)(R8*1))
	BITROWS((DI))
	ADDQ  $64, SI
	ADDQ  $8, DI
	ADDQ  $8, R10
	DECQ  AX
	JNZ   loop

done:
	RET

// Inverse bit transpose, 128 output bytes per iteration: 16 bytes of each
// of the 8 bit rows. Register (b2 b1 b0) = bit row, position g (byte
// column); rounds on bits 2, 1, 0 give position (g0 b2 b1 b0), register
// (g3 g2 g1): each 64-bit lane holds byte g of the 8 rows, an 8x8 bit
// matrix whose transpose is output bytes 8g..8g+7. L = X0 X6 X7 X1 X8 X2 X3 X4
// hold output bytes 0, 16, ..., 112.
//
// func bitUntransSSE2(dst, src []byte, stride, n int)
TEXT ·bitUntransSSE2(SB), NOSPLIT, $0-64
	MOVQ       dst_base+0(FP), DI
	MOVQ       src_base+24(FP), SI
	MOVQ       stride+48(FP), R8
	MOVQ       n+56(FP), AX
	LEAQ       (R8)(R8*2), R9
	LEAQ       (SI)(R8*4), R10 // bit rows 4..7
	MOVQ       BITMASK1, BX
	MOVQ       BX, X9
	PUNPCKLQDQ X9, X9
	MOVQ       BITMASK2, BX
	MOVQ       BX, X10
	PUNPCKLQDQ X10, X10
	MOVQ       BITMASK3, BX
	MOVQ       BX, X11
	PUNPCKLQDQ X11, X11
	SHRQ       $7, AX
	JZ         done

loop:
	MOVOU (SI), X0
	MOVOU (SI)(R8*1), X1
	MOVOU (SI)(R8*2), X2
	MOVOU (SI)(R9*1), X3
	MOVOU (R10), X4
	MOVOU (R10)(R8*1), X5
	MOVOU (R10)(R8*2), X6
	MOVOU (R10)(R9*1), X7
	ROUNDS8(X0, X1, X2, X3, X4, X5, X6, X7, X8)
	SBITT(X0, X5, X9, X10, X11)
	SBITT(X6, X5, X9, X10, X11)
	SBITT(X7, X5, X9, X10, X11)
	SBITT(X1, X5, X9, X10, X11)
	SBITT(X8, X5, X9, X10, X11)
	SBITT(X2, X5, X9, X10, X11)
	SBITT(X3, X5, X9, X10, X11)
	SBITT(X4, X5, X9, X10, X11)
	MOVOU X0, (DI)
	MOVOU X6, 16(DI)
	MOVOU X7, 32(DI)
	MOVOU X1, 48(DI)
	MOVOU X8, 64(DI)
	MOVOU X2, 80(DI)
	MOVOU X3, 96(DI)
	MOVOU X4, 112(DI)
	ADDQ  $16, SI
	ADDQ  $16, R10
	ADDQ  $128, DI
	DECQ  AX
	JNZ   loop

done:
	RET

// ---------------------------------------------------------------- AVX2

#undef ZIP
#define ZIP VZIP

// The AVX2 kernels run the SSE2 computations in both 128-bit lanes, lane 1
// on the elements that follow lane 0's (twice as many per iteration).

// Groups of 32 elements, lane 1 on elements 16..31; two groups per
// iteration.
#define SHUF2V(off, doff, r0, r1, r2, x0, x1) \
	VMOVDQU off(SI), x0; VINSERTI128 $1, (off+32)(SI), r0, r0; \
	VMOVDQU (off+16)(SI), x1; VINSERTI128 $1, (off+48)(SI), r1, r1; \
	ROUNDS2(r0, r1, r2); \
	VMOVDQU r0, doff(DI); VMOVDQU r1, doff(DI)(R8*1)

// func shuffle2AVX2(dst, src []byte, stride, n int)
TEXT ·shuffle2AVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	SHRQ $6, AX
	JZ   done

loop:
	PREFETCH2
	SHUF2V(0, 0, Y0, Y1, Y2, X0, X1)
	SHUF2V(64, 32, Y3, Y4, Y5, X3, X4)
	ADDQ $128, SI
	ADDQ $64, DI
	DECQ AX
	JNZ  loop

done:
	VZEROUPPER
	RET

// Groups of 32 elements, lane 1 on elements 16..31; two groups per
// iteration.
#define SHUF4V(off, doff, r0, r1, r2, r3, r4, x0, x1, x2, x3) \
	VMOVDQU off(SI), x0; VINSERTI128 $1, (off+64)(SI), r0, r0; \
	VMOVDQU (off+16)(SI), x1; VINSERTI128 $1, (off+80)(SI), r1, r1; \
	VMOVDQU (off+32)(SI), x2; VINSERTI128 $1, (off+96)(SI), r2, r2; \
	VMOVDQU (off+48)(SI), x3; VINSERTI128 $1, (off+112)(SI), r3, r3; \
	ROUNDS4AB(r0, r1, r2, r3, r4); \
	ROUNDS4AB(r0, r3, r4, r1, r2); \
	VMOVDQU r0, doff(DI); VMOVDQU r1, doff(DI)(R8*1); VMOVDQU r2, doff(DI)(R8*2); VMOVDQU r3, doff(DI)(R9*1)

// func shuffle4AVX2(dst, src []byte, stride, n int)
TEXT ·shuffle4AVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	STRIDES
	SHRQ $6, AX
	JZ   done

loop:
	PREFETCH4
	SHUF4V(0, 0, Y0, Y1, Y2, Y3, Y4, X0, X1, X2, X3)
	SHUF4V(128, 32, Y5, Y6, Y7, Y8, Y9, X5, X6, X7, X8)
	ADDQ $256, SI
	ADDQ $64, DI
	DECQ AX
	JNZ  loop

done:
	VZEROUPPER
	RET

// One group of 32 elements (256 bytes at SI+off, rows at DI+doff).
#define SHUF8AVX2(off, doff) \
	VMOVDQU     (off)(SI), X0; \
	VINSERTI128 $1, (off+128)(SI), Y0, Y0; \
	VMOVDQU     (off+16)(SI), X1; \
	VINSERTI128 $1, (off+144)(SI), Y1, Y1; \
	VMOVDQU     (off+32)(SI), X2; \
	VINSERTI128 $1, (off+160)(SI), Y2, Y2; \
	VMOVDQU     (off+48)(SI), X3; \
	VINSERTI128 $1, (off+176)(SI), Y3, Y3; \
	VMOVDQU     (off+64)(SI), X4; \
	VINSERTI128 $1, (off+192)(SI), Y4, Y4; \
	VMOVDQU     (off+80)(SI), X5; \
	VINSERTI128 $1, (off+208)(SI), Y5, Y5; \
	VMOVDQU     (off+96)(SI), X6; \
	VINSERTI128 $1, (off+224)(SI), Y6, Y6; \
	VMOVDQU     (off+112)(SI), X7; \
	VINSERTI128 $1, (off+240)(SI), Y7, Y7; \
	ROUNDS8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8); \
	ROUND8D(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8); \
	VMOVDQU     Y0, doff(DI); \
	VMOVDQU     Y5, doff(DI)(R8*1); \
	VMOVDQU     Y6, doff(DI)(R8*2); \
	VMOVDQU     Y8, doff(DI)(R9*1); \
	VMOVDQU     Y7, doff(DI)(R8*4); \
	VMOVDQU     Y2, doff(DI)(R10*1); \
	VMOVDQU     Y1, doff(DI)(R9*2); \
	VMOVDQU     Y3, doff(DI)(R11*1)

// 64 elements per iteration, so that each row receives a whole 64-byte
// line at a time.
//
// func shuffle8AVX2(dst, src []byte, stride, n int)
TEXT ·shuffle8AVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	STRIDES
	SHRQ $6, AX
	JZ   done

loop:
	PREFETCH8
	SHUF8AVX2(0, 0)
	SHUF8AVX2(256, 32)
	ADDQ $512, SI
	ADDQ $64, DI
	DECQ AX
	JNZ  loop

done:
	VZEROUPPER
	RET

// Groups of 16 elements, lane 1 on elements 8..15. After the rounds vpermq
// 0xd8 puts row 2k (elements 0..15) in the low and row 2k+1 in the high
// lane of L[k]. Four groups per iteration through the scratch rows.
#define SH16V(g) \
	LEAQ (SI)(BX*8), R12; \
	VMOVDQU (SI), X0; VINSERTI128 $1, (R12), Y0, Y0; \
	VMOVDQU (SI)(BX*1), X1; VINSERTI128 $1, (R12)(BX*1), Y1, Y1; \
	VMOVDQU (SI)(BX*2), X2; VINSERTI128 $1, (R12)(BX*2), Y2, Y2; \
	VMOVDQU (SI)(CX*1), X3; VINSERTI128 $1, (R12)(CX*1), Y3, Y3; \
	VMOVDQU (SI)(BX*4), X4; VINSERTI128 $1, (R12)(BX*4), Y4, Y4; \
	VMOVDQU (SI)(DX*1), X5; VINSERTI128 $1, (R12)(DX*1), Y5, Y5; \
	VMOVDQU (SI)(CX*2), X6; VINSERTI128 $1, (R12)(CX*2), Y6, Y6; \
	VMOVDQU (SI)(R13*1), X7; VINSERTI128 $1, (R12)(R13*1), Y7, Y7; \
	ROUNDS8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8); \
	VPERMQ $0xd8, Y0, Y0; VPERMQ $0xd8, Y6, Y6; VPERMQ $0xd8, Y7, Y7; VPERMQ $0xd8, Y1, Y1; \
	VPERMQ $0xd8, Y8, Y8; VPERMQ $0xd8, Y2, Y2; VPERMQ $0xd8, Y3, Y3; VPERMQ $0xd8, Y4, Y4; \
	VMOVDQU X0, (g*16)(SP); VEXTRACTI128 $1, Y0, (64+g*16)(SP); \
	VMOVDQU X6, (128+g*16)(SP); VEXTRACTI128 $1, Y6, (192+g*16)(SP); \
	VMOVDQU X7, (256+g*16)(SP); VEXTRACTI128 $1, Y7, (320+g*16)(SP); \
	VMOVDQU X1, (384+g*16)(SP); VEXTRACTI128 $1, Y1, (448+g*16)(SP); \
	VMOVDQU X8, (512+g*16)(SP); VEXTRACTI128 $1, Y8, (576+g*16)(SP); \
	VMOVDQU X2, (640+g*16)(SP); VEXTRACTI128 $1, Y2, (704+g*16)(SP); \
	VMOVDQU X3, (768+g*16)(SP); VEXTRACTI128 $1, Y3, (832+g*16)(SP); \
	VMOVDQU X4, (896+g*16)(SP); VEXTRACTI128 $1, Y4, (960+g*16)(SP); \
	LEAQ (R12)(BX*8), SI

// func shuffle16StripAVX2(dst, src []byte, srcStride, dstStride, n int)
TEXT ·shuffle16StripAVX2(SB), $1024-72
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ srcStride+48(FP), BX
	MOVQ dstStride+56(FP), R8
	MOVQ n+64(FP), AX
	STRIDES
	LEAQ (BX)(BX*2), CX
	LEAQ (BX)(BX*4), DX
	LEAQ (CX)(BX*4), R13
	SHRQ $6, AX
	JZ   done

loop:
	SH16V(0)
	SH16V(1)
	SH16V(2)
	SH16V(3)
	ROWSOUT(ROWOUTV)
	ADDQ $64, DI
	DECQ AX
	JNZ  loop

done:
	VZEROUPPER
	RET

// The same without the scratch rows, 16 elements per iteration.
//
// func shuffle16AVX2(dst, src []byte, srcStride, dstStride, n int)
TEXT ·shuffle16AVX2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ srcStride+48(FP), BX
	MOVQ dstStride+56(FP), R8
	MOVQ n+64(FP), AX
	STRIDES
	LEAQ (BX)(BX*2), CX
	LEAQ (BX)(BX*4), DX
	LEAQ (CX)(BX*4), R13
	SHRQ $4, AX
	JZ   done

loop:
	LEAQ         (SI)(BX*8), R12
	VMOVDQU      (SI), X0
	VINSERTI128  $1, (R12), Y0, Y0
	VMOVDQU      (SI)(BX*1), X1
	VINSERTI128  $1, (R12)(BX*1), Y1, Y1
	VMOVDQU      (SI)(BX*2), X2
	VINSERTI128  $1, (R12)(BX*2), Y2, Y2
	VMOVDQU      (SI)(CX*1), X3
	VINSERTI128  $1, (R12)(CX*1), Y3, Y3
	VMOVDQU      (SI)(BX*4), X4
	VINSERTI128  $1, (R12)(BX*4), Y4, Y4
	VMOVDQU      (SI)(DX*1), X5
	VINSERTI128  $1, (R12)(DX*1), Y5, Y5
	VMOVDQU      (SI)(CX*2), X6
	VINSERTI128  $1, (R12)(CX*2), Y6, Y6
	VMOVDQU      (SI)(R13*1), X7
	VINSERTI128  $1, (R12)(R13*1), Y7, Y7
	ROUNDS8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8)
	VPERMQ       $0xd8, Y0, Y0
	VPERMQ       $0xd8, Y6, Y6
	VPERMQ       $0xd8, Y7, Y7
	VPERMQ       $0xd8, Y1, Y1
	VPERMQ       $0xd8, Y8, Y8
	VPERMQ       $0xd8, Y2, Y2
	VPERMQ       $0xd8, Y3, Y3
	VPERMQ       $0xd8, Y4, Y4
	LEAQ         (DI)(R8*8), R12
	VMOVDQU      X0, (DI)
	VEXTRACTI128 $1, Y0, (DI)(R8*1)
	VMOVDQU      X6, (DI)(R8*2)
	VEXTRACTI128 $1, Y6, (DI)(R9*1)
	VMOVDQU      X7, (DI)(R8*4)
	VEXTRACTI128 $1, Y7, (DI)(R10*1)
	VMOVDQU      X1, (DI)(R9*2)
	VEXTRACTI128 $1, Y1, (DI)(R11*1)
	VMOVDQU      X8, (R12)
	VEXTRACTI128 $1, Y8, (R12)(R8*1)
	VMOVDQU      X2, (R12)(R8*2)
	VEXTRACTI128 $1, Y2, (R12)(R9*1)
	VMOVDQU      X3, (R12)(R8*4)
	VEXTRACTI128 $1, Y3, (R12)(R10*1)
	VMOVDQU      X4, (R12)(R9*2)
	VEXTRACTI128 $1, Y4, (R12)(R11*1)
	LEAQ         (SI)(BX*8), SI
	LEAQ         (SI)(BX*8), SI
	ADDQ         $16, DI
	DECQ         AX
	JNZ          loop

done:
	VZEROUPPER
	RET

// Groups of 32 elements (lane 1 of the rows: elements 16..31), two per
// iteration.
#define UNSHUF2V(off, doff, r0, r1, r2, x0, x2) \
	VMOVDQU off(SI), r0; VMOVDQU off(SI)(R8*1), r1; \
	ZIP(r0, r1, r2); \
	VMOVDQU x0, doff(DI); VMOVDQU x2, (doff+16)(DI); \
	VEXTRACTI128 $1, r0, (doff+32)(DI); VEXTRACTI128 $1, r2, (doff+48)(DI)

// func unshuffle2AVX2(dst, src []byte, stride, n int)
TEXT ·unshuffle2AVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	SHRQ $6, AX
	JZ   done

loop:
	PREFETCHDST2
	UNSHUF2V(0, 0, Y0, Y1, Y2, X0, X2)
	UNSHUF2V(32, 64, Y3, Y4, Y5, X3, X5)
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ AX
	JNZ  loop

done:
	VZEROUPPER
	RET

// Groups of 32 elements, two per iteration; L = r0 r3 r4 r1.
#define UNSHUF4V(off, doff, r0, r1, r2, r3, r4, x0, x1, x3, x4) \
	VMOVDQU off(SI), r0; VMOVDQU off(SI)(R8*1), r1; VMOVDQU off(SI)(R8*2), r2; VMOVDQU off(SI)(R9*1), r3; \
	ROUNDS4AB(r0, r1, r2, r3, r4); \
	VMOVDQU x0, doff(DI); VMOVDQU x3, (doff+16)(DI); VMOVDQU x4, (doff+32)(DI); VMOVDQU x1, (doff+48)(DI); \
	VEXTRACTI128 $1, r0, (doff+64)(DI); VEXTRACTI128 $1, r3, (doff+80)(DI); \
	VEXTRACTI128 $1, r4, (doff+96)(DI); VEXTRACTI128 $1, r1, (doff+112)(DI)

// func unshuffle4AVX2(dst, src []byte, stride, n int)
TEXT ·unshuffle4AVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	STRIDES
	SHRQ $6, AX
	JZ   done

loop:
	PREFETCHDST4
	UNSHUF4V(0, 0, Y0, Y1, Y2, Y3, Y4, X0, X1, X3, X4)
	UNSHUF4V(32, 128, Y5, Y6, Y7, Y8, Y9, X5, X6, X8, X9)
	ADDQ $64, SI
	ADDQ $256, DI
	DECQ AX
	JNZ  loop

done:
	VZEROUPPER
	RET

// Groups of 32 elements, two per iteration; L = Y0 Y6 Y7 Y1 Y8 Y2 Y3 Y4.
#define UNSHUF8V(off, doff) \
	VMOVDQU off(SI), Y0; VMOVDQU off(SI)(R8*1), Y1; VMOVDQU off(SI)(R8*2), Y2; VMOVDQU off(SI)(R9*1), Y3; \
	VMOVDQU off(SI)(R8*4), Y4; VMOVDQU off(SI)(R10*1), Y5; VMOVDQU off(SI)(R9*2), Y6; VMOVDQU off(SI)(R11*1), Y7; \
	ROUNDS8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8); \
	VMOVDQU X0, doff(DI); VMOVDQU X6, (doff+16)(DI); VMOVDQU X7, (doff+32)(DI); VMOVDQU X1, (doff+48)(DI); \
	VMOVDQU X8, (doff+64)(DI); VMOVDQU X2, (doff+80)(DI); VMOVDQU X3, (doff+96)(DI); VMOVDQU X4, (doff+112)(DI); \
	VEXTRACTI128 $1, Y0, (doff+128)(DI); VEXTRACTI128 $1, Y6, (doff+144)(DI); \
	VEXTRACTI128 $1, Y7, (doff+160)(DI); VEXTRACTI128 $1, Y1, (doff+176)(DI); \
	VEXTRACTI128 $1, Y8, (doff+192)(DI); VEXTRACTI128 $1, Y2, (doff+208)(DI); \
	VEXTRACTI128 $1, Y3, (doff+224)(DI); VEXTRACTI128 $1, Y4, (doff+240)(DI)

// func unshuffle8AVX2(dst, src []byte, stride, n int)
TEXT ·unshuffle8AVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	STRIDES
	SHRQ $6, AX
	JZ   done

loop:
	PREFETCHDST8
	UNSHUF8V(0, 0)
	UNSHUF8V(32, 256)
	ADDQ $64, SI
	ADDQ $512, DI
	DECQ AX
	JNZ  loop

done:
	VZEROUPPER
	RET

// 16 elements per iteration. vpermq 0xd8 of [row 2k | row 2k+1] gives
// [row 2k el 0..7, row 2k+1 el 0..7 | the same for el 8..15]: lane 1 is
// elements 8..15.
//
// func unshuffle16AVX2(dst, src []byte, dstStride, srcStride, n int)
TEXT ·unshuffle16AVX2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ dstStride+48(FP), BX
	MOVQ srcStride+56(FP), R8
	MOVQ n+64(FP), AX
	STRIDES
	LEAQ (BX)(BX*2), CX
	LEAQ (BX)(BX*4), DX
	LEAQ (CX)(BX*4), R13
	SHRQ $4, AX
	JZ   done

loop:
	LEAQ         (SI)(R8*8), R12
	VMOVDQU      (SI), X0
	VINSERTI128  $1, (SI)(R8*1), Y0, Y0
	VMOVDQU      (SI)(R8*2), X1
	VINSERTI128  $1, (SI)(R9*1), Y1, Y1
	VMOVDQU      (SI)(R8*4), X2
	VINSERTI128  $1, (SI)(R10*1), Y2, Y2
	VMOVDQU      (SI)(R9*2), X3
	VINSERTI128  $1, (SI)(R11*1), Y3, Y3
	VMOVDQU      (R12), X4
	VINSERTI128  $1, (R12)(R8*1), Y4, Y4
	VMOVDQU      (R12)(R8*2), X5
	VINSERTI128  $1, (R12)(R9*1), Y5, Y5
	VMOVDQU      (R12)(R8*4), X6
	VINSERTI128  $1, (R12)(R10*1), Y6, Y6
	VMOVDQU      (R12)(R9*2), X7
	VINSERTI128  $1, (R12)(R11*1), Y7, Y7
	VPERMQ       $0xd8, Y0, Y0
	VPERMQ       $0xd8, Y1, Y1
	VPERMQ       $0xd8, Y2, Y2
	VPERMQ       $0xd8, Y3, Y3
	VPERMQ       $0xd8, Y4, Y4
	VPERMQ       $0xd8, Y5, Y5
	VPERMQ       $0xd8, Y6, Y6
	VPERMQ       $0xd8, Y7, Y7
	ROUNDS8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8)
	ROUND8D(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8) // elements 0..7 in Y0 Y5 Y6 Y8 Y7 Y2 Y1 Y3
	LEAQ         (DI)(BX*8), R12
	VMOVDQU      X0, (DI)
	VEXTRACTI128 $1, Y0, (R12)
	VMOVDQU      X5, (DI)(BX*1)
	VEXTRACTI128 $1, Y5, (R12)(BX*1)
	VMOVDQU      X6, (DI)(BX*2)
	VEXTRACTI128 $1, Y6, (R12)(BX*2)
	VMOVDQU      X8, (DI)(CX*1)
	VEXTRACTI128 $1, Y8, (R12)(CX*1)
	VMOVDQU      X7, (DI)(BX*4)
	VEXTRACTI128 $1, Y7, (R12)(BX*4)
	VMOVDQU      X2, (DI)(DX*1)
	VEXTRACTI128 $1, Y2, (R12)(DX*1)
	VMOVDQU      X1, (DI)(CX*2)
	VEXTRACTI128 $1, Y1, (R12)(CX*2)
	VMOVDQU      X3, (DI)(R13*1)
	VEXTRACTI128 $1, Y3, (R12)(R13*1)
	ADDQ         $16, SI
	LEAQ         (R12)(BX*8), DI
	DECQ         AX
	JNZ          loop

done:
	VZEROUPPER
	RET

// 64 bytes per iteration as bitTransSSE2, the masks of two 32-byte halves
// joined into one 64-bit store.
#define BITROWV(row) \
	VPMOVMSKB Y0, BX; VPMOVMSKB Y1, CX; SHLQ $32, CX; ORQ CX, BX; MOVQ BX, row; \
	VPADDB Y0, Y0, Y0; VPADDB Y1, Y1, Y1

// func bitTransAVX2(dst, src []byte, stride, n int)
TEXT ·bitTransAVX2(SB), NOSPLIT, $0-64
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ stride+48(FP), R8
	MOVQ n+56(FP), AX
	LEAQ (R8)(R8*2), R9
	LEAQ (DI)(R8*4), R10
	SHRQ $6, AX
	JZ   done

loop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	BITROWV((R10)(R9*1))
	BITROWV((R10)(R8*2))
	BITROWV((R10)(R8*1))
	BITROWV((R10))
	BITROWV((DI)(R9*1))
	BITROWV((DI)(R8*2))
	BITROWV((DI)(R8*1))
	BITROWV((DI))
	ADDQ    $64, SI
	ADDQ    $8, DI
	ADDQ    $8, R10
	DECQ    AX
	JNZ     loop

done:
	VZEROUPPER
	RET

// 256 output bytes per iteration, lane 1 on output bytes 128..255.
//
// func bitUntransAVX2(dst, src []byte, stride, n int)
TEXT ·bitUntransAVX2(SB), NOSPLIT, $0-64
	MOVQ         dst_base+0(FP), DI
	MOVQ         src_base+24(FP), SI
	MOVQ         stride+48(FP), R8
	MOVQ         n+56(FP), AX
	LEAQ         (R8)(R8*2), R9
	LEAQ         (SI)(R8*4), R10
	MOVQ         BITMASK1, BX
	MOVQ         BX, X9
	VPBROADCASTQ X9, Y9
	MOVQ         BITMASK2, BX
	MOVQ         BX, X10
	VPBROADCASTQ X10, Y10
	MOVQ         BITMASK3, BX
	MOVQ         BX, X11
	VPBROADCASTQ X11, Y11
	SHRQ         $8, AX
	JZ           done

loop:
	VMOVDQU      (SI), Y0
	VMOVDQU      (SI)(R8*1), Y1
	VMOVDQU      (SI)(R8*2), Y2
	VMOVDQU      (SI)(R9*1), Y3
	VMOVDQU      (R10), Y4
	VMOVDQU      (R10)(R8*1), Y5
	VMOVDQU      (R10)(R8*2), Y6
	VMOVDQU      (R10)(R9*1), Y7
	ROUNDS8(Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8)
	VBITT(Y0, Y5, Y9, Y10, Y11)
	VBITT(Y6, Y5, Y9, Y10, Y11)
	VBITT(Y7, Y5, Y9, Y10, Y11)
	VBITT(Y1, Y5, Y9, Y10, Y11)
	VBITT(Y8, Y5, Y9, Y10, Y11)
	VBITT(Y2, Y5, Y9, Y10, Y11)
	VBITT(Y3, Y5, Y9, Y10, Y11)
	VBITT(Y4, Y5, Y9, Y10, Y11)
	VMOVDQU      X0, (DI)
	VMOVDQU      X6, 16(DI)
	VMOVDQU      X7, 32(DI)
	VMOVDQU      X1, 48(DI)
	VMOVDQU      X8, 64(DI)
	VMOVDQU      X2, 80(DI)
	VMOVDQU      X3, 96(DI)
	VMOVDQU      X4, 112(DI)
	VEXTRACTI128 $1, Y0, 128(DI)
	VEXTRACTI128 $1, Y6, 144(DI)
	VEXTRACTI128 $1, Y7, 160(DI)
	VEXTRACTI128 $1, Y1, 176(DI)
	VEXTRACTI128 $1, Y8, 192(DI)
	VEXTRACTI128 $1, Y2, 208(DI)
	VEXTRACTI128 $1, Y3, 224(DI)
	VEXTRACTI128 $1, Y4, 240(DI)
	ADDQ         $32, SI
	ADDQ         $32, R10
	ADDQ         $256, DI
	DECQ         AX
	JNZ          loop

done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------- AVX-512
// With AVX512BW, VBMI and GFNI (Ice Lake and later). 512-bit shuffles run
// on one port where 256-bit ones have two, so a ZMM kernel pays only when
// it needs fewer operations per byte: VPERMB does any byte permutation of
// a register in one, and VGF2P8AFFINEQB transposes the 8x8 bit matrix of
// every 64-bit word in one (instead of three delta swaps). Every row gets
// one whole, 64-byte store per iteration.
//
// Each kernel is a VPERMB of every register (a transpose inside it: byte
// (element, byte) to (byte, element)) and a transpose of the registers'
// 16-byte lanes or 8-byte words across registers (QT2, QT4, QT8), in
// opposite orders for the two directions. The byte tables follow.

// permT8: the 8x8 byte transpose, byte 8a+b to 8b+a (its own inverse).
DATA ·permT8<>+0(SB)/8, $0x3830282018100800
DATA ·permT8<>+8(SB)/8, $0x3931292119110901
DATA ·permT8<>+16(SB)/8, $0x3a322a221a120a02
DATA ·permT8<>+24(SB)/8, $0x3b332b231b130b03
DATA ·permT8<>+32(SB)/8, $0x3c342c241c140c04
DATA ·permT8<>+40(SB)/8, $0x3d352d251d150d05
DATA ·permT8<>+48(SB)/8, $0x3e362e261e160e06
DATA ·permT8<>+56(SB)/8, $0x3f372f271f170f07
GLOBL ·permT8<>(SB), RODATA|NOPTR, $64
// permT8Rev: permT8 with the bytes of every word reversed, byte 8a+b from
// 8(7-b)+a (bitUntransAVX512).
DATA ·permT8Rev<>+0(SB)/8, $0x0008101820283038
DATA ·permT8Rev<>+8(SB)/8, $0x0109111921293139
DATA ·permT8Rev<>+16(SB)/8, $0x020a121a222a323a
DATA ·permT8Rev<>+24(SB)/8, $0x030b131b232b333b
DATA ·permT8Rev<>+32(SB)/8, $0x040c141c242c343c
DATA ·permT8Rev<>+40(SB)/8, $0x050d151d252d353d
DATA ·permT8Rev<>+48(SB)/8, $0x060e161e262e363e
DATA ·permT8Rev<>+56(SB)/8, $0x070f171f272f373f
GLOBL ·permT8Rev<>(SB), RODATA|NOPTR, $64

// permS4, permU4: 16 elements of 4 bytes to 4 lanes of 16 bytes, byte
// 4e+j to 16j+e, and back.
DATA ·permS4<>+0(SB)/8, $0x1c1814100c080400
DATA ·permS4<>+8(SB)/8, $0x3c3834302c282420
DATA ·permS4<>+16(SB)/8, $0x1d1915110d090501
DATA ·permS4<>+24(SB)/8, $0x3d3935312d292521
DATA ·permS4<>+32(SB)/8, $0x1e1a16120e0a0602
DATA ·permS4<>+40(SB)/8, $0x3e3a36322e2a2622
DATA ·permS4<>+48(SB)/8, $0x1f1b17130f0b0703
DATA ·permS4<>+56(SB)/8, $0x3f3b37332f2b2723
GLOBL ·permS4<>(SB), RODATA|NOPTR, $64

DATA ·permU4<>+0(SB)/8, $0x3121110130201000
DATA ·permU4<>+8(SB)/8, $0x3323130332221202
DATA ·permU4<>+16(SB)/8, $0x3525150534241404
DATA ·permU4<>+24(SB)/8, $0x3727170736261606
DATA ·permU4<>+32(SB)/8, $0x3929190938281808
DATA ·permU4<>+40(SB)/8, $0x3b2b1b0b3a2a1a0a
DATA ·permU4<>+48(SB)/8, $0x3d2d1d0d3c2c1c0c
DATA ·permU4<>+56(SB)/8, $0x3f2f1f0f3e2e1e0e
GLOBL ·permU4<>(SB), RODATA|NOPTR, $64

// permS2, permU2: 32 elements of 2 bytes to 2 halves of 32 bytes, byte
// 2e+j to 32j+e, and back.
DATA ·permS2<>+0(SB)/8, $0x0e0c0a0806040200
DATA ·permS2<>+8(SB)/8, $0x1e1c1a1816141210
DATA ·permS2<>+16(SB)/8, $0x2e2c2a2826242220
DATA ·permS2<>+24(SB)/8, $0x3e3c3a3836343230
DATA ·permS2<>+32(SB)/8, $0x0f0d0b0907050301
DATA ·permS2<>+40(SB)/8, $0x1f1d1b1917151311
DATA ·permS2<>+48(SB)/8, $0x2f2d2b2927252321
DATA ·permS2<>+56(SB)/8, $0x3f3d3b3937353331
GLOBL ·permS2<>(SB), RODATA|NOPTR, $64

DATA ·permU2<>+0(SB)/8, $0x2303220221012000
DATA ·permU2<>+8(SB)/8, $0x2707260625052404
DATA ·permU2<>+16(SB)/8, $0x2b0b2a0a29092808
DATA ·permU2<>+24(SB)/8, $0x2f0f2e0e2d0d2c0c
DATA ·permU2<>+32(SB)/8, $0x3313321231113010
DATA ·permU2<>+40(SB)/8, $0x3717361635153414
DATA ·permU2<>+48(SB)/8, $0x3b1b3a1a39193818
DATA ·permU2<>+56(SB)/8, $0x3f1f3e1e3d1d3c1c
GLOBL ·permU2<>(SB), RODATA|NOPTR, $64

// QT8: transpose of the 8-byte words across Z0..Z7, word k of Zr to word r
// of Zk, through Z8..Z23. Seen as bits (register r2 r1 r0 : lane l1 l0,
// word-in-lane w): the unpacks swap r0 and w; then two lane rotations
// (VSHUFI64X2 0x88 takes the even lanes of both sources, 0xdd the odd
// ones) each move l0 into the register index, l1 into l0 and the register
// bit of the pair into l1, first for r1, then for r2.
#define QT8 \
	VPUNPCKLQDQ Z1, Z0, Z8; VPUNPCKHQDQ Z1, Z0, Z9; \
	VPUNPCKLQDQ Z3, Z2, Z10; VPUNPCKHQDQ Z3, Z2, Z11; \
	VPUNPCKLQDQ Z5, Z4, Z12; VPUNPCKHQDQ Z5, Z4, Z13; \
	VPUNPCKLQDQ Z7, Z6, Z14; VPUNPCKHQDQ Z7, Z6, Z15; \
	VSHUFI64X2  $0x88, Z10, Z8, Z16; VSHUFI64X2 $0xdd, Z10, Z8, Z18; \
	VSHUFI64X2  $0x88, Z11, Z9, Z17; VSHUFI64X2 $0xdd, Z11, Z9, Z19; \
	VSHUFI64X2  $0x88, Z14, Z12, Z20; VSHUFI64X2 $0xdd, Z14, Z12, Z22; \
	VSHUFI64X2  $0x88, Z15, Z13, Z21; VSHUFI64X2 $0xdd, Z15, Z13, Z23; \
	VSHUFI64X2  $0x88, Z20, Z16, Z0; VSHUFI64X2 $0xdd, Z20, Z16, Z4; \
	VSHUFI64X2  $0x88, Z21, Z17, Z1; VSHUFI64X2 $0xdd, Z21, Z17, Z5; \
	VSHUFI64X2  $0x88, Z22, Z18, Z2; VSHUFI64X2 $0xdd, Z22, Z18, Z6; \
	VSHUFI64X2  $0x88, Z23, Z19, Z3; VSHUFI64X2 $0xdd, Z23, Z19, Z7

// QT4: transpose of the 16-byte lanes across Z0..Z3 (lane k of Zr to lane
// r of Zk): the two lane rotations of QT8, for r0 then r1.
#define QT4 \
	VSHUFI64X2 $0x88, Z1, Z0, Z8; VSHUFI64X2 $0xdd, Z1, Z0, Z9; \
	VSHUFI64X2 $0x88, Z3, Z2, Z10; VSHUFI64X2 $0xdd, Z3, Z2, Z11; \
	VSHUFI64X2 $0x88, Z10, Z8, Z0; VSHUFI64X2 $0xdd, Z10, Z8, Z2; \
	VSHUFI64X2 $0x88, Z11, Z9, Z1; VSHUFI64X2 $0xdd, Z11, Z9, Z3

// QT2: transpose of the 32-byte halves of Z0, Z1.
#define QT2 \
	VSHUFI64X2 $0x44, Z1, Z0, Z8; VSHUFI64X2 $0xee, Z1, Z0, Z1; \
	VMOVDQA64  Z8, Z0

// Stores of Z0..Z7 to the rows 0..7 of DI.
#define STOREROWS8 \
	VMOVDQU64 Z0, (DI); VMOVDQU64 Z1, (DI)(R8*1); \
	VMOVDQU64 Z2, (DI)(R8*2); VMOVDQU64 Z3, (DI)(R9*1); \
	VMOVDQU64 Z4, (DI)(R8*4); VMOVDQU64 Z5, (DI)(R10*1); \
	VMOVDQU64 Z6, (DI)(R9*2); VMOVDQU64 Z7, (DI)(R11*1)

// Loads of Z0..Z7 from the rows 0..7 of SI.
#define LOADROWS8 \
	VMOVDQU64 (SI), Z0; VMOVDQU64 (SI)(R8*1), Z1; \
	VMOVDQU64 (SI)(R8*2), Z2; VMOVDQU64 (SI)(R9*1), Z3; \
	VMOVDQU64 (SI)(R8*4), Z4; VMOVDQU64 (SI)(R10*1), Z5; \
	VMOVDQU64 (SI)(R9*2), Z6; VMOVDQU64 (SI)(R11*1), Z7

// Z0..Z7 permuted by the table in Z31.
#define PERMB8 \
	VPERMB Z0, Z31, Z0; VPERMB Z1, Z31, Z1; VPERMB Z2, Z31, Z2; VPERMB Z3, Z31, Z3; \
	VPERMB Z4, Z31, Z4; VPERMB Z5, Z31, Z5; VPERMB Z6, Z31, Z6; VPERMB Z7, Z31, Z7

// Stores of Z0..Z7 to 512 contiguous bytes at DI.
#define STORE8 \
	VMOVDQU64 Z0, (DI); VMOVDQU64 Z1, 64(DI); VMOVDQU64 Z2, 128(DI); VMOVDQU64 Z3, 192(DI); \
	VMOVDQU64 Z4, 256(DI); VMOVDQU64 Z5, 320(DI); VMOVDQU64 Z6, 384(DI); VMOVDQU64 Z7, 448(DI)

// The kernels' prologue: pointers, strides, table, iteration count.
#define ARGS512(table, shift) \
	MOVQ      dst_base+0(FP), DI; \
	MOVQ      src_base+24(FP), SI; \
	MOVQ      stride+48(FP), R8; \
	MOVQ      n+56(FP), AX; \
	STRIDES; \
	VMOVDQU64 table(SB), Z31; \
	SHRQ      $shift, AX

// func shuffle8AVX512(dst, src []byte, stride, n int)
TEXT ·shuffle8AVX512(SB), NOSPLIT, $0-64
	ARGS512(·permT8<>, 6)
	JZ     done

loop:
	VPERMB (SI), Z31, Z0
	VPERMB 64(SI), Z31, Z1
	VPERMB 128(SI), Z31, Z2
	VPERMB 192(SI), Z31, Z3
	VPERMB 256(SI), Z31, Z4
	VPERMB 320(SI), Z31, Z5
	VPERMB 384(SI), Z31, Z6
	VPERMB 448(SI), Z31, Z7
	PREFETCH8
	QT8
	STOREROWS8
	ADDQ   $512, SI
	ADDQ   $64, DI
	DECQ   AX
	JNZ    loop

done:
	VZEROUPPER
	RET

// func unshuffle8AVX512(dst, src []byte, stride, n int)
TEXT ·unshuffle8AVX512(SB), NOSPLIT, $0-64
	ARGS512(·permT8<>, 6)
	JZ   done

loop:
	PREFETCHDST8
	LOADROWS8
	QT8
	PERMB8
	STORE8
	ADDQ $64, SI
	ADDQ $512, DI
	DECQ AX
	JNZ  loop

done:
	VZEROUPPER
	RET

// func shuffle4AVX512(dst, src []byte, stride, n int)
TEXT ·shuffle4AVX512(SB), NOSPLIT, $0-64
	ARGS512(·permS4<>, 6)
	JZ     done

loop:
	VPERMB    (SI), Z31, Z0
	VPERMB    64(SI), Z31, Z1
	VPERMB    128(SI), Z31, Z2
	VPERMB    192(SI), Z31, Z3
	PREFETCH4
	QT4
	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, (DI)(R8*1)
	VMOVDQU64 Z2, (DI)(R8*2)
	VMOVDQU64 Z3, (DI)(R9*1)
	ADDQ      $256, SI
	ADDQ      $64, DI
	DECQ      AX
	JNZ       loop

done:
	VZEROUPPER
	RET

// func unshuffle4AVX512(dst, src []byte, stride, n int)
TEXT ·unshuffle4AVX512(SB), NOSPLIT, $0-64
	ARGS512(·permU4<>, 6)
	JZ     done

loop:
	PREFETCHDST4
	VMOVDQU64 (SI), Z0
	VMOVDQU64 (SI)(R8*1), Z1
	VMOVDQU64 (SI)(R8*2), Z2
	VMOVDQU64 (SI)(R9*1), Z3
	QT4
	VPERMB    Z0, Z31, Z0
	VPERMB    Z1, Z31, Z1
	VPERMB    Z2, Z31, Z2
	VPERMB    Z3, Z31, Z3
	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, 64(DI)
	VMOVDQU64 Z2, 128(DI)
	VMOVDQU64 Z3, 192(DI)
	ADDQ      $64, SI
	ADDQ      $256, DI
	DECQ      AX
	JNZ       loop

done:
	VZEROUPPER
	RET

// func shuffle2AVX512(dst, src []byte, stride, n int)
TEXT ·shuffle2AVX512(SB), NOSPLIT, $0-64
	ARGS512(·permS2<>, 6)
	JZ     done

loop:
	VPERMB    (SI), Z31, Z0
	VPERMB    64(SI), Z31, Z1
	PREFETCH2
	QT2
	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, (DI)(R8*1)
	ADDQ      $128, SI
	ADDQ      $64, DI
	DECQ      AX
	JNZ       loop

done:
	VZEROUPPER
	RET

// func unshuffle2AVX512(dst, src []byte, stride, n int)
TEXT ·unshuffle2AVX512(SB), NOSPLIT, $0-64
	ARGS512(·permU2<>, 6)
	JZ     done

loop:
	PREFETCHDST2
	VMOVDQU64 (SI), Z0
	VMOVDQU64 (SI)(R8*1), Z1
	QT2
	VPERMB    Z0, Z31, Z0
	VPERMB    Z1, Z31, Z1
	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, 64(DI)
	ADDQ      $64, SI
	ADDQ      $128, DI
	DECQ      AX
	JNZ       loop

done:
	VZEROUPPER
	RET

// The bit transpose of every 8-byte word: with the word as the matrix and
// the bytes 1<<b (Z30) as the operand, VGF2P8AFFINEQB puts bit b of byte
// 7-i into bit i of byte b; a second one with Z30 as the matrix reverses
// the bits of every byte, so that bit i comes from byte i. Both take the
// bytes 1<<b from Z30 (GFCONST): the identity matrix is also the bit
// reversal's.
#define GFCONST MOVQ $0x8040201008040201, BX; VPBROADCASTQ BX, Z30
#define GFT(r) VGF2P8AFFINEQB $0, r, Z30, r
#define GFREV(r) VGF2P8AFFINEQB $0, Z30, r, r

// 512 source bytes per iteration: the bit transpose of every word, then
// the typesize-8 byte shuffle (permT8, QT8), which takes byte b of every
// word to row b.
//
// func bitTransAVX512(dst, src []byte, stride, n int)
TEXT ·bitTransAVX512(SB), NOSPLIT, $0-64
	ARGS512(·permT8<>, 9)
	GFCONST
	JZ      done

loop:
	PREFETCH8
	VGF2P8AFFINEQB $0, (SI), Z30, Z0
	VGF2P8AFFINEQB $0, 64(SI), Z30, Z1
	VGF2P8AFFINEQB $0, 128(SI), Z30, Z2
	VGF2P8AFFINEQB $0, 192(SI), Z30, Z3
	VGF2P8AFFINEQB $0, 256(SI), Z30, Z4
	VGF2P8AFFINEQB $0, 320(SI), Z30, Z5
	VGF2P8AFFINEQB $0, 384(SI), Z30, Z6
	VGF2P8AFFINEQB $0, 448(SI), Z30, Z7
	GFREV(Z0); GFREV(Z1); GFREV(Z2); GFREV(Z3)
	GFREV(Z4); GFREV(Z5); GFREV(Z6); GFREV(Z7)
	PERMB8
	QT8
	STOREROWS8
	ADDQ           $512, SI
	ADDQ           $64, DI
	DECQ           AX
	JNZ            loop

done:
	VZEROUPPER
	RET

// 512 destination bytes per iteration: the word transpose (QT8), a byte
// transpose that also reverses the bytes of every word (permT8Rev), so
// that one VGF2P8AFFINEQB completes the bit transpose.
//
// func bitUntransAVX512(dst, src []byte, stride, n int)
TEXT ·bitUntransAVX512(SB), NOSPLIT, $0-64
	ARGS512(·permT8Rev<>, 9)
	GFCONST
	JZ      done

loop:
	PREFETCHDST8
	LOADROWS8
	QT8
	PERMB8
	GFT(Z0); GFT(Z1); GFT(Z2); GFT(Z3)
	GFT(Z4); GFT(Z5); GFT(Z6); GFT(Z7)
	STORE8
	ADDQ           $64, SI
	ADDQ           $512, DI
	DECQ           AX
	JNZ            loop

done:
	VZEROUPPER
	RET
