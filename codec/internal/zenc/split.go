package zenc

import "github.com/blosc2go/blosc2/codec/internal/zfmt"

// libzstd's block splitter (zstd_compress.c,
// ZSTD_compressBlock_splitBlock_internal and ZSTD_deriveBlockSplits), on
// by default for the btopt strategies and stronger with windows of
// 2^17 bytes or more: a block's sequences are cut in halves, recursively,
// while the two halves compress smaller than the whole, and each part
// is written as a block of its own with its own entropy tables. On
// bitshuffled float64 values, whose bit planes have different
// statistics, libzstd's level 22 frames are 3% smaller with it.
//
// libzstd estimates the parts' sizes from its entropy statistics; here
// they are what this package writes for them.
const (
	minSplitSeqs = 300 // MIN_SEQUENCES_BLOCK_SPLITTING: a half has at least half of these
	maxSplits    = 196 // ZSTD_MAX_NB_BLOCK_SPLITS
)

// splitBlock appends the block of src[start:end], whose sequences and
// literals are in e.seqs and e.lits and whose repeat offsets were reps
// before them, as one block or as the parts the splitter finds.
func (e *Encoder) splitBlock(dst, src []byte, start, end int, reps [3]uint32, last bool) ([]byte, error) {
	seqs := e.seqs
	e.litAt = e.litAt[:0]
	at := 0
	for _, s := range seqs {
		e.litAt = append(e.litAt, at)
		at += int(s.litLen)
	}
	e.litAt = append(e.litAt, len(e.lits)) // the last part's literals run to the block's end
	e.parts = e.parts[:0]
	if len(seqs) >= minSplitSeqs {
		e.findSplits(0, len(seqs), e.partSize(0, len(seqs)))
	}
	e.parts = append(e.parts, len(seqs))
	// The decoder's repeat offsets (dRep) differ from the parser's
	// (cRep) after a part written raw: a repeat code they resolve
	// differently becomes its offset.
	dRep, cRep := reps, reps
	first, pos, litStart := 0, start, 0
	for i, next := range e.parts {
		part := seqs[first:next]
		dBefore := dRep
		n := 0
		for k := range part {
			s := &part[k]
			n += int(s.litLen + s.matchLen + zfmt.MinMatch)
			ll0 := s.litLen == 0
			off := s.offset
			if off <= 3 {
				if c := repOffset(cRep, off, ll0); repOffset(dRep, off, ll0) != c {
					s.offset = c + 3
				}
			}
			dRep = newRep(dRep, s.offset, ll0)
			cRep = newRep(cRep, off, ll0)
		}
		lastPart := i == len(e.parts)-1
		if lastPart {
			n = end - pos
		}
		b := src[pos : pos+n]
		var ok bool
		if len(e.parts) > 1 && start > 0 && isRun(b) {
			dst = rleBlock(dst, b, last && lastPart)
		} else {
			var err error
			// A part's literals run from the previous part's end
			// (from the block's first literal, not litAt[0], which is
			// the end when there are no sequences).
			if dst, ok, err = e.compressed(dst, b, part, e.lits[litStart:e.litAt[next]], last && lastPart); err != nil {
				return dst, err
			}
		}
		if !ok {
			// Raw or RLE: the decoder's repeat offsets are as before it.
			dRep = dBefore
		}
		first, pos, litStart = next, pos+n, e.litAt[next]
	}
	e.reps = dRep
	return dst, nil
}

// repOffset is the offset repeat code offBase (1-3) stands for, after
// repeat offsets r, its literals none when ll0.
func repOffset(r [3]uint32, offBase uint32, ll0 bool) uint32 {
	code := offBase - 1
	if ll0 {
		code++
	}
	if code == 3 {
		return r[0] - 1
	}
	return r[code]
}

// findSplits appends to e.parts where to cut seqs[from:to] (whole
// bytes as one block) and returns the parts' total size. Like
// ZSTD_deriveBlockSplitsHelper it cuts in halves, recursively, down to
// parts of minSplitSeqs/2 sequences; but where libzstd stops as soon as
// two halves are no smaller than the whole, this looks deeper while they
// are within 1/64 of it, and keeps the cuts whose parts are smaller in
// all. Over the shuffled-less NYC taxi timestamps at level 15, halves
// 0.01% larger than the whole hide sixteenths 10% smaller, which
// libzstd's estimate of the sizes finds.
func (e *Encoder) findSplits(from, to, whole int) int {
	if to-from < minSplitSeqs || len(e.parts) >= maxSplits {
		return whole
	}
	mid := (from + to) / 2
	first, second := e.partSize(from, mid), e.partSize(mid, to)
	if first+second >= whole+whole>>6 {
		return whole
	}
	mark := len(e.parts)
	size := e.findSplits(from, mid, first)
	e.parts = append(e.parts, mid)
	size += e.findSplits(mid, to, second)
	if size < whole {
		return size
	}
	e.parts = e.parts[:mark]
	return whole
}

// partSize is the size of a block of seqs[from:to] and their literals.
func (e *Encoder) partSize(from, to int) int {
	out := e.literals(e.scratch[:0], e.lits[e.litAt[from]:e.litAt[to]])
	out, err := e.sequences(out, e.seqs[from:to])
	if err != nil {
		return 1 << 30
	}
	e.scratch = out[:0]
	return 3 + len(out)
}
