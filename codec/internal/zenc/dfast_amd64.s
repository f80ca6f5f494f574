//go:build gc && !purego && !noasm

#include "go_asm.h"
#include "textflag.h"

// dfastAsm(st *dfastState) is dfastGo's loop (dfast.go), statement for
// statement; the comments name dfastGo's variables. Registers:
//   DI  st                 SI  &src[0]
//   R8  &long[0]           R9  &short[0]
//   R10 ip                 R11 ip1
//   R12 64-hashLog         R13 64-chainLog
//   R14 idxl0, then m      R15 hl0, then mLength
//   AX, BX, CX, DX         scratch
// st holds the rest: base, ilimit, step, next(Step), curr, anchor, the
// search's rep1 and rep2, the decoder's reps, the ends of seqs and lits.

// HASH_LONG(pos, dst): dst = the 8-byte hash at src[pos:].
#define HASH_LONG(pos, dst) \
	MOVQ  (SI)(pos*1), dst             \
	IMULQ dfastState_longPrime(DI), dst \
	SHRXQ R12, dst, dst

// HASH_SHORT(pos, dst): dst = the minMatch-byte hash at src[pos:]: the
// word's bytes past minMatch leave the product's top by the multiplier's
// shift (u<<in*prime = u*(prime<<in)).
#define HASH_SHORT(pos, dst) \
	MOVQ  (SI)(pos*1), dst              \
	IMULQ dfastState_shortPrime(DI), dst \
	SHRXQ R13, dst, dst

// MATCH_LEN(a, b, n, t, loop, tail, diff, done): n = how many bytes from
// src[a:] and src[b:] are equal, up to src[end] (matchLen). a and b are
// made addresses (clobbers a, b and t).
#define MATCH_LEN(a, b, n, t, loop, tail, diff, done) \
	ADDQ  SI, a                        \
	ADDQ  SI, b                        \
	XORQ  n, n                         \
loop:                                  \
	LEAQ  8(b)(n*1), t                 \
	CMPQ  t, dfastState_srcEnd(DI)     \
	JHI   tail                         \
	MOVQ  (a)(n*1), t                  \
	XORQ  (b)(n*1), t                  \
	JNZ   diff                         \
	ADDQ  $8, n                        \
	JMP   loop                         \
diff:                                  \
	TZCNTQ t, t                        \
	SHRQ  $3, t                        \
	ADDQ  t, n                         \
	JMP   done                         \
tail:                                  \
	LEAQ  (b)(n*1), t                  \
	CMPQ  t, dfastState_srcEnd(DI)     \
	JCC   done                         \
	MOVBLZX (a)(n*1), t                \
	CMPB  t, (b)(n*1)                  \
	JNE   done                         \
	INCQ  n                            \
	JMP   tail                         \
done:

// STORE(copy16, copy1, copied, nolits, v3, vnew, rot, swap, seqOut):
// store(src[anchor:ip], st.rep1, R15): the literals copied 16 bytes at
// a time while src holds 16 from the copy's start (the bytes past them
// in lits are overwritten by the next run's, as store's are), the offset coded against st.reps, the sequence appended
// (clobbers AX, BX, CX, DX, R11, R14, X0).
#define STORE(copy16, copy1, copied, nolits, v3, vnew, rot, swap, seqOut) \
	MOVQ  dfastState_anchor(DI), AX       \
	MOVQ  R10, CX                         \
	SUBQ  AX, CX                          \
	ADDQ  SI, AX                          \
	MOVQ  dfastState_lits(DI), DX         \
	ADDQ  dfastState_nLits(DI), DX        \
	XORQ  BX, BX                          \
copy16:                                   \
	CMPQ  BX, CX                          \
	JCC   copied                          \
	LEAQ  16(AX)(BX*1), R11               \
	CMPQ  R11, dfastState_srcLimit(DI)    \
	JHI   copy1                           \
	MOVOU (AX)(BX*1), X0                  \
	MOVOU X0, (DX)(BX*1)                  \
	ADDQ  $16, BX                         \
	JMP   copy16                          \
copy1:                                    \
	CMPQ  BX, CX                          \
	JCC   copied                          \
	MOVBLZX (AX)(BX*1), R11               \
	MOVB  R11, (DX)(BX*1)                 \
	INCQ  BX                              \
	JMP   copy1                           \
copied:                                   \
	ADDQ  CX, dfastState_nLits(DI)        \
	MOVL  dfastState_rep1(DI), AX         \
	MOVL  (dfastState_reps+0)(DI), BX     \
	MOVL  (dfastState_reps+4)(DI), DX     \
	MOVL  (dfastState_reps+8)(DI), R11    \
	TESTQ CX, CX                          \
	JZ    nolits                          \
	MOVL  $1, R14                         \
	CMPL  AX, BX                          \
	JEQ   seqOut                          \
	MOVL  $2, R14                         \
	CMPL  AX, DX                          \
	JEQ   swap                            \
	MOVL  $3, R14                         \
	CMPL  AX, R11                         \
	JEQ   rot                             \
	JMP   vnew                            \
