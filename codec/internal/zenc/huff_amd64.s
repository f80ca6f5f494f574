//go:build gc && !purego && !noasm

#include "textflag.h"

// huffRoundsAsm(out, lits *byte, n int, code *[256]uint64, acc, bits uint64)
// (end *byte, accOut, bitsOut uint64) is huffRoundsGo's loop (huff.go),
// statement for statement; the comments name its variables.
// Registers:
//   DI  &buf[pos]          SI  lits
//   BX  i                  DX  code
//   R8  acc                R9  bits
//   R13 acc2               R14 bits2
//   R10, R11, R12          scratch

// CODE(off, acc, bits): acc, bits = acc>>(c&63)|c, bits+c, c the code of
// lits[i+off].
#define CODE(off, acc, bits) \
	MOVBQZX off(SI)(BX*1), R10 \
	MOVQ    (DX)(R10*8), R10   \
	SHRXQ   R10, acc, acc      \
	ORQ     R10, acc           \
	ADDQ    R10, bits

// LAST(off, acc, bits): a round's last code, without its length bits:
// acc, bits = acc>>(c&63)|c&^0xFF, bits+c.
#define LAST(off, acc, bits) \
	MOVBQZX off(SI)(BX*1), R10 \
	MOVQ    (DX)(R10*8), R10   \
	SHRXQ   R10, acc, acc      \
	ADDQ    R10, bits          \
	ANDQ    $-256, R10         \
	ORQ     R10, acc

// FLUSH: pos, bits = flushTop(buf, pos, acc, bits): acc>>((64-n)&63)
// stored at pos, pos past its whole bytes, the bits left.
#define FLUSH \
	MOVBQZX R9, R9        \
	MOVQ    R9, R11       \
	NEGQ    R11           \
	SHRXQ   R11, R8, R12  \
	MOVQ    R12, (DI)     \
	MOVQ    R9, R11       \
	SHRQ    $3, R11       \
	ADDQ    R11, DI       \
	ANDQ    $7, R9

TEXT ·huffRoundsAsm(SB), NOSPLIT, $0-72
	MOVQ out+0(FP), DI
	MOVQ lits+8(FP), SI
	MOVQ n+16(FP), BX
	MOVQ code+24(FP), DX
	MOVQ acc+32(FP), R8
	MOVQ bits+40(FP), R9
	TESTQ BX, BX
	JZ   done

loop:
	// The first round, into acc: codes l[9] to l[5].
	CODE(-1, R8, R9)
	CODE(-2, R8, R9)
	CODE(-3, R8, R9)
	CODE(-4, R8, R9)
	LAST(-5, R8, R9)
	FLUSH

	// The second, into acc2 from d0 = code[l[4]]: l[3] to l[0].
	MOVBQZX -6(SI)(BX*1), R13
	MOVQ    (DX)(R13*8), R13
	MOVQ    R13, R14
	CODE(-7, R13, R14)
	CODE(-8, R13, R14)
	CODE(-9, R13, R14)
	LAST(-10, R13, R14)

	// acc, bits = acc>>(bits2&63)|acc2, bits+bits2&0xFF (FLUSH reads
	// bits' low byte only).
	SHRXQ R14, R8, R8
	ORQ   R13, R8
	ADDQ  R14, R9
	FLUSH

	SUBQ $10, BX
	JNZ  loop

done:
	MOVQ DI, end+48(FP)
	MOVQ R8, accOut+56(FP)
	MOVQ R9, bitsOut+64(FP)
	RET
