//go:build gc && !purego && !noasm

#include "go_asm.h"
#include "textflag.h"

// SEQUENCES_END(n, first): n = the end of n sequences from first.
#define SEQUENCES_END(n, first) \
	IMULQ $sequence__size, n \
	ADDQ  first, n

// SEQUENCES_DONE(at, first): AX = how many sequences lie from first to
// at (clobbers CX and DX).
#define SEQUENCES_DONE(at, first) \
	SUBQ  first, at              \
	MOVQ  at, AX                 \
	MOVQ  $sequence__size, CX    \
	XORQ  DX, DX                 \
	DIVQ  CX

// COPY_LITERALS(lits, out, n, i, again, done): the n literals at lits to
// out, 16 bytes at a time, the first word whatever their length: what
// lands past them the match overwrites (clobbers i and X0).
#define COPY_LITERALS(lits, out, n, i, again, done) \
	MOVOU (lits), X0      \
	MOVOU X0, (out)       \
	CMPQ  n, $16          \
	JLS   done            \
	MOVQ  $16, i          \
again:                    \
	MOVOU (lits)(i*1), X0 \
	MOVOU X0, (out)(i*1)  \
	ADDQ  $16, i          \
	CMPQ  i, n            \
	JCS   again           \
done:

// COPY_FAR(src, dst, end, n, next, rounds, words): a match of n bytes
// from src to dst (ending at end) at an offset of 16 or more, where each
// word read is already written: four words a round while the round's
// last starts before the end, then one at a time; then to next (clobbers
// n and X0-X3).
#define COPY_FAR(src, dst, end, n, next, rounds, words) \
	MOVOU (src), X0     \
	MOVOU X0, (dst)     \
	CMPQ  n, $16        \
	JLS   next          \
	ADDQ  $16, src      \
	ADDQ  $16, dst      \
	LEAQ  -48(end), n   \
	CMPQ  dst, n        \
	JCC   words         \
rounds:                 \
	MOVOU (src), X0     \
	MOVOU X0, (dst)     \
	MOVOU 16(src), X1   \
	MOVOU X1, 16(dst)   \
	MOVOU 32(src), X2   \
	MOVOU X2, 32(dst)   \
	MOVOU 48(src), X3   \
	MOVOU X3, 48(dst)   \
	ADDQ  $64, src      \
	ADDQ  $64, dst      \
	CMPQ  dst, n        \
	JCS   rounds        \
	CMPQ  dst, end      \
	JCC   next          \
words:                  \
	MOVOU (src), X0     \
	MOVOU X0, (dst)     \
	ADDQ  $16, src      \
	ADDQ  $16, dst      \
	CMPQ  dst, end      \
	JCS   words         \
	JMP   next

// DEAL(dst, end, step, three, limit, next, rounds, single): stores X0,
// a match's first offset bytes dealt over a word, from dst to end at
// steps of step (a multiple of the offset): four words a round while
// four steps stay within the match, then one at a time (clobbers three
// and limit).
#define DEAL(dst, end, step, three, limit, next, rounds, single) \
	LEAQ  (step)(step*2), three \
	MOVQ  end, limit            \
	SUBQ  three, limit          \
	CMPQ  dst, limit            \
	JCC   single                \
rounds:                         \
	MOVOU X0, (dst)             \
	MOVOU X0, (dst)(step*1)     \
	MOVOU X0, (dst)(step*2)     \
	MOVOU X0, (dst)(three*1)    \
	LEAQ  (dst)(step*4), dst    \
	CMPQ  dst, limit            \
	JCS   rounds                \
	CMPQ  dst, end              \
	JCC   next                  \
single:                         \
	MOVOU X0, (dst)             \
	ADDQ  step, dst             \
	CMPQ  dst, end              \
	JCS   single