nolits:                                   \
	MOVL  $1, R14                         \
	CMPL  AX, DX                          \
	JEQ   swap                            \
	MOVL  $2, R14                         \
	CMPL  AX, R11                         \
	JEQ   rot                             \
	MOVL  $3, R14                         \
	LEAL  -1(BX), R11                     \
	CMPL  AX, R11                         \
	JEQ   v3                              \
vnew:                                     \
	LEAL  3(AX), R14                      \
v3:                                       \
	MOVL  AX, (dfastState_reps+0)(DI)     \
	MOVL  BX, (dfastState_reps+4)(DI)     \
	MOVL  DX, (dfastState_reps+8)(DI)     \
	JMP   seqOut                          \
swap:                                     \
	MOVL  DX, (dfastState_reps+0)(DI)     \
	MOVL  BX, (dfastState_reps+4)(DI)     \
	JMP   seqOut                          \
rot:                                      \
	MOVL  R11, (dfastState_reps+0)(DI)    \
	MOVL  BX, (dfastState_reps+4)(DI)     \
	MOVL  DX, (dfastState_reps+8)(DI)     \
seqOut:                                   \
	MOVQ  dfastState_nSeqs(DI), AX        \
	LEAQ  (AX)(AX*2), BX                  \
	SHLQ  $2, BX                          \
	ADDQ  dfastState_seqs(DI), BX         \
	MOVL  CX, seq_litLen(BX)              \
	LEAL  -3(R15), DX                     \
	MOVL  DX, seq_matchLen(BX)            \
	MOVL  R14, seq_offset(BX)             \
	INCQ  AX                              \
	MOVQ  AX, dfastState_nSeqs(DI)

// SET(table, hash, pos, t): table[hash] = pos+base (clobbers t).
#define SET(table, hash, pos, t) \
	MOVQ dfastState_base(DI), t \
	ADDQ pos, t                 \
	MOVL t, (table)(hash*4)

TEXT ·dfastAsm(SB), NOSPLIT, $0-8
	MOVQ st+0(FP), DI
	MOVQ dfastState_src(DI), SI
	MOVQ dfastState_end(DI), AX
	ADDQ SI, AX
	MOVQ AX, dfastState_srcEnd(DI)
	MOVQ dfastState_srcLen(DI), AX
	ADDQ SI, AX
	MOVQ AX, dfastState_srcLimit(DI)
	MOVQ dfastState_long(DI), R8
	MOVQ dfastState_short(DI), R9
	MOVQ dfastState_longShift(DI), R12
	MOVQ dfastState_shortShift(DI), R13
	MOVQ dfastState_ip(DI), R10

outer:
	// step, nextStep, ip1; hl0 and idxl0.
	MOVQ $1, dfastState_step(DI)
	LEAQ 256(R10), AX
	MOVQ AX, dfastState_next(DI)
	LEAQ 1(R10), R11
	CMPQ R11, dfastState_ilimit(DI)
	JGT  done
	HASH_LONG(R10, R15)
	MOVL (R8)(R15*4), R14
	SUBQ dfastState_base(DI), R14

search:
	// hs0, idxs0 (CX); both tables' entries for ip.
	HASH_SHORT(R10, AX)
	MOVL (R9)(AX*4), CX
	SUBQ dfastState_base(DI), CX
	SET(R8, R15, R10, DX)
	MOVL DX, (R9)(AX*4)

	// The last offset at ip+1.
	MOVL  dfastState_rep1(DI), AX
	TESTL AX, AX
	JZ    norep
	MOVQ  R10, DX
	SUBQ  AX, DX
	MOVL  1(SI)(DX*1), BX
	CMPL  BX, 1(SI)(R10*1)
	JEQ   repMatch

norep:
	// hl1 (DX); the long candidate at ip.
	HASH_LONG(R11, DX)
	TESTQ R14, R14
	JLE   nolong
	MOVQ  (SI)(R14*1), BX
	CMPQ  BX, (SI)(R10*1)
	JEQ   longMatch

nolong:
	// idxl1 (AX); the short candidate at ip.
	MOVL  (R8)(DX*4), AX
	SUBQ  dfastState_base(DI), AX
	TESTQ CX, CX
	JLE   noshort
	MOVL  (SI)(CX*1), BX
	CMPL  BX, (SI)(R10*1)
	JEQ   shortMatch

