// The macros of the match finders' assembly (fast_amd64.s,
// dfast_amd64.s). Their registers: DI holds the *searchState, SI &src[0],
// R10 the position, R15 the match's length where STORE runs; the rest
// are each macro's arguments or said to be clobbered.

// ENTER: SI, R8 (e.hash), R12 and R10 (the search's first position)
// from st (DI), and st's addresses of src[end] and src[len(src)].
#define ENTER \
	MOVQ searchState_src(DI), SI       \
	MOVQ searchState_end(DI), AX       \
	ADDQ SI, AX                        \
	MOVQ AX, searchState_srcEnd(DI)    \
	MOVQ searchState_srcLen(DI), AX    \
	ADDQ SI, AX                        \
	MOVQ AX, searchState_srcLimit(DI)  \
	MOVQ searchState_hash(DI), R8      \
	MOVQ searchState_hashShift(DI), R12 \
	MOVQ searchState_ip(DI), R10

// HASH(pos, dst): dst = the hash at src[pos:] for e.hash (R12 holds
// 64-hashLog); HASH_CHAIN(pos, dst) for e.chain (R13 holds 64-chainLog).
// The multipliers are shifted left by the hasher's in-shift: the word's
// bytes past the hashed ones leave the product's top by it
// (u<<in*prime = u*(prime<<in)).
#define HASH(pos, dst) \
	MOVQ  (SI)(pos*1), dst              \
	IMULQ searchState_hashPrime(DI), dst \
	SHRXQ R12, dst, dst

#define HASH_CHAIN(pos, dst) \
	MOVQ  (SI)(pos*1), dst               \
	IMULQ searchState_chainPrime(DI), dst \
	SHRXQ R13, dst, dst

// MATCH_LEN(a, b, n, t, loop16, diff16, loop, tail, diff, done): n = how
// many bytes from src[a:] and src[b:] are equal, up to src[end]
// (matchLen): 16 bytes a step with SSE2 while 16 remain, then 8, then
// one. a and b are made addresses (clobbers a, b, t, X2 and X3).
#define MATCH_LEN(a, b, n, t, loop16, diff16, loop, tail, diff, done) \
	ADDQ     SI, a                        \
	ADDQ     SI, b                        \
	XORQ     n, n                         \
loop16:                                   \
	LEAQ     16(b)(n*1), t                \
	CMPQ     t, searchState_srcEnd(DI)     \
	JHI      loop                         \
	MOVOU    (a)(n*1), X2                 \
	MOVOU    (b)(n*1), X3                 \
	PCMPEQB  X3, X2                       \
	PMOVMSKB X2, t                        \
	XORL     $0xFFFF, t                   \
	JNZ      diff16                       \
	ADDQ     $16, n                       \
	JMP      loop16                       \
diff16:                                   \
	TZCNTL   t, t                         \
	ADDQ     t, n                         \
	JMP      done                         \
loop:                                     \
	LEAQ     8(b)(n*1), t                 \
	CMPQ     t, searchState_srcEnd(DI)     \
	JHI      tail                         \
	MOVQ     (a)(n*1), t                  \
	XORQ     (b)(n*1), t                  \
	JNZ      diff                         \
	ADDQ     $8, n                        \
	JMP      loop                         \
diff:                                     \
	TZCNTQ   t, t                         \
	SHRQ     $3, t                        \
	ADDQ     t, n                         \
	JMP      done                         \
tail:                                     \
	LEAQ     (b)(n*1), t                  \
	CMPQ     t, searchState_srcEnd(DI)     \
	JCC      done                         \
	MOVBLZX  (a)(n*1), t                  \
	CMPB     t, (b)(n*1)                  \
	JNE      done                         \
	INCQ     n                            \
	JMP      tail                         \
done:

// STORE(copy16, copy1, copied, nolits, v3, vnew, rot, swap, seqOut):
// store(src[anchor:ip], st.rep1, R15): the literals copied 16 bytes at
// a time while src holds 16 from the copy's start (the bytes past them
// in lits are overwritten by the next run's, as store's are), the offset coded against st.reps, the sequence appended
// (clobbers AX, BX, CX, DX, R11, R14, X0).
#define STORE(copy16, copy1, copied, nolits, v3, vnew, rot, swap, seqOut) \
	MOVQ  searchState_anchor(DI), AX       \
	MOVQ  R10, CX                         \
	SUBQ  AX, CX                          \
	ADDQ  SI, AX                          \
	MOVQ  searchState_lits(DI), DX         \
	ADDQ  searchState_nLits(DI), DX        \
	XORQ  BX, BX                          \
copy16:                                   \
	CMPQ  BX, CX                          \
	JCC   copied                          \
	LEAQ  16(AX)(BX*1), R11               \
	CMPQ  R11, searchState_srcLimit(DI)    \
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
	ADDQ  CX, searchState_nLits(DI)        \
	MOVL  searchState_rep1(DI), AX         \
	MOVL  (searchState_reps+0)(DI), BX     \
	MOVL  (searchState_reps+4)(DI), DX     \
	MOVL  (searchState_reps+8)(DI), R11    \
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
	MOVL  AX, (searchState_reps+0)(DI)     \
	MOVL  BX, (searchState_reps+4)(DI)     \
	MOVL  DX, (searchState_reps+8)(DI)     \
	JMP   seqOut                          \