// func executeFast(c *execContext) int
//
// The contract is exec_amd64.go's. Registers:
//   SI  the next sequence          R9  the end of the sequences
//   DX  the output position        R8  the last output end allowed (dst+dstLen-16)
//   R10 the literals' position     R11 the last literals end allowed (lits+litsEnd)
//   R12 the frame's first byte     R13 the window
//   AX, BX, CX: the sequence's literal length, match length, offset
//   R14: the match's position; DI: scratch, then the match's source
TEXT ·executeFast(SB), NOSPLIT, $0-16
	MOVQ c+0(FP), AX
	MOVQ execContext_seqs(AX), SI
	MOVQ execContext_nseqs(AX), R9
	SEQUENCES_END(R9, SI)
	MOVQ execContext_dst(AX), DI
	MOVQ execContext_dstLen(AX), R8
	LEAQ -16(DI)(R8*1), R8
	MOVQ execContext_out(AX), DX
	ADDQ DI, DX
	MOVQ execContext_start(AX), R12
	ADDQ DI, R12
	MOVQ execContext_lits(AX), R10
	MOVQ execContext_litsEnd(AX), R11
	ADDQ R10, R11
	MOVQ execContext_litPos(AX), BX
	ADDQ BX, R10
	MOVQ execContext_window(AX), R13
	CMPQ SI, R9
	JAE  done

loop:
	MOVL 0(SI), AX // literal length
	MOVL 4(SI), BX // match length
	MOVL 8(SI), CX // offset

	// The checks: the literals and the output in bounds with their
	// slack, the offset in 1..window and within the frame's output.
	LEAQ (R10)(AX*1), DI
	CMPQ DI, R11
	JHI  done
	LEAQ (DX)(AX*1), R14
	LEAQ (R14)(BX*1), DI
	CMPQ DI, R8
	JHI  done
	TESTQ CX, CX
	JZ   done
	CMPQ CX, R13
	JHI  done
	MOVQ R14, DI
	SUBQ R12, DI
	CMPQ CX, DI
	JHI  done

	COPY_LITERALS(R10, DX, AX, DI, literals, literalsDone)
	ADDQ AX, R10
	MOVQ R14, DI
	SUBQ CX, DI          // the match's source
	LEAQ (R14)(BX*1), DX // the output after the match
	CMPQ CX, $16
	JCS  shortOffset

	COPY_FAR(DI, R14, DX, BX, next, words64, words16)

shortOffset:
	CMPB ·hasSSSE3(SB), $0
	JEQ  noPattern

	// An offset under 16: the match repeats its first offset bytes.
	// They are dealt over a word (PSHUFB by patternMask[offset]), which
	// is stored at steps of the largest multiple of the offset that is
	// 16 or less (patternStep): no load waits on the stores before it.
	MOVOU (DI), X0
	MOVQ  CX, AX
	SHLQ  $4, AX
	LEAQ  ·patternMask(SB), BX
	PSHUFB (BX)(AX*1), X0
	LEAQ  ·patternStep(SB), BX
	MOVQ  (BX)(CX*8), AX

	DEAL(R14, DX, AX, CX, BX, next, pattern4, pattern)
	JMP next

noPattern:
	CMPQ CX, $8
	JCS  spread

words8:
	MOVQ (DI), AX
	MOVQ AX, (R14)
	ADDQ $8, DI
	ADDQ $8, R14
	CMPQ R14, DX
	JCS  words8
	JMP  next

spread:
	// An offset under 8: the first 8 bytes one at a time, then words
	// from the smallest multiple of the offset that is 8 or more back.
	MOVB 0(DI), AX
	MOVB AX, 0(R14)
	MOVB 1(DI), AX
	MOVB AX, 1(R14)
	MOVB 2(DI), AX
	MOVB AX, 2(R14)
	MOVB 3(DI), AX
	MOVB AX, 3(R14)
	MOVB 4(DI), AX
	MOVB AX, 4(R14)
	MOVB 5(DI), AX
	MOVB AX, 5(R14)
	MOVB 6(DI), AX
	MOVB AX, 6(R14)
	MOVB 7(DI), AX
	MOVB AX, 7(R14)
	ADDQ $8, R14
	CMPQ R14, DX
	JCC  next
	LEAQ ·spreadDistance(SB), AX
	MOVQ (AX)(CX*8), AX
	MOVQ R14, DI
	SUBQ AX, DI
	JMP  words8

next:
	ADDQ $sequence__size, SI
	CMPQ SI, R9
	JCS  loop

