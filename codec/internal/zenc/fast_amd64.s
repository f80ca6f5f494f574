//go:build gc && !purego && !noasm

#include "go_asm.h"
#include "textflag.h"
#include "search_amd64.h"

// fastAsm(st *searchState) is fastGo's loop (fast.go), statement for
// statement; the comments name fastGo's variables. Registers:
//   DI  st                 SI  &src[0]
//   R8  &table[0]          R12 64-hashLog
//   R10 ip0                R11 ip1
//   R13 ip2                R14 ip3, then match0
//   R15 hash0, then mLength
//   BX  hash1              CX  idx
//   AX, DX, R9             scratch
// st holds the rest: base, ilimit, step, next(Step), curr (current0),
// anchor, the search's rep1 and rep2, the decoder's reps, the ends of
// seqs and lits.
// NEXT: each half's move on: idx = table[hash1], hash0 = hash1, hash1 =
// the hash at ip2, ip0 = ip1, ip1 = ip2.
#define NEXT \
	MOVL  (R8)(BX*4), CX            \
	SUBQ  searchState_base(DI), CX  \
	MOVQ  BX, R15                   \
	HASH(R13, BX)                   \
	MOVQ  R11, R10                  \
	MOVQ  R13, R11

// CANDIDATE(miss, found): to found if idx (CX) is a candidate whose 4
// bytes are ip0's, else on (to miss where it is not; clobbers R9).
#define CANDIDATE(miss, found) \
	TESTQ CX, CX           \
	JLE   miss             \
	MOVL  (SI)(CX*1), R9   \
	CMPL  R9, (SI)(R10*1)  \
	JEQ   found

TEXT ·fastAsm(SB), NOSPLIT, $0-8
	MOVQ st+0(FP), DI
	ENTER

outer:
	// _start: step, nextStep, ip1-ip3; hash0, hash1 and idx.
	MOVQ $2, searchState_step(DI)
	LEAQ 128(R10), AX
	MOVQ AX, searchState_next(DI)
	LEAQ 1(R10), R11
	LEAQ 2(R10), R13
	LEAQ 3(R10), R14
	CMPQ R14, searchState_ilimit(DI)
	JGE  done
	HASH(R10, R15)
	HASH(R11, BX)
	MOVL (R8)(R15*4), CX
	SUBQ searchState_base(DI), CX

search:
	// table[hash0] = ip0; the last offset at ip2.
	SET(R8, R15, R10, DX)
	LAST_OFFSET(R13, 0, R9, norep)
	JMP repFound

norep:
	// The candidate at ip0.
	CANDIDATE(miss1, found1)

miss1:
	// Look up ip1, hash ip2, advance by one; table[hash0] = ip0; the
	// candidate at ip0.
	NEXT
	MOVQ  R14, R13
	SET(R8, R15, R10, DX)
	CANDIDATE(miss2, found2)

miss2:
	// Look up ip1, hash ip2, advance by the step.
	NEXT
	MOVQ R10, R13
	ADDQ searchState_step(DI), R13
	MOVQ R11, R14
	ADDQ searchState_step(DI), R14
	CMPQ R13, searchState_next(DI)
	JLT  stepped
	INCQ searchState_step(DI)
	ADDQ $128, searchState_next(DI)

stepped:
	CMPQ R14, searchState_ilimit(DI)
	JLT  search
	JMP  done

repFound:
	// The last offset at ip2 (match0 = ip2-rep1, in DX), one byte back
	// if it matches there too; table[hash1] = ip1.
	MOVQ    R10, searchState_curr(DI)
	SET(R8, BX, R11, R9)
	MOVQ    R13, R10
	MOVQ    DX, R14
	MOVQ    $4, R15
	MOVBLZX -1(SI)(R10*1), AX
	CMPB    AX, -1(SI)(R14*1)
	JNE     match
	DECQ    R10
	DECQ    R14
	INCQ    R15
	JMP     match

found2:
	// table[hash1] = ip1 while the step is 4 or less.
	MOVQ R10, searchState_curr(DI)
	CMPQ searchState_step(DI), $4
	JGT  offset
	SET(R8, BX, R11, R9)
	JMP  offset

found1:
	MOVQ R10, searchState_curr(DI)
	SET(R8, BX, R11, R9)

offset:
	// _offset: a new offset; extend the match backwards.
	MOVQ CX, R14
	MOVL searchState_rep1(DI), AX
	MOVL AX, searchState_rep2(DI)
	MOVQ R10, AX
	SUBQ R14, AX
	MOVL AX, searchState_rep1(DI)
	MOVQ $4, R15

	EXTEND_BACK(R10, R14, R15, AX, back, match)

match:
	// _match: mLength += matchLen(match0+mLength, ip0+mLength); the
	// sequence, its offset rep1 (ip0-match0).
	LEAQ (R14)(R15*1), AX
	LEAQ (R10)(R15*1), BX
	MATCH_LEN(AX, BX, DX, CX, mLoop16, mDiff16, mLoop, mTail, mDiff, mDone)
	ADDQ DX, R15
	// The sequence; the table's entries at current0+2 and ip0-2.
	MATCHED(outer, stCopy16, stCopy1, stCopied, stNoLits, stV3, stVNew, stRot, stSwap, stSeq)

repeats:
	// The second last offset at ip0, as long as it matches.
	REPEAT(outer, rpLoop16, rpDiff16, rpLoop, rpTail, rpDiff, rpDone)
	HASH(R10, AX)
	SET(R8, AX, R10, BX)
	REPEATED(repeats, rpCopy16, rpCopy1, rpCopied, rpNoLits, rpV3, rpVNew, rpRot, rpSwap, rpSeq)

done:
	RET