swap:                                     \
	MOVL  DX, (searchState_reps+0)(DI)     \
	MOVL  BX, (searchState_reps+4)(DI)     \
	JMP   seqOut                          \
rot:                                      \
	MOVL  R11, (searchState_reps+0)(DI)    \
	MOVL  BX, (searchState_reps+4)(DI)     \
	MOVL  DX, (searchState_reps+8)(DI)     \
seqOut:                                   \
	MOVQ  searchState_nSeqs(DI), AX        \
	LEAQ  (AX)(AX*2), BX                  \
	SHLQ  $2, BX                          \
	ADDQ  searchState_seqs(DI), BX         \
	MOVL  CX, seq_litLen(BX)              \
	LEAL  -3(R15), DX                     \
	MOVL  DX, seq_matchLen(BX)            \
	MOVL  R14, seq_offset(BX)             \
	INCQ  AX                              \
	MOVQ  AX, searchState_nSeqs(DI)

// SET(table, hash, pos, t): table[hash] = pos+base (clobbers t).
#define SET(table, hash, pos, t) \
	MOVQ searchState_base(DI), t \
	ADDQ pos, t                 \
	MOVL t, (table)(hash*4)

// REPEAT(outer, loop16, diff16, loop, tail, diff, done): the second
// last offset at R10: unless it is 0, R10 is past ilimit or the 4 bytes
// there differ (then to outer), R15 = the match's length and the two
// last offsets swapped (clobbers AX, BX, CX, DX, X2, X3).
#define REPEAT(outer, loop16, diff16, loop, tail, diff, done) \
	MOVL  searchState_rep2(DI), AX    \
	TESTL AX, AX                      \
	JZ    outer                       \
	CMPQ  R10, searchState_ilimit(DI) \
	JGT   outer                       \
	MOVQ  R10, DX                     \
	SUBQ  AX, DX                      \
	MOVL  (SI)(DX*1), BX              \
	CMPL  BX, (SI)(R10*1)             \
	JNE   outer                       \
	LEAQ  4(DX), AX                   \
	LEAQ  4(R10), BX                  \
	MATCH_LEN(AX, BX, R15, CX, loop16, diff16, loop, tail, diff, done) \
	ADDQ  $4, R15                     \
	MOVL  searchState_rep1(DI), AX    \
	MOVL  searchState_rep2(DI), BX    \
	MOVL  BX, searchState_rep1(DI)    \
	MOVL  AX, searchState_rep2(DI)

// MATCHED(outer, store labels...): after a match found at R10 (of length
// R15, its offset st.rep1): the sequence stored, R10 and the anchor past
// the match; past ilimit, to outer; else e.hash's entries for curr+2 (left
// in CX) and R10-2 (clobbers AX, BX, CX, DX, R11, R14, X0).
#define MATCHED(outer, copy16, copy1, copied, nolits, v3, vnew, rot, swap, seqOut) \
	STORE(copy16, copy1, copied, nolits, v3, vnew, rot, swap, seqOut) \
	ADDQ R15, R10                     \
	MOVQ R10, searchState_anchor(DI)  \
	CMPQ R10, searchState_ilimit(DI)  \
	JGT  outer                        \
	MOVQ searchState_curr(DI), CX     \
	ADDQ $2, CX                       \
	HASH(CX, AX)                      \
	SET(R8, AX, CX, BX)               \
	LEAQ -2(R10), DX                  \
	HASH(DX, AX)                      \
	SET(R8, AX, DX, BX)

// REPEATED(again, store labels...): the repeat match REPEAT found stored,
// R10 and the anchor past it, and to again.
#define REPEATED(again, copy16, copy1, copied, nolits, v3, vnew, rot, swap, seqOut) \
	STORE(copy16, copy1, copied, nolits, v3, vnew, rot, swap, seqOut) \
	ADDQ R15, R10                     \
	MOVQ R10, searchState_anchor(DI)  \
	JMP  again

// EXTEND_BACK(pos, match, len, t, loop, done): the match at pos from
// match, of length len, extended backwards while pos is past the anchor,
// match past 0 and the bytes before them equal; then to done (clobbers
// t).
#define EXTEND_BACK(pos, match, len, t, loop, done) \
loop:                                  \
	CMPQ    pos, searchState_anchor(DI) \
	JLE     done                       \
	TESTQ   match, match               \
	JLE     done                       \
	MOVBLZX -1(SI)(pos*1), t           \
	CMPB    t, -1(SI)(match*1)         \
	JNE     done                       \
	DECQ    pos                        \
	DECQ    match                      \
	INCQ    len                        \
	JMP     loop

// LAST_OFFSET(pos, k, t, miss): to miss unless the last offset (st.rep1)
// is set and the 4 bytes at pos+k equal those it reaches back to; DX is
// left at pos-rep1 (clobbers AX and t).
#define LAST_OFFSET(pos, k, t, miss) \
	MOVL  searchState_rep1(DI), AX \
	TESTL AX, AX                   \
	JZ    miss                     \
	MOVQ  pos, DX                  \
	SUBQ  AX, DX                   \
	MOVL  k(SI)(DX*1), t           \
	CMPL  t, k(SI)(pos*1)          \
	JNE   miss
