//go:build gc && !purego && !noasm

#include "go_asm.h"
#include "textflag.h"
#include "search_amd64.h"

// ADD(i, end, loop, done): finder.add's loop: the positions from i to
// end (excluded) into the hash chain (clobbers i, AX, CX, R11).
#define ADD(i, end, loop, done) \
loop:                                  \
	CMPQ i, end                        \
	JGE  done                          \
	HASH(i, AX)                        \
	MOVL (R8)(AX*4), CX                \
	MOVL i, R11                        \
	ADDL searchState_base(DI), R11     \
	MOVL R11, (R8)(AX*4)               \
	ANDL searchState_chainMask(DI), R11 \
	MOVL CX, (R9)(R11*4)               \
	INCQ i                             \
	JMP  loop                          \
done:

// ROW_OF(h, row): row = where hash h's row starts in the hash table and
// the tags (clobbers R11).
#define ROW_OF(h, row) \
	MOVL  h, row                      \
	SHRL  $8, row                     \
	MOVQ  searchState_rowLog(DI), R11 \
	SHLXQ R11, row, row

// ROW_PREFETCH(h): the start of hash h's row of indices and its tags
// asked for (clobbers CX, R11).
#define ROW_PREFETCH(h) \
	ROW_OF(h, CX)             \
	PREFETCHT0 (R8)(CX*4)     \
	PREFETCHT0 64(R8)(CX*4)   \
	PREFETCHT0 (R9)(CX*1)

// ROW_HASH(pos, dst): finder.rowHash: dst = the cached hash of pos,
// whose slot takes pos+rowCacheSize's (clobbers CX, DX, R11).
#define ROW_HASH(pos, dst) \
	LEAQ const_rowCacheSize(pos), DX          \
	HASH(DX, DX)                              \
	ROW_PREFETCH(DX)                          \
	MOVQ pos, R11                             \
	ANDQ $(const_rowCacheSize-1), R11         \
	MOVL searchState_cache(DI)(R11*4), dst    \
	MOVL DX, searchState_cache(DI)(R11*4)

// ROW_FILL(i, limit, loop, done): finder.rowFill: the hashes of the
// positions from i to min(i+rowCacheSize-1, limit) into the cache
// (clobbers AX, CX, DX, R11, R14).
#define ROW_FILL(i, limit, loop, done) \
	MOVQ    i, AX                             \
	LEAQ    (const_rowCacheSize-1)(i), R14    \
	CMPQ    R14, limit                        \
	CMOVQGT limit, R14                        \
loop:                                         \
	CMPQ    AX, R14                           \
	JGT     done                              \
	HASH(AX, DX)                              \
	ROW_PREFETCH(DX)                          \
	MOVQ    AX, R11                           \
	ANDQ    $(const_rowCacheSize-1), R11      \
	MOVL    DX, searchState_cache(DI)(R11*4)  \
	INCQ    AX                                \
	JMP     loop                              \
done:

// ROW_INSERT(h, idx): finder.rowInsert: index idx, of hash h, at the
// head of its row (clobbers CX, DX, R11).
#define ROW_INSERT(h, idx) \
	ROW_OF(h, CX)                      \
	MOVBLZX (R9)(CX*1), DX             \
	DECL    DX                         \
	ANDL    searchState_rowMask(DI), DX \
	MOVL    searchState_rowMask(DI), R11 \
	CMOVLEQ R11, DX                    \
	MOVB    DX, (R9)(CX*1)             \
	ADDQ    DX, CX                     \
	MOVB    h, (R9)(CX*1)              \
	MOVL    idx, (R8)(CX*4)

// ROW_INSERT_TO(i, end, loop, done): finder.rowInsertTo: the positions
// from i to end (excluded) into the rows (clobbers i, AX, CX, DX, R11,
// R14).
#define ROW_INSERT_TO(i, end, loop, done) \
loop:                                  \
	CMPQ i, end                        \
	JGE  done                          \
	ROW_HASH(i, AX)                    \
	MOVL searchState_base(DI), R14     \
	ADDL i, R14                        \
	ROW_INSERT(AX, R14)                \
	INCQ i                             \
	JMP  loop                          \
done:

// btlazy2's walks down its binary tree (tree.go: treeSort's and
// treeBest's, in lazyAsm): R9 holds &chain[0], R12 the candidate's index,
// R13 and R14 the addresses of the slots where the next smaller and next
// larger candidates are to be linked, R15 the attempts left; the common
// lengths of either side and the slot of a side that is done are memory
// operands.

// TREE_MATCH(pos, labels of MATCH_LEN...): R11 = how many bytes the
// candidate at index R12 shares with the string at pos, at least the
// smaller of the two sides' lengths (st.lenSmaller, st.lenLarger), up
// to src[end]; AX and DX the addresses of the candidate's and pos's
// bytes there (clobbers CX, R8, X2, X3).
#define TREE_MATCH(pos, loop16, diff16, loop, tail, diff, done) \
	MOVQ    searchState_lenSmaller(DI), R11                     \
	MOVQ    searchState_lenLarger(DI), AX                       \
	CMPQ    AX, R11                                             \
	CMOVQLT AX, R11                                             \
	MOVL    R12, AX                                             \
	SUBL    searchState_base(DI), AX                            \
	ADDQ    R11, AX                                             \
	LEAQ    (pos)(R11*1), DX                                    \
	MATCH_LEN(AX, DX, CX, R8, loop16, diff16, loop, tail, diff, done) \
	ADDQ    CX, R11                                             \
	ADDQ    CX, AX                                              \
	ADDQ    CX, DX

// TREE_LINK(low, walk, close, larger, smallerDone, largerDone):
// treeWalk.link after TREE_MATCH: the candidate linked on its side, that
// side's length set to R11; at or below index low that side is done (its
// slot st.unlinked) and the walk goes to close; else R12 is the next
// candidate on that side, an attempt spent, and on to walk (clobbers
// CX).
#define TREE_LINK(low, walk, close, larger, smallerDone, largerDone) \
	MOVBLZX (AX), CX         \
	CMPB    CX, (DX)         \
	MOVL    R12, CX          \
	JCC     larger           \
	MOVL    R12, (R13)       \
	MOVQ    R11, searchState_lenSmaller(DI) \
	CMPL    R12, low         \
	JLS     smallerDone      \
	ANDL    searchState_btMask(DI), CX \
	LEAQ    4(R9)(CX*8), R13 \
	MOVL    (R13), R12       \
	DECQ    R15              \
	JMP     walk             \
smallerDone:                 \
	LEAQ    searchState_unlinked(DI), R13 \
	JMP     close            \
larger:                      \
	MOVL    R12, (R14)       \
	MOVQ    R11, searchState_lenLarger(DI) \
	CMPL    R12, low         \
	JLS     largerDone       \
	ANDL    searchState_btMask(DI), CX \
	LEAQ    (R9)(CX*8), R14  \
	MOVL    (R14), R12       \
	DECQ    R15              \
	JMP     walk             \
largerDone:                  \
	LEAQ    searchState_unlinked(DI), R14 \
	JMP     close

// CANDIDATE(m, t, miss, labels of MATCH_LEN...): finder.best's check of
// the candidate at m for the search at ip (R10): to miss unless the 4
// bytes ending one past the best length so far (R13) are equal and its
// match is longer; then R13 and R15 are its length and offset, and to
// walked where it reaches end (clobbers CX, DX, R11, t, X2, X3).
#define CANDIDATE(m, t, miss, loop16, diff16, loop, tail, diff, done) \
	LEAQ -3(m)(R13*1), CX                                  \
	MOVL (SI)(CX*1), CX                                    \
	LEAQ -3(R10)(R13*1), DX                                \
	CMPL CX, (SI)(DX*1)                                    \
	JNE  miss                                              \
	MOVQ m, CX                                             \
	MOVQ R10, DX                                           \
	MATCH_LEN(CX, DX, R11, t, loop16, diff16, loop, tail, diff, done) \
	CMPQ R11, R13                                          \
	JLE  miss                                              \
	MOVQ R11, R13                                          \
	MOVQ R10, R15                                          \
	SUBQ m, R15                                            \
	LEAQ (R10)(R11*1), CX                                  \
	CMPQ CX, searchState_end(DI)                           \
	JEQ  walked

