//go:build gc && !purego && !noasm

#include "textflag.h"

// BYTEDELTA kernels for amd64, SSE2 and AVX2 (declarations and contracts in
// bytedelta_amd64.go). Each handles whole vectors; the Go drivers
// (diffBytesVec, sumBytesVec) do the first byte and the tails.
//
// The running sum (sum kernels) is split so that its loop-carried chain is a
// single byte addition per vector: each vector's prefix sum is computed on
// its own (log-step shift and add, within the vector), then the carry C,
// the running total broadcast to every byte, is added to it; the next carry
// is C plus the broadcast of the vector's own total, which does not depend
// on C. Everything but that one PADDB overlaps across iterations.

// func diffSSE2(dst, src []byte, n int)
// dst[i] = src[i+1] - src[i], i < n, n a positive multiple of 16.
TEXT ·diffSSE2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ n+48(FP), AX
	SHRQ $4, AX
	JZ   done

loop:
	MOVOU 1(SI), X0
	MOVOU (SI), X1
	PSUBB X1, X0
	MOVOU X0, (DI)
	ADDQ  $16, SI
	ADDQ  $16, DI
	DECQ  AX
	JNZ   loop

done:
	RET

// func sumSSE2(dst, src []byte, n int)
// dst[i] = src[0] + ... + src[i] mod 256, i < n, n a positive multiple of 16.
// X7 is the carry. Without PSHUFB the broadcast of byte 15 takes three
// shuffles (bytes to words, word 7 over the high half, dword 3 over all).
TEXT ·sumSSE2(SB), NOSPLIT, $0-56
	MOVQ  dst_base+0(FP), DI
	MOVQ  src_base+24(FP), SI
	MOVQ  n+48(FP), AX
	SHRQ  $4, AX
	JZ    done
	PXOR  X7, X7

loop:
	MOVOU     (SI), X0
	MOVO      X0, X1
	PSLLO     $1, X1
	PADDB     X1, X0
	MOVO      X0, X1
	PSLLO     $2, X1
	PADDB     X1, X0
	MOVO      X0, X1
	PSLLO     $4, X1
	PADDB     X1, X0
	MOVO      X0, X1
	PSLLO     $8, X1
	PADDB     X1, X0             // X0: prefix sums of the 16 bytes
	MOVO      X0, X2
	PUNPCKHBW X2, X2
	PSHUFHW   $0xff, X2, X2
	PSHUFD    $0xff, X2, X2      // X2: byte 15 of X0 everywhere
	PADDB     X7, X0
	MOVOU     X0, (DI)
	PADDB     X2, X7             // the loop-carried addition
	ADDQ      $16, SI
	ADDQ      $16, DI
	DECQ      AX
	JNZ       loop

done:
	RET

// func diffAVX2(dst, src []byte, n int)
// As diffSSE2, n a positive multiple of 32; two vectors per iteration while
// at least two remain.
TEXT ·diffAVX2(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ n+48(FP), AX
	SHRQ $5, AX
	JZ   done
	CMPQ AX, $2
	JB   one

loop2:
	VMOVDQU 1(SI), Y0
	VMOVDQU (SI), Y1
	VMOVDQU 33(SI), Y2
	VMOVDQU 32(SI), Y3
	VPSUBB  Y1, Y0, Y0
	VPSUBB  Y3, Y2, Y2
	VMOVDQU Y0, (DI)
	VMOVDQU Y2, 32(DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $2, AX
	CMPQ    AX, $2
	JAE     loop2
	TESTQ   AX, AX
	JZ      done

one:
	VMOVDQU 1(SI), Y0
	VMOVDQU (SI), Y1
	VPSUBB  Y1, Y0, Y0
	VMOVDQU Y0, (DI)

done:
	VZEROUPPER
	RET

// func sumAVX2(dst, src []byte, n int)
// As sumSSE2, n a positive multiple of 32. VPSLLDQ and VPSHUFB work per
// 128-bit lane, so each lane gets its own prefix sum and its total
// broadcast over the lane (Y2 = [s0 | s1]). One lane swap (VPERM2I128,
// Y3 = [s1 | s0]) serves twice: Y2+Y3 is s0+s1 everywhere, the increment of
// the carry Y15, and Y3 with its low lane zeroed (a blend, which unlike a
// second cross-lane shuffle does not compete with the byte shifts for the
// shuffle ports) completes the prefix of the high lane.
TEXT ·sumAVX2(SB), NOSPLIT, $0-56
	MOVQ         dst_base+0(FP), DI
	MOVQ         src_base+24(FP), SI
	MOVQ         n+48(FP), AX
	SHRQ         $5, AX
	JZ           done
	VPXOR        Y15, Y15, Y15
	VPXOR        Y13, Y13, Y13      // zero
	MOVQ         $0x0f0f0f0f0f0f0f0f, R8
	MOVQ         R8, X14
	VPBROADCASTQ X14, Y14           // PSHUFB index: byte 15 of the lane

loop:
	VMOVDQU    (SI), Y0
	VPSLLDQ    $1, Y0, Y1
	VPADDB     Y1, Y0, Y0
	VPSLLDQ    $2, Y0, Y1
	VPADDB     Y1, Y0, Y0
	VPSLLDQ    $4, Y0, Y1
	VPADDB     Y1, Y0, Y0
	VPSLLDQ    $8, Y0, Y1
	VPADDB     Y1, Y0, Y0          // Y0: prefix sums within each lane
	VPSHUFB    Y14, Y0, Y2         // [s0 | s1]
	VPERM2I128 $0x01, Y2, Y2, Y3   // [s1 | s0]
	VPADDB     Y3, Y2, Y2          // s0+s1 everywhere
	VPBLENDD   $0x0f, Y13, Y3, Y3  // [0 | s0]
	VPADDB     Y3, Y0, Y0
	VPADDB     Y15, Y0, Y0
	VMOVDQU    Y0, (DI)
	VPADDB     Y2, Y15, Y15        // the loop-carried addition
	ADDQ       $32, SI
	ADDQ       $32, DI
	DECQ       AX
	JNZ        loop

done:
	VZEROUPPER
	RET