done:
	MOVQ c+0(FP), AX
	MOVQ execContext_dst(AX), DI
	SUBQ DI, DX
	MOVQ DX, execContext_out(AX)
	MOVQ execContext_lits(AX), DI
	SUBQ DI, R10
	MOVQ R10, execContext_litPos(AX)
	MOVQ execContext_seqs(AX), DI
	SEQUENCES_DONE(SI, DI)
	MOVQ AX, ret+8(FP)
	RET

// READ_BITS(n, dst): dst = the next n bits (n is left 63-n). They are
// read from the top of R8 past the R9 bits read: R8<<R9>>1 then right
// by 63-n, which reads nothing for n = 0.
#define READ_BITS(n, dst) \
	SHLXQ R9, R8, dst \
	SHRQ  $1, dst     \
	ADDQ  n, R9       \
	XORQ  $63, n      \
	SHRXQ n, dst, dst

// RELOAD moves R10 back over the whole bytes read (not before the
// stream's start) and reads the word there, unless the stream is
// overread (R9 > 64). Where R10 is 8 bytes or more from the start
// (c.limit), which is where no overread can happen, it does so without
// the checks: the back-to-back reads of the bit reader wait on it.
#define RELOAD(slow, skip, limit, stream) \
	CMPQ    R10, limit                       \
	JCS     slow                             \
	MOVQ    R9, CX                           \
	SHRQ    $3, CX                           \
	SUBQ    CX, R10                          \
	ANDQ    $7, R9                           \
	MOVQ    (R10), R8                        \
	JMP     skip                             \
slow:                                        \
	CMPQ    R9, $64                          \
	JHI     skip                             \
	MOVQ    R9, CX                           \
	SHRQ    $3, CX                           \
	MOVQ    R10, R14                         \
	SUBQ    stream, R14                      \
	CMPQ    CX, R14                          \
	CMOVQHI R14, CX                          \
	SUBQ    CX, R10                          \
	SHLQ    $3, CX                           \
	SUBQ    CX, R9                           \
	MOVQ    (R10), R8                        \
skip:

// DECODE_SEQUENCE(of, ml, ll, lastA, lastB, labels...): decodes the
// sequence the states R11-R13 point at into of, ml and ll (32-bit; the
// offset's code, not yet resolved), then, unless CMPQ lastA, lastB finds
// it the last, the next states; and reloads. The tables are AX, BX, DX;
// clobbers CX and R14. A reload leaves at least 57 bits unread: the
// offset's and the match length's extra bits (31+16 at most), then after
// another when the three's pass 31, the literal length's and the three
// states' (16+26).
#define DECODE_SEQUENCE(of, ml, ll, lastA, lastB, reload1, reloaded1, literalLength, reload2, reloaded2, statesDone) \
	ANDQ    $const_stateMask, R11                     \
	ANDQ    $const_stateMask, R12                     \
	ANDQ    $const_stateMask, R13                     \
	MOVBQZX const_entryAddBits(DX)(R13*8), CX         \
	READ_BITS(CX, R14)                                \
	ADDL    0(DX)(R13*8), R14                         \
	MOVL    R14, of                                   \
	MOVBQZX const_entryAddBits(BX)(R12*8), CX         \
	READ_BITS(CX, R14)                                \
	ADDL    0(BX)(R12*8), R14                         \
	MOVL    R14, ml                                   \
	MOVBQZX const_entryAddBits(DX)(R13*8), CX         \
	MOVBQZX const_entryAddBits(BX)(R12*8), R14        \
	ADDQ    R14, CX                                   \
	MOVBQZX const_entryAddBits(AX)(R11*8), R14        \
	ADDQ    R14, CX                                   \
	CMPQ    CX, $31                                   \
	JLS     literalLength                             \
	RELOAD(reload1, reloaded1, decodeContext_limit(DI), decodeContext_stream(DI)) \