// lazyAsm(st *searchState) is lazyGo's loop over the hash chain
// (lazy.go), finder.best included, statement for statement; the comments
// name lazyGo's and best's variables. Registers:
//   DI  st                 SI  &src[0]
//   R8  &hash[0]           R9  &chain[0] (rows: &tags[0])
//   R10 ip                 R12 64-hashLog (best: scratch, reloaded)
//   R13 ml                 R14 offBase
//   R15 st (the match's start)
//   AX, BX, CX, DX, R11    scratch
// best runs as a block entered by a jump, st.ret saying where it
// returns; it keeps ml, offBase and st in st.kept* and returns its match
// in BX (length) and CX (offset).
TEXT ·lazyAsm(SB), NOSPLIT, $0-8
	MOVQ st+0(FP), DI
	ENTER
	MOVQ searchState_chain(DI), R9
	CMPB searchState_rows(DI), $0
	JEQ  chained
	MOVQ searchState_tags(DI), R9

	// The rows' cache from the finder's next position (lazyGo's first
	// rowFill).
	MOVQ searchState_nextPos(DI), BX
	MOVQ searchState_ilimit(DI), R13
	ROW_FILL(BX, R13, startFill, startFilled)

chained:
	MOVB $0, searchState_skipping(DI)

loop:
	CMPQ R10, searchState_ilimit(DI)
	JGE  done
	XORQ R13, R13
	MOVQ $1, R14
	LEAQ 1(R10), R15

	// The last offset at ip+1.
	LAST_OFFSET(R10, 1, BX, norep)
	LEAQ  5(DX), AX
	LEAQ  5(R10), BX
	MATCH_LEN(AX, BX, R13, CX, r1Loop16, r1Diff16, r1Loop, r1Tail, r1Diff, r1Done)
	ADDQ  $4, R13

norep:
	TESTQ R13, R13
	JZ    search
	CMPQ  searchState_depth(DI), $0
	JEQ   store

search:
	MOVQ $0, searchState_ret(DI)
	JMP  best

ret0:
	CMPQ BX, R13
	JLE  kept
	MOVQ BX, R13
	MOVQ R10, R15
	LEAQ 3(CX), R14

kept:
	CMPQ R13, $4
	JGE  deeper

	// No match: step on, faster the longer since the anchor.
	MOVQ  R10, AX
	SUBQ  searchState_anchor(DI), AX
	SHRQ  $8, AX
	INCQ  AX
	ADDQ  AX, R10
	CMPQ  AX, $8
	SETHI searchState_skipping(DI)
	JMP   loop

deeper:
	// A better match one or two positions on?
	MOVQ $1, searchState_d(DI)

dloop:
	MOVQ searchState_d(DI), AX
	CMPQ AX, searchState_depth(DI)
	JGT  looked
	CMPQ R10, searchState_ilimit(DI)
	JGE  looked
	INCQ R10

	// The last offset at ip, weighed 3 (4 at depth 2).
	LAST_OFFSET(R10, 0, BX, norep2)
	LEAQ  4(DX), AX
	LEAQ  4(R10), BX
	MATCH_LEN(AX, BX, R11, CX, r2Loop16, r2Diff16, r2Loop, r2Tail, r2Diff, r2Done)
	ADDQ  $4, R11
	MOVQ  $3, AX
	CMPQ  searchState_d(DI), $2
	JNE   weighed
	MOVQ  $4, AX

weighed:
	MOVQ  R11, BX
	IMULQ AX, BX
	MOVQ  R13, CX
	IMULQ AX, CX
	BSRQ  R14, DX
	SUBQ  DX, CX
	INCQ  CX
	CMPQ  BX, CX
	JLE   norep2
	MOVQ  R11, R13
	MOVQ  $1, R14
	MOVQ  R10, R15

norep2:
	MOVQ $1, searchState_ret(DI)
	JMP  best

ret1:
	// ml2 (BX) at least 4 and gain(ml2, off+3, 4) > gain(ml, offBase,
	// 4) + 4 (7 at depth 2).
	CMPQ BX, $4
	JLT  dnext
	BSRQ R14, AX
	MOVQ R13, R11
	SHLQ $2, R11
	SUBQ AX, R11
	ADDQ $4, R11
	CMPQ searchState_d(DI), $2
	JNE  bonused
	ADDQ $3, R11