noshort:
	CMPQ R11, dfastState_next(DI)
	JLT  stepped
	INCQ dfastState_step(DI)
	ADDQ $256, dfastState_next(DI)

stepped:
	MOVQ R11, R10
	ADDQ dfastState_step(DI), R11
	MOVQ DX, R15
	MOVQ AX, R14
	CMPQ R11, dfastState_ilimit(DI)
	JLE  search
	JMP  done

repMatch:
	// mLength = matchLen(ip+5-rep1, ip+5) + 4 at ip+1, the offset rep1.
	MOVQ R10, dfastState_curr(DI)
	LEAQ 5(DX), AX
	LEAQ 5(R10), BX
	MATCH_LEN(AX, BX, R15, CX, rmLoop, rmTail, rmDiff, rmDone)
	ADDQ $4, R15
	INCQ R10
	JMP  store

longMatch:
	// m = idxl0, mLength = matchLen(idxl0+8, ip+8) + 8.
	MOVQ R10, dfastState_curr(DI)
	CMPQ dfastState_step(DI), $4
	JGE  lmSet
	SET(R8, DX, R11, BX)

lmSet:
	LEAQ 8(R14), AX
	LEAQ 8(R10), BX
	MATCH_LEN(AX, BX, R15, CX, lmLoop, lmTail, lmDiff, lmDone)
	ADDQ $8, R15
	JMP  found

shortMatch:
	// A long match at ip1, else the short one at ip.
	MOVQ R10, dfastState_curr(DI)
	CMPQ dfastState_step(DI), $4
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
	MATCH_LEN(AX, BX, R15, CX, slLoop, slTail, slDiff, slDone)
	ADDQ  $8, R15
	JMP   found

shortOnly:
	MOVQ CX, R14
	LEAQ 4(CX), AX
	LEAQ 4(R10), BX
	MATCH_LEN(AX, BX, R15, CX, ssLoop, ssTail, ssDiff, ssDone)
	ADDQ $4, R15

found:
	// Extend the match at ip from m backwards; the offset is new.
	CMPQ    R10, dfastState_anchor(DI)
	JLE     extended
	TESTQ   R14, R14
	JLE     extended
	MOVBLZX -1(SI)(R10*1), AX
	CMPB    AX, -1(SI)(R14*1)
	JNE     extended
	DECQ    R10
	DECQ    R14
	INCQ    R15
	JMP     found

extended:
	MOVL dfastState_rep1(DI), AX
	MOVL AX, dfastState_rep2(DI)
	MOVQ R10, AX
	SUBQ R14, AX
	MOVL AX, dfastState_rep1(DI)

store:
	STORE(stCopy16, stCopy1, stCopied, stNoLits, stV3, stVNew, stRot, stSwap, stSeq)
	ADDQ R15, R10
	MOVQ R10, dfastState_anchor(DI)
	CMPQ R10, dfastState_ilimit(DI)
	JGT  outer

	// Both tables' entries at curr+2 and near the match's end.
	MOVQ dfastState_curr(DI), CX
	ADDQ $2, CX
	HASH_LONG(CX, AX)
	SET(R8, AX, CX, BX)
	LEAQ -2(R10), DX
	HASH_LONG(DX, AX)
	SET(R8, AX, DX, BX)
	HASH_SHORT(CX, AX)
	SET(R9, AX, CX, BX)
	LEAQ -1(R10), DX
	HASH_SHORT(DX, AX)
	SET(R9, AX, DX, BX)

repeats:
	// The second last offset at ip, as long as it matches.
	MOVL  dfastState_rep2(DI), AX
	TESTL AX, AX
	JZ    outer
	CMPQ  R10, dfastState_ilimit(DI)
	JGT   outer
	MOVQ  R10, DX
	SUBQ  AX, DX
	MOVL  (SI)(DX*1), BX
	CMPL  BX, (SI)(R10*1)
	JNE   outer
	LEAQ  4(DX), AX
	LEAQ  4(R10), BX
	MATCH_LEN(AX, BX, R15, CX, rpLoop, rpTail, rpDiff, rpDone)
	ADDQ  $4, R15
	MOVL  dfastState_rep1(DI), AX
	MOVL  dfastState_rep2(DI), BX
	MOVL  BX, dfastState_rep1(DI)
	MOVL  AX, dfastState_rep2(DI)
	HASH_SHORT(R10, AX)
	SET(R9, AX, R10, BX)
	HASH_LONG(R10, AX)
	SET(R8, AX, R10, BX)
	STORE(rpCopy16, rpCopy1, rpCopied, rpNoLits, rpV3, rpVNew, rpRot, rpSwap, rpSeq)
	ADDQ  R15, R10
	MOVQ  R10, dfastState_anchor(DI)
	JMP   repeats

done:
	RET