literalLength:                                        \
	MOVBQZX const_entryAddBits(AX)(R11*8), CX         \
	READ_BITS(CX, R14)                                \
	ADDL    0(AX)(R11*8), R14                         \
	MOVL    R14, ll                                   \
	CMPQ    lastA, lastB                              \
	JEQ     statesDone                                \
	MOVBQZX const_entryNbBits(AX)(R11*8), CX          \
	READ_BITS(CX, R14)                                \
	MOVWQZX const_entryNewState(AX)(R11*8), R11       \
	ADDQ    R14, R11                                  \
	MOVBQZX const_entryNbBits(BX)(R12*8), CX          \
	READ_BITS(CX, R14)                                \
	MOVWQZX const_entryNewState(BX)(R12*8), R12       \
	ADDQ    R14, R12                                  \
	MOVBQZX const_entryNbBits(DX)(R13*8), CX          \
	READ_BITS(CX, R14)                                \
	MOVWQZX const_entryNewState(DX)(R13*8), R13       \
	ADDQ    R14, R13                                  \
statesDone:                                           \
	RELOAD(reload2, reloaded2, decodeContext_limit(DI), decodeContext_stream(DI))

// RESOLVE_OFFSET(code, ll, labels...): CX = the offset of the offset's
// code and the sequence's literal length ll (32-bit, as the loop's
// uint32 offsets): the code less 3, or one of the three repeated
// offsets, which it updates in decodeContext_rep*(DI). Clobbers R14.
#define RESOLVE_OFFSET(code, ll, resolved, repeat, indexed, notRep0, notRep1, rep2, shift3) \
	MOVL  code, CX                        \
	CMPL  CX, $3                          \
	JLS   repeat                          \
	SUBL  $3, CX                          \
	JMP   shift3                          \
repeat:                                   \
	DECL  CX                              \
	MOVL  ll, R14                         \
	TESTL R14, R14                        \
	JNZ   indexed                         \
	INCL  CX                              \
indexed:                                  \
	TESTL CX, CX                          \
	JNZ   notRep0                         \
	MOVQ  decodeContext_rep0(DI), CX      \
	JMP   resolved                        \
notRep0:                                  \
	CMPL  CX, $1                          \
	JNE   notRep1                         \
	MOVQ  decodeContext_rep1(DI), CX      \
	MOVQ  decodeContext_rep0(DI), R14     \
	MOVQ  R14, decodeContext_rep1(DI)     \
	MOVL  CX, CX                          \
	MOVQ  CX, decodeContext_rep0(DI)      \
	JMP   resolved                        \
notRep1:                                  \
	CMPL  CX, $3                          \
	JNE   rep2                            \
	MOVQ  decodeContext_rep0(DI), CX      \
	DECL  CX                              \
	JMP   shift3                          \
rep2:                                     \
	MOVQ  decodeContext_rep2(DI), CX      \
shift3:                                   \
	MOVL  CX, CX                          \
	MOVQ  decodeContext_rep1(DI), R14     \
	MOVQ  R14, decodeContext_rep2(DI)     \
	MOVQ  decodeContext_rep0(DI), R14     \
	MOVQ  R14, decodeContext_rep1(DI)     \
	MOVQ  CX, decodeContext_rep0(DI)      \
resolved:                                 \
	MOVL  CX, CX

// func decodeFastBMI2(c *decodeContext) int
//
// The contract is decodeFast's. Registers:
//   DI  c                  SI  the next sequence to fill
//   R8  the stream's word  R9  its bits read  R10 its position (a pointer)
//   R11, R12, R13  the literal length's, match length's and offset's states
//   AX, BX, DX  their tables, whose entries' fields are read where they
//   lie (fseEntry: the baseline at 0, the others at const_entry*, an
//   entry 8 bytes); CX, R14 scratch
// The repeated offsets and the sequences' end stay in c.
TEXT ·decodeFastBMI2(SB), NOSPLIT, $0-16
	MOVQ c+0(FP), DI
	MOVQ decodeContext_seqs(DI), SI
	MOVQ decodeContext_nseqs(DI), CX
	SEQUENCES_END(CX, SI)
	MOVQ CX, decodeContext_end(DI)
	SUBQ $sequence__size, CX
	MOVQ CX, decodeContext_last(DI)
	MOVQ decodeContext_stream(DI), CX
	ADDQ $8, CX
	MOVQ CX, decodeContext_limit(DI)
	MOVQ decodeContext_value(DI), R8
	MOVQ decodeContext_bitsRead(DI), R9
	MOVQ decodeContext_pos(DI), R10
	ADDQ decodeContext_stream(DI), R10
	MOVQ decodeContext_llState(DI), R11
	MOVQ decodeContext_mlState(DI), R12
	MOVQ decodeContext_ofState(DI), R13
	MOVQ decodeContext_llTable(DI), AX
	MOVQ decodeContext_mlTable(DI), BX
	MOVQ decodeContext_ofTable(DI), DX
	CMPQ SI, decodeContext_end(DI)
	JAE  done