bonused:
	LEAQ 3(CX), DX
	BSRQ DX, AX
	MOVQ BX, DX
	SHLQ $2, DX
	SUBQ AX, DX
	CMPQ DX, R11
	JLE  dnext
	MOVQ BX, R13
	LEAQ 3(CX), R14
	MOVQ R10, R15
	MOVQ $1, searchState_d(DI)
	JMP  dloop

dnext:
	INCQ searchState_d(DI)
	JMP  dloop

looked:
	// A new offset: extend its match backwards.
	CMPQ R14, $3
	JLE  store
	LEAQ -3(R14), AX
	MOVQ R15, DX
	SUBQ AX, DX
	EXTEND_BACK(R15, DX, R13, CX, back, extended)

extended:
	MOVL searchState_rep1(DI), CX
	MOVL CX, searchState_rep2(DI)
	MOVL AX, searchState_rep1(DI)

store:
	// The match at st (R10 for STORE), its length ml (R15), its offset
	// rep1; then ip past it.
	MOVQ R15, R10
	MOVQ R13, R15
	STORE(stCopy16, stCopy1, stCopied, stNoLits, stV3, stVNew, stRot, stSwap, stSeq)
	ADDQ R15, R10
	MOVQ R10, searchState_anchor(DI)
	CMPB searchState_skipping(DI), $0
	JEQ  unskipped
	CMPB searchState_rows(DI), $0
	JEQ  unskipped

	// The rows' cache, left behind while skipping, filled again.
	MOVQ searchState_hashShift(DI), R12
	MOVQ searchState_nextPos(DI), BX
	MOVQ searchState_ilimit(DI), R13
	ROW_FILL(BX, R13, sfLoop, sfDone)

unskipped:
	MOVB $0, searchState_skipping(DI)

repeats:
	// The second last offset at ip, as long as it matches.
	REPEAT(loop, rpLoop16, rpDiff16, rpLoop, rpTail, rpDiff, rpDone)
	REPEATED(repeats, rpCopy16, rpCopy1, rpCopied, rpNoLits, rpV3, rpVNew, rpRot, rpSwap, rpSeq)

best:
	// finder.best at ip: insert the positions up to ip (only the first
	// while skipping; after a gap of more than 384, its first 96 and
	// last 32), then walk ip's chain.
	MOVQ R13, searchState_keptML(DI)
	MOVQ R14, searchState_keptOffBase(DI)
	MOVQ R15, searchState_keptStart(DI)
	MOVQ searchState_hashShift(DI), R12
	CMPB searchState_rows(DI), $0
	JNE  rowBest
	CMPB searchState_tree(DI), $0
	JNE  treeBest
	MOVQ searchState_nextPos(DI), BX
	CMPQ BX, R10
	JGE  firstDone
	CMPB searchState_nextHashed(DI), $0
	JEQ  firstDone
	MOVL searchState_nextHash(DI), AX
	MOVL (R8)(AX*4), DX
	MOVL BX, CX
	ADDL searchState_base(DI), CX
	MOVL CX, (R8)(AX*4)
	ANDL searchState_chainMask(DI), CX
	MOVL DX, (R9)(CX*4)
	INCQ BX
	CMPB searchState_skipping(DI), $0
	JEQ  firstDone
	MOVQ R10, BX

firstDone:
	CMPB searchState_rowSkips(DI), $0
	JEQ  rest
	CMPB searchState_skipping(DI), $0
	JNE  rest
	MOVQ R10, AX
	SUBQ searchState_nextPos(DI), AX
	CMPQ AX, $const_rowSkipThreshold
	JLE  rest
	MOVQ searchState_nextPos(DI), DX
	ADDQ $const_rowGapStart, DX
	ADD(BX, DX, gapLoop, gapDone)
	LEAQ -const_rowGapEnd(R10), BX

rest:
	CMPQ BX, R10
	JGE  inserted
	MOVQ R10, DX
	CMPB searchState_skipping(DI), $0
	JEQ  restAdd
	LEAQ 1(BX), DX

restAdd:
	ADD(BX, DX, restLoop, restDone)

inserted:
	MOVQ R10, searchState_nextPos(DI)
	HASH(R10, AX)
	MOVL AX, searchState_nextHash(DI)
	MOVB $1, searchState_nextHashed(DI)
	MOVL (R8)(AX*4), BX

	// The hash table's slot of ip+1, fetched now (the lazy search asks
	// for it next): its cache miss overlaps this walk.
	LEAQ       1(R10), DX
	CMPQ       DX, searchState_ilimit(DI)
	JG         prefetched
	HASH(DX, CX)
	PREFETCHT0 (R8)(CX*4)

