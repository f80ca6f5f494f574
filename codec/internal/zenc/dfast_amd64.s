//go:build gc && !purego && !noasm

#include "go_asm.h"
#include "textflag.h"
#include "search_amd64.h"

// dfastAsm(st *searchState) is dfastGo's loop (dfast.go), statement for
// statement; the comments name dfastGo's variables. Registers:
//   DI  st                 SI  &src[0]
//   R8  &long[0] (e.hash)  R9  &short[0] (e.chain)
//   R10 ip                 R11 ip1
//   R12 64-hashLog         R13 64-chainLog
//   R14 idxl0, then m      R15 hl0, then mLength
//   AX, BX, CX, DX         scratch
// st holds the rest: base, ilimit, step, next(Step), curr, anchor, the
// search's rep1 and rep2, the decoder's reps, the ends of seqs and lits.

TEXT ·dfastAsm(SB), NOSPLIT, $0-8
	MOVQ st+0(FP), DI
	ENTER
	MOVQ searchState_chain(DI), R9
	MOVQ searchState_chainShift(DI), R13

outer:
	// step, nextStep, ip1; hl0 and idxl0.
	MOVQ $1, searchState_step(DI)
	LEAQ 256(R10), AX
	MOVQ AX, searchState_next(DI)
	LEAQ 1(R10), R11
	CMPQ R11, searchState_ilimit(DI)
	JGT  done
	HASH(R10, R15)
	MOVL (R8)(R15*4), R14
	SUBQ searchState_base(DI), R14

search:
	// hs0, idxs0 (CX); both tables' entries for ip.
	HASH_CHAIN(R10, AX)
	MOVL (R9)(AX*4), CX
	SUBQ searchState_base(DI), CX
	SET(R8, R15, R10, DX)
	MOVL DX, (R9)(AX*4)

	// The last offset at ip+1.
	LAST_OFFSET(R10, 1, BX, norep)
	JMP repMatch

norep:
	// hl1 (DX); the long candidate at ip.
	HASH(R11, DX)
	TESTQ R14, R14
	JLE   nolong
	MOVQ  (SI)(R14*1), BX
	CMPQ  BX, (SI)(R10*1)
	JEQ   longMatch

nolong:
	// idxl1 (AX); the short candidate at ip.
	MOVL  (R8)(DX*4), AX
	SUBQ  searchState_base(DI), AX
	TESTQ CX, CX
	JLE   noshort
	MOVL  (SI)(CX*1), BX
	CMPL  BX, (SI)(R10*1)
	JEQ   shortMatch

noshort:
	CMPQ R11, searchState_next(DI)
	JLT  stepped
	INCQ searchState_step(DI)
	ADDQ $256, searchState_next(DI)

stepped:
	MOVQ R11, R10
	ADDQ searchState_step(DI), R11
	MOVQ DX, R15
	MOVQ AX, R14
	CMPQ R11, searchState_ilimit(DI)
	JLE  search
	JMP  done

repMatch:
	// mLength = matchLen(ip+5-rep1, ip+5) + 4 at ip+1, the offset rep1.
	MOVQ R10, searchState_curr(DI)
	LEAQ 5(DX), AX
	LEAQ 5(R10), BX
	MATCH_LEN(AX, BX, R15, CX, rmLoop16, rmDiff16, rmLoop, rmTail, rmDiff, rmDone)
	ADDQ $4, R15
	INCQ R10
	JMP  store

longMatch:
	// m = idxl0, mLength = matchLen(idxl0+8, ip+8) + 8.
	MOVQ R10, searchState_curr(DI)
	CMPQ searchState_step(DI), $4
	JGE  lmSet
	SET(R8, DX, R11, BX)

lmSet:
	LEAQ 8(R14), AX
	LEAQ 8(R10), BX
	MATCH_LEN(AX, BX, R15, CX, lmLoop16, lmDiff16, lmLoop, lmTail, lmDiff, lmDone)
	ADDQ $8, R15
	JMP  found

shortMatch:
	// A long match at ip1, else the short one at ip.
	MOVQ R10, searchState_curr(DI)
	CMPQ searchState_step(DI), $4
	JGE  smSet
	SET(R8, DX, R11, BX)

smSet:
	TESTQ AX, AX
	JLE   shortOnly
	MOVQ  (SI)(AX*1), BX
	CMPQ  BX, (SI)(R11*1)
	JNE   shortOnly
	MOVQ  R11, R10
	MOVQ  AX, R14
	LEAQ  8(AX), AX
	LEAQ  8(R10), BX
	MATCH_LEN(AX, BX, R15, CX, slLoop16, slDiff16, slLoop, slTail, slDiff, slDone)
	ADDQ  $8, R15
	JMP   found

shortOnly:
	MOVQ CX, R14
	LEAQ 4(CX), AX
	LEAQ 4(R10), BX
	MATCH_LEN(AX, BX, R15, CX, ssLoop16, ssDiff16, ssLoop, ssTail, ssDiff, ssDone)
	ADDQ $4, R15

found:
	// Extend the match at ip from m backwards; the offset is new.
	EXTEND_BACK(R10, R14, R15, AX, back, extended)

extended:
	MOVL searchState_rep1(DI), AX
	MOVL AX, searchState_rep2(DI)
	MOVQ R10, AX
	SUBQ R14, AX
	MOVL AX, searchState_rep1(DI)

store:
	// The sequence; both tables' entries at curr+2 and near the
	// match's end.
	MATCHED(outer, stCopy16, stCopy1, stCopied, stNoLits, stV3, stVNew, stRot, stSwap, stSeq)
	HASH_CHAIN(CX, AX)
	SET(R9, AX, CX, BX)
	LEAQ -1(R10), DX
	HASH_CHAIN(DX, AX)
	SET(R9, AX, DX, BX)

repeats:
	// The second last offset at ip, as long as it matches.
	REPEAT(outer, rpLoop16, rpDiff16, rpLoop, rpTail, rpDiff, rpDone)
	HASH_CHAIN(R10, AX)
	SET(R9, AX, R10, BX)
	HASH(R10, AX)
	SET(R8, AX, R10, BX)
	REPEATED(repeats, rpCopy16, rpCopy1, rpCopied, rpNoLits, rpV3, rpVNew, rpRot, rpSwap, rpSeq)

done:
	RET