loop:
	DECODE_SEQUENCE(8(SI), 4(SI), 0(SI), SI, decodeContext_last(DI), reload1, reloaded1, literalLength, reload2, reloaded2, statesDone)
	CMPQ R9, $64
	JHI  done // overread: the loop reports it
	RESOLVE_OFFSET(8(SI), 0(SI), resolved, repeat, indexed, notRep0, notRep1, rep2, shift3)
	MOVL CX, 8(SI)
	ADDQ $sequence__size, SI
	CMPQ SI, decodeContext_end(DI)
	JCS  loop

done:
	MOVQ R8, decodeContext_value(DI)
	MOVQ R9, decodeContext_bitsRead(DI)
	SUBQ decodeContext_stream(DI), R10
	MOVQ R10, decodeContext_pos(DI)
	MOVQ R11, decodeContext_llState(DI)
	MOVQ R12, decodeContext_mlState(DI)
	MOVQ R13, decodeContext_ofState(DI)
	SEQUENCES_DONE(SI, decodeContext_seqs(DI))
	MOVQ AX, ret+8(FP)
	RET

// func decodeExecuteBMI2(c *fusedContext) int
//
// The contract is decodeExecute's. decodeFast's decoding, then
// executeFast's execution (its SSSE3 kernel), in one loop. Registers:
//   DI  c                  R15 the literals' position
//   R8  the stream's word  R9  its bits read  R10 its position (a pointer)
//   R11, R12, R13  the literal length's, match length's and offset's states
//   AX, BX, DX  their tables while decoding; then the literal length,
//   the match length and scratch
//   SI  the output position  CX the offset  R14 scratch, the match's position
// The decoded values, the repeated offsets, the limits and the
// sequences left stay in c (its decoding context first, at offset 0: the
// macros read decodeContext_*(DI) in both kernels); R15 is free to use:
// no global is read.
TEXT ·decodeExecuteBMI2(SB), NOSPLIT, $0-16
	MOVQ c+0(FP), DI
	MOVQ decodeContext_stream(DI), CX
	ADDQ $8, CX
	MOVQ CX, decodeContext_limit(DI)
	MOVQ (fusedContext_exec+execContext_dst)(DI), CX
	MOVQ (fusedContext_exec+execContext_dstLen)(DI), R14
	LEAQ -16(CX)(R14*1), R14
	MOVQ R14, fusedContext_outLimit(DI)
	MOVQ (fusedContext_exec+execContext_start)(DI), R14
	ADDQ CX, R14
	MOVQ R14, fusedContext_frameStart(DI)
	MOVQ (fusedContext_exec+execContext_out)(DI), SI
	ADDQ CX, SI
	MOVQ (fusedContext_exec+execContext_lits)(DI), CX
	MOVQ (fusedContext_exec+execContext_litsEnd)(DI), R14
	ADDQ CX, R14
	MOVQ R14, fusedContext_litLimit(DI)
	MOVQ (fusedContext_exec+execContext_litPos)(DI), R15
	ADDQ CX, R15
	MOVQ decodeContext_nseqs(DI), CX
	MOVQ CX, fusedContext_left(DI)
	MOVQ decodeContext_value(DI), R8
	MOVQ decodeContext_bitsRead(DI), R9
	MOVQ decodeContext_pos(DI), R10
	ADDQ decodeContext_stream(DI), R10
	MOVQ decodeContext_llState(DI), R11
	MOVQ decodeContext_mlState(DI), R12
	MOVQ decodeContext_ofState(DI), R13
	TESTQ CX, CX
	JZ    finished