prefetched:

	// minChain: the oldest index the chain still holds.
	MOVL R10, CX
	ADDL searchState_base(DI), CX
	MOVL searchState_chainMask(DI), DX
	INCL DX
	XORL AX, AX
	CMPL CX, DX
	JLS  minDone
	MOVL CX, AX
	SUBL DX, AX

minDone:
	MOVQ AX, searchState_minChain(DI)
	MOVQ searchState_attempts(DI), R14
	MOVQ $3, R13
	XORQ R15, R15

walk:
	// idx (BX) at or past base, attempts (R14) left; m (AX).
	CMPL  BX, searchState_base(DI)
	JCS   walked
	TESTQ R14, R14
	JLE   walked
	MOVL  BX, AX
	SUBL  searchState_base(DI), AX
	CANDIDATE(AX, R12, nextCandidate, bLoop16, bDiff16, bLoop, bTail, bDiff, bDone)

nextCandidate:
	CMPL BX, searchState_minChain(DI)
	JLS  walked
	MOVL BX, CX
	ANDL searchState_chainMask(DI), CX
	MOVL (R9)(CX*4), BX
	DECQ R14
	JMP  walk

rowBest:
	// finder.rowBest at ip: insert the positions up to ip (none while
	// skipping; after a gap of more than 384, its first 96 and last 32),
	// ip's hash in AX.
	CMPB searchState_skipping(DI), $0
	JEQ  rowUpdate
	HASH(R10, AX)
	JMP  rowHashed

rowUpdate:
	MOVQ searchState_nextPos(DI), BX
	MOVQ R10, AX
	SUBQ BX, AX
	CMPQ AX, $const_rowSkipThreshold
	JLE  rowRest
	LEAQ const_rowGapStart(BX), R13
	ROW_INSERT_TO(BX, R13, gapLoop2, gapDone2)
	LEAQ -const_rowGapEnd(R10), BX
	LEAQ 1(R10), R13
	ROW_FILL(BX, R13, gapFill, gapFilled)

rowRest:
	ROW_INSERT_TO(BX, R10, rowLoop, rowDone)
	ROW_HASH(R10, AX)

rowHashed:
	// The row (BX) and its tags (R14); R11 a bit per slot whose tag is
	// AX's, 16 slots at a time.
	ROW_OF(AX, BX)
	LEAQ      (R9)(BX*1), R14
	MOVBQZX   AX, DX
	MOVQ      $0x0101010101010101, R11
	IMULQ     R11, DX
	MOVQ      DX, X0
	PUNPCKLQDQ X0, X0
	XORQ      R11, R11
	XORQ      R13, R13
	MOVL      searchState_rowMask(DI), R15
	INCQ      R15

rowTags:
	MOVOU    (R14)(R13*1), X1
	PCMPEQB  X0, X1
	PMOVMSKB X1, DX
	SHLXQ    R13, DX, DX
	ORQ      DX, R11
	ADDQ     $16, R13
	CMPQ     R13, R15
	JLT      rowTags

	// Rotated so that bit k is the slot k after the head (CX), the
	// latest first.
	MOVBLZX (R14), CX
	ANDL    searchState_rowMask(DI), CX
	IMULQ   searchState_rowRepeat(DI), R11
	RORQ    CX, R11
	ANDQ    searchState_rowBits(DI), R11

	// The candidates, at most attempts (R14) of them, into st.cands
	// (R15 of them), each one's bytes asked for.
	MOVQ searchState_attempts(DI), R14
	XORQ R15, R15

rowCands:
	TESTQ  R11, R11
	JZ     rowCandsDone
	TESTQ  R14, R14
	JLE    rowCandsDone
	TZCNTQ R11, DX
	BLSRQ  R11, R11
	ADDL   CX, DX
	ANDL   searchState_rowMask(DI), DX
	JZ     rowCands
	ADDL   BX, DX
	MOVL   (R8)(DX*4), DX
	CMPL   DX, searchState_base(DI)
	JCS    rowCandsDone
	MOVL   DX, searchState_cands(DI)(R15*4)
	SUBL   searchState_base(DI), DX
	PREFETCHT0 (SI)(DX*1)
	INCQ   R15
	DECQ   R14
	JMP    rowCands

