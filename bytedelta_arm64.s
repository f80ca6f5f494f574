//go:build gc && !purego && !noasm

#include "textflag.h"

// BYTEDELTA kernels for arm64 NEON (declarations and contracts in
// bytedelta_arm64.go). Each handles whole 16-byte vectors; the Go drivers
// (diffBytesVec, sumBytesVec) do the first byte and the tails.
//
// The running sum is split as on amd64: each vector's prefix sum is
// computed on its own (four ext-against-zero byte shifts and adds), the
// carry (running total in every byte, V30) is added to it, and the next
// carry is V30 plus the broadcast of the vector's own byte 15, so the
// loop-carried chain is one add per vector. Two vectors per iteration while
// two remain give in-order cores independent work to interleave.

// PREFIX: x = prefix sums of the bytes of x (t scratch, V31 zero).
// VEXT $k, x, V31, t is ext t, V31, x, #k: bytes k..15 of V31 then bytes
// 0..k-1 of x, i.e. x shifted up by 16-k bytes with zeros below.
#define PREFIX(x, t) \
	VEXT $15, x.B16, V31.B16, t.B16; VADD t.B16, x.B16, x.B16; \
	VEXT $14, x.B16, V31.B16, t.B16; VADD t.B16, x.B16, x.B16; \
	VEXT $12, x.B16, V31.B16, t.B16; VADD t.B16, x.B16, x.B16; \
	VEXT $8, x.B16, V31.B16, t.B16; VADD t.B16, x.B16, x.B16

// func diffNEON(dst, src []byte, n int)
// dst[i] = src[i+1] - src[i], i < n, n a positive multiple of 16.
TEXT ·diffNEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD n+48(FP), R3
	ADD  $1, R1, R2
	LSR  $4, R3, R3
	CBZ  R3, done
	CMP  $2, R3
	BLT  one

loop2:
	VLD1.P 32(R2), [V0.B16, V1.B16]
	VLD1.P 32(R1), [V2.B16, V3.B16]
	VSUB   V2.B16, V0.B16, V0.B16
	VSUB   V3.B16, V1.B16, V1.B16
	VST1.P [V0.B16, V1.B16], 32(R0)
	SUB    $2, R3, R3
	CMP    $2, R3
	BGE    loop2
	CBZ    R3, done

one:
	VLD1   (R2), [V0.B16]
	VLD1   (R1), [V2.B16]
	VSUB   V2.B16, V0.B16, V0.B16
	VST1   [V0.B16], (R0)

done:
	RET

// func sumNEON(dst, src []byte, n int)
// dst[i] = src[0] + ... + src[i] mod 256, i < n, n a positive multiple of 16.
TEXT ·sumNEON(SB), NOSPLIT, $0-56
	MOVD dst_base+0(FP), R0
	MOVD src_base+24(FP), R1
	MOVD n+48(FP), R3
	LSR  $4, R3, R3
	CBZ  R3, done
	VEOR V31.B16, V31.B16, V31.B16
	VEOR V30.B16, V30.B16, V30.B16
	CMP  $2, R3
	BLT  one

loop2:
	VLD1.P 32(R1), [V0.B16, V1.B16]
	PREFIX(V0, V2)
	PREFIX(V1, V3)
	VDUP   V0.B[15], V4.B16
	VDUP   V1.B[15], V5.B16
	VADD   V30.B16, V0.B16, V0.B16
	VADD   V4.B16, V30.B16, V30.B16
	VADD   V30.B16, V1.B16, V1.B16
	VADD   V5.B16, V30.B16, V30.B16
	VST1.P [V0.B16, V1.B16], 32(R0)
	SUB    $2, R3, R3
	CMP    $2, R3
	BGE    loop2
	CBZ    R3, done

one:
	VLD1 (R1), [V0.B16]
	PREFIX(V0, V2)
	VADD V30.B16, V0.B16, V0.B16
	VST1 [V0.B16], (R0)

done:
	RET