floop:
	MOVQ decodeContext_llTable(DI), AX
	MOVQ decodeContext_mlTable(DI), BX
	MOVQ decodeContext_ofTable(DI), DX
	DECODE_SEQUENCE(fusedContext_of(DI), fusedContext_ml(DI), fusedContext_ll(DI), fusedContext_left(DI), $1, freload1, freloaded1, fLiteralLength, freload2, freloaded2, fStatesDone)
	CMPQ R9, $64
	JHI  overread
	RESOLVE_OFFSET(fusedContext_of(DI), fusedContext_ll(DI), fResolved, fRepeat, fIndexed, fNotRep0, fNotRep1, fRep2, fShift3)
	MOVL fusedContext_ll(DI), AX
	MOVL fusedContext_ml(DI), BX

	// executeFast's checks: the literals and the output in bounds with
	// their slack, the offset in 1..window and within the frame's output.
	LEAQ  (R15)(AX*1), R14
	CMPQ  R14, fusedContext_litLimit(DI)
	JHI   unexecuted
	LEAQ  (SI)(AX*1), R14
	LEAQ  (R14)(BX*1), DX
	CMPQ  DX, fusedContext_outLimit(DI)
	JHI   unexecuted
	TESTQ CX, CX
	JZ    unexecuted
	CMPQ  CX, (fusedContext_exec+execContext_window)(DI)
	JHI   unexecuted
	MOVQ  R14, DX
	SUBQ  fusedContext_frameStart(DI), DX
	CMPQ  CX, DX
	JHI   unexecuted

	COPY_LITERALS(R15, SI, AX, DX, fLiterals, fLiteralsDone)
	ADDQ AX, R15
	MOVQ R14, DX
	SUBQ CX, DX          // the match's source
	LEAQ (R14)(BX*1), SI // the output after the match
	CMPQ CX, $16
	JCS  fShortOffset

	COPY_FAR(DX, R14, SI, BX, fNext, fWords64, fWords16)

fShortOffset:
	// An offset under 16, dealt over a word as executeFast does.
	MOVOU  (DX), X0
	MOVQ   CX, AX
	SHLQ   $4, AX
	MOVQ   fusedContext_masks(DI), BX
	PSHUFB (BX)(AX*1), X0
	MOVQ   fusedContext_steps(DI), BX
	MOVQ   (BX)(CX*8), AX
	DEAL(R14, SI, AX, CX, BX, fNext, fPattern4, fPattern)

fNext:
	DECQ fusedContext_left(DI)
	JNZ  floop

finished:
	MOVQ decodeContext_nseqs(DI), R14
	MOVQ R14, fusedContext_decoded(DI)
	JMP  fSave

unexecuted:
	// Decoded, not executed: stored at its index for the two passes.
	MOVQ  decodeContext_nseqs(DI), R14
	SUBQ  fusedContext_left(DI), R14
	MOVQ  R14, DX
	IMULQ $sequence__size, DX
	ADDQ  decodeContext_seqs(DI), DX
	MOVL  AX, 0(DX)
	MOVL  BX, 4(DX)
	MOVL  CX, 8(DX)
	LEAQ  1(R14), DX
	MOVQ  DX, fusedContext_decoded(DI)
	JMP   fSave

overread:
	// Left to the loop, which reports it.
	MOVQ decodeContext_nseqs(DI), R14
	SUBQ fusedContext_left(DI), R14
	MOVQ R14, fusedContext_decoded(DI)

fSave:
	MOVQ R8, decodeContext_value(DI)
	MOVQ R9, decodeContext_bitsRead(DI)
	SUBQ decodeContext_stream(DI), R10
	MOVQ R10, decodeContext_pos(DI)
	MOVQ R11, decodeContext_llState(DI)
	MOVQ R12, decodeContext_mlState(DI)
	MOVQ R13, decodeContext_ofState(DI)
	SUBQ (fusedContext_exec+execContext_dst)(DI), SI
	MOVQ SI, (fusedContext_exec+execContext_out)(DI)
	SUBQ (fusedContext_exec+execContext_lits)(DI), R15
	MOVQ R15, (fusedContext_exec+execContext_litPos)(DI)
	MOVQ R14, ret+8(FP)
	RET