rowCandsDone:
	// ip into its row; then the candidates' matches, R12 of them, the
	// next at R14.
	MOVL R10, R13
	ADDL searchState_base(DI), R13
	ROW_INSERT(AX, R13)
	LEAQ 1(R10), DX
	MOVQ DX, searchState_nextPos(DI)
	MOVQ R15, R12
	XORQ R14, R14
	MOVQ $3, R13
	XORQ R15, R15

rowWalk:
	CMPQ R14, R12
	JGE  walked
	MOVL searchState_cands(DI)(R14*4), BX
	SUBL searchState_base(DI), BX
	INCQ R14
	CANDIDATE(BX, AX, rowWalk, rLoop16, rDiff16, rLoop, rTail, rDiff, rDone)
	JMP  rowWalk

treeBest:
	// finder.treeBest at ip (tree.go): nothing inside the last match
	// found; else the positions up to ip inserted unsorted, ip's
	// unsorted candidates sorted into the tree, and the tree searched
	// for ip, inserting it. R8 (e.hash) serves as scratch in the walks
	// and is loaded again at the end.
	XORQ R13, R13
	XORQ R15, R15
	MOVQ searchState_nextPos(DI), BX
	CMPQ R10, BX
	JLT  walked

treeAdd:
	CMPQ BX, R10
	JGE  treeAdded
	HASH(BX, AX)
	MOVL (R8)(AX*4), DX
	MOVL BX, CX
	ADDL searchState_base(DI), CX
	MOVL CX, (R8)(AX*4)
	ANDL searchState_btMask(DI), CX
	MOVL DX, (R9)(CX*8)
	MOVL $const_unsortedMark, 4(R9)(CX*8)
	INCQ BX
	JMP  treeAdd

treeAdded:
	HASH(R10, AX)
	MOVL AX, searchState_treeHash(DI)

	// The hash table's slots of ip+1 and ip+2, fetched now
	// (prefetchNext).
	LEAQ       1(R10), DX
	CMPQ       DX, searchState_ilimit(DI)
	JGT        treePrefetched
	HASH(DX, CX)
	PREFETCHT0 (R8)(CX*4)
	INCQ       DX
	CMPQ       DX, searchState_ilimit(DI)
	JGT        treePrefetched
	HASH(DX, CX)
	PREFETCHT0 (R8)(CX*4)

treePrefetched:
	// curr, btLow (DX) and unsortLimit (DX).
	MOVL    R10, CX
	ADDL    searchState_base(DI), CX
	MOVL    CX, searchState_treeCurr(DI)
	XORL    DX, DX
	MOVL    CX, R11
	SUBL    searchState_btMask(DI), R11
	CMPL    CX, searchState_btMask(DI)
	CMOVLHI R11, DX
	MOVL    DX, searchState_btLow(DI)
	MOVL    searchState_base(DI), R11
	CMPL    DX, R11
	CMOVLCS R11, DX
	MOVL    DX, searchState_unsortLimit(DI)

	// The unsorted candidates (m, R12), their links reversed into a
	// stack (previous, R14), at most nbCandidates (R15) of them.
	MOVL (R8)(AX*4), R12
	MOVQ searchState_attempts(DI), R15
	XORL R14, R14

treeStack:
	CMPL R12, DX
	JLS  treeStacked
	MOVL R12, CX
	ANDL searchState_btMask(DI), CX
	CMPL 4(R9)(CX*8), $const_unsortedMark
	JNE  treeStacked
	CMPQ R15, $1
	JLE  treeCut
	MOVL R14, 4(R9)(CX*8)
	MOVL R12, R14
	MOVL (R9)(CX*8), R12
	DECQ R15
	JMP  treeStack

treeCut:
	// Still unsorted past the budget: cut off.
	MOVQ $0, (R9)(CX*8)

treeStacked:
	// The stack sorted into the tree, the oldest first (treeSort):
	// curr's position (BX), its walk's smaller and larger slots (R13,
	// R14), candidate m (R12), nbCompares (R15).
	TESTL R14, R14
	JEQ   treeSorted
	MOVL  R14, CX
	ANDL  searchState_btMask(DI), CX
	MOVL  4(R9)(CX*8), AX
	MOVL  AX, searchState_sortNext(DI)
	MOVQ  R15, searchState_nbCandidates(DI)
	MOVL  R14, BX
	SUBL  searchState_base(DI), BX
	LEAQ  (R9)(CX*8), R13
	LEAQ  4(R9)(CX*8), R14
	MOVL  (R13), R12
	MOVQ  $0, searchState_lenSmaller(DI)
	MOVQ  $0, searchState_lenLarger(DI)

sortWalk:
	TESTQ R15, R15
	JLE   sortClose
	CMPL  R12, searchState_base(DI)
	JLS   sortClose
	TREE_MATCH(BX, sLoop16, sDiff16, sLoop, sTail, sDiff, sDone)
	CMPQ  DX, searchState_srcEnd(DI)
	JEQ   sortClose
	TREE_LINK(searchState_unsortLimit(DI), sortWalk, sortClose, sortLarger, sortSmallerDone, sortLargerDone)

sortClose:
	MOVL $0, (R13)
	MOVL $0, (R14)
	MOVL searchState_sortNext(DI), R14
	MOVQ searchState_nbCandidates(DI), R15
	INCQ R15
	JMP  treeStacked

treeSorted:
	// The search for ip, inserting it: its walk's smaller and larger
	// slots (R13, R14), candidate m (R12), nbCompares (R15), best (BX),
	// matchEnd and offBase in st.
	MOVQ searchState_hash(DI), R8
	MOVL searchState_treeCurr(DI), CX
	LEAL 9(CX), AX
	MOVL AX, searchState_matchEnd(DI)
	MOVL $999999999, searchState_offBase(DI)
	MOVL searchState_treeHash(DI), AX
	MOVL (R8)(AX*4), R12
	MOVL CX, (R8)(AX*4)
	ANDL searchState_btMask(DI), CX
	LEAQ (R9)(CX*8), R13
	LEAQ 4(R9)(CX*8), R14
	MOVQ $0, searchState_lenSmaller(DI)
	MOVQ $0, searchState_lenLarger(DI)
	MOVQ searchState_attempts(DI), R15
	XORQ BX, BX

treeWalk:
	TESTQ R15, R15
	JLE   treeClose
	CMPL  R12, searchState_base(DI)
	JLS   treeClose
	TREE_MATCH(R10, tLoop16, tDiff16, tLoop, tTail, tDiff, tDone)
	CMPQ  R11, BX
	JLE   treeLink

	// Longer: matchEnd past it, and the best match unless its offset
	// costs more bits than four per byte it adds.
	LEAL (R12)(R11*1), CX
	CMPL CX, searchState_matchEnd(DI)
	JLS  treeEnded
	MOVL CX, searchState_matchEnd(DI)

treeEnded:
	MOVL searchState_treeCurr(DI), CX
	SUBL R12, CX
	INCL CX
	BSRL CX, CX
	BSRL searchState_offBase(DI), R8
	SUBL R8, CX
	MOVL R11, R8
	SUBL BX, R8
	SHLL $2, R8
	CMPL R8, CX
	JLE  treeCheaper
	MOVQ R11, BX
	MOVL searchState_treeCurr(DI), CX
	SUBL R12, CX
	ADDL $3, CX
	MOVL CX, searchState_offBase(DI)

treeCheaper:
	CMPQ DX, searchState_srcEnd(DI)
	JEQ  treeClose

treeLink:
	TREE_LINK(searchState_btLow(DI), treeWalk, treeClose, treeLarger, treeSmallerDone, treeLargerDone)

treeClose:
	MOVL $0, (R13)
	MOVL $0, (R14)
	MOVQ searchState_hash(DI), R8
	MOVL searchState_matchEnd(DI), AX
	SUBL searchState_base(DI), AX
	SUBQ $8, AX
	MOVQ AX, searchState_nextPos(DI)
	MOVQ BX, R13
	MOVL searchState_offBase(DI), R15
	SUBQ $3, R15

walked:
	MOVQ R13, BX
	MOVQ R15, CX
	MOVQ searchState_keptML(DI), R13
	MOVQ searchState_keptOffBase(DI), R14
	MOVQ searchState_keptStart(DI), R15
	CMPQ searchState_ret(DI), $0
	JEQ  ret0
	JMP  ret1

done:
	RET
