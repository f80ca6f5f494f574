// Package zenc writes Zstandard frames (RFC 8878) the way libzstd 1.5.6's
// levels do, where klauspost/compress's encoder writes larger ones:
// C-Blosc2 compresses each block with libzstd, and our chunks should be
// as small as C's at the same clevel. It holds ports of libzstd's
// strategies for every level 1-22: the match finders of fast, dfast,
// greedy, lazy, lazy2 and btlazy2, the optimal parser of btopt, btultra
// and btultra2 (opt.go) with its block splitter (split.go), and one
// entropy stage for all of them: literals Huffman-coded (huff.go) and
// sequences FSE-coded (block.go, fse.go) as libzstd codes them. Frames
// are single-segment, with their content size and no checksum, as
// C-Blosc2 writes them. Which levels the zstd codec routes here is the
// codec's decision (codec/zstd.go).
package zenc

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/blosc2go/blosc2/codec/internal/le"
	"github.com/blosc2go/blosc2/codec/internal/zfmt"
)

// ErrUnsupported is returned for a level or input size this package has
// no strategy for; the caller's other encoder takes it.
var ErrUnsupported = errors.New("zenc: unsupported level or size")

const (
	magic        = 0xFD2FB528
	maxBlockSize = 128 << 10
	// maxInput keeps the frame's window (its content size, single
	// segment) within what libzstd decodes by default, 2^27.
	maxInput = 1 << 27
	// maxTables bounds the match finder's tables (libzstd's sizes: at
	// level 22, 256.5 MB for a 16 MiB input, 640 MB from 64 MiB on): a
	// level asking more for its input is refused, and the caller's
	// other encoder, of bounded memory, takes it.
	maxTables = 1 << 28
	// firstIndex is the lowest base, libzstd's first index
	// (ZSTD_WINDOW_START_INDEX): 0 marks an empty slot and 1 is the
	// binary tree's unsortedMark, neither an index. maxIndex bounds the
	// indices, within 31 bits so that they are ints on 32-bit machines.
	firstIndex = 2
	maxIndex   = 1 << 30
)

// Encoder holds a match finder's tables and the entropy stage's scratch,
// reused from frame to frame. An Encoder is used by one goroutine at a
// time.
type Encoder struct {
	// The match finder's tables hold indices, positions plus base, and
	// keep them from frame to frame: an index below the frame's base is
	// an earlier frame's and no candidate (libzstd's window, continued
	// from one compression to the next, ZSTDirp_continue). A frame
	// needs no clean tables then, and libzstd clears none: clearing
	// them for every frame cost the shuffled timestamps a tenth of the
	// time at levels 5-11 (6 MB for a 421 KB block at level 7), and a
	// 32 KiB block at level 3 7-10% (its 128 KB short table), with no
	// level or input faster for it on a 2 MiB-L2 Xeon (session 29).
	hash   []uint32
	chain  []uint32
	hash3  []uint32
	tags   []uint8 // the rows' tags (rows.go), beside hash
	base   uint32  // the index of the next frame's first position
	finder finder
	seqs   []seq // the block's: offset values, match lengths minus 3
	lits   []byte
	codes  [][3]uint8
	huff   huffCoder
	tables [3]cTable
	cur    [3]*cTable
	norm   [64]int16
	desc   []byte
	reps   [3]uint32
	// litGainLog sets the least saving for which literals are
	// Huffman-coded, 1/2^litGainLog of them: 6 (libzstd's 1/64) but at
	// the fast strategy, 4. There libzstd codes near-random literals
	// (the low bytes of shuffled floats) for their last 2-6%, and
	// decoding them costs a Huffman decode per byte: with 1/16,
	// klauspost's rule, C-Blosc2's blocks of the ERA grid at level 1
	// are 1.35% larger and decode 21% faster (1075 -> 1300 MB/s,
	// klauspost's decoder, one core), and no test input grows by 2%.
	// libzstd varies its own minimum gain by strategy too.
	litGainLog uint8
	// minGainLog: a block must compress by 1/2^minGainLog (and two
	// bytes) not to be stored raw (ZSTD_minGain).
	minGainLog uint8
	// The optimal parser's (opt.go).
	stats    optStats
	bt       btFinder
	optTable []optimal
	// The block splitter's (split.go): where each sequence's literals
	// start in lits, where parts start, a part's trial encoding.
	litAt   []int
	parts   []int
	scratch []byte
	// bits holds a block's sequence bit stream where the output buffer
	// has no room to write it in place (sequences).
	bits []byte
}

// Strategies, as libzstd names them.
const (
	stratFast = iota + 1
	stratDFast
	stratGreedy
	stratLazy
	stratLazy2
	stratBtLazy2
	stratBtOpt
	stratBtUltra
	stratBtUltra2
)

// params are libzstd's ZSTD_compressionParameters: window, chain, hash
// and search logs, minimum match, target length, strategy.
type params struct {
	windowLog, chainLog, hashLog, searchLog, minMatch uint8
	targetLength                                      uint16
	strategy                                          uint8
}

// levelParams are libzstd 1.5.6's levels 1-22 (lib/compress/clevels.h),
// for inputs of more than 256 KiB, at most 256 KiB, 128 KiB and 16 KiB.
var levelParams = [4][23]params{
	{ // inputs of more than 256 KiB
		{},
		{19, 13, 14, 1, 7, 0, stratFast},       // 1
		{20, 15, 16, 1, 6, 0, stratFast},       // 2
		{21, 16, 17, 1, 5, 0, stratDFast},      // 3
		{21, 18, 18, 1, 5, 0, stratDFast},      // 4
		{21, 18, 19, 3, 5, 2, stratGreedy},     // 5
		{21, 18, 19, 3, 5, 4, stratLazy},       // 6
		{21, 19, 20, 4, 5, 8, stratLazy},       // 7
		{21, 19, 20, 4, 5, 16, stratLazy2},     // 8
		{22, 20, 21, 4, 5, 16, stratLazy2},     // 9
		{22, 21, 22, 5, 5, 16, stratLazy2},     // 10
		{22, 21, 22, 6, 5, 16, stratLazy2},     // 11
		{22, 22, 23, 6, 5, 32, stratLazy2},     // 12
		{22, 22, 22, 4, 5, 32, stratBtLazy2},   // 13
		{22, 22, 23, 5, 5, 32, stratBtLazy2},   // 14
		{22, 23, 23, 6, 5, 32, stratBtLazy2},   // 15
		{22, 22, 22, 5, 5, 48, stratBtOpt},     // 16
		{23, 23, 22, 5, 4, 64, stratBtOpt},     // 17
		{23, 23, 22, 6, 3, 64, stratBtUltra},   // 18
		{23, 24, 22, 7, 3, 256, stratBtUltra2}, // 19
		{25, 25, 23, 7, 3, 256, stratBtUltra2}, // 20
		{26, 26, 24, 7, 3, 512, stratBtUltra2}, // 21
		{27, 27, 25, 9, 3, 999, stratBtUltra2}, // 22
	},
	{ // inputs of at most 256 KiB
		{},
		{18, 13, 14, 1, 6, 0, stratFast},        // 1
		{18, 14, 14, 1, 5, 0, stratDFast},       // 2
		{18, 16, 16, 1, 4, 0, stratDFast},       // 3
		{18, 16, 17, 3, 5, 2, stratGreedy},      // 4
		{18, 17, 18, 5, 5, 2, stratGreedy},      // 5
		{18, 18, 19, 3, 5, 4, stratLazy},        // 6
		{18, 18, 19, 4, 4, 4, stratLazy},        // 7
		{18, 18, 19, 4, 4, 8, stratLazy2},       // 8
		{18, 18, 19, 5, 4, 8, stratLazy2},       // 9
		{18, 18, 19, 6, 4, 8, stratLazy2},       // 10
		{18, 18, 19, 5, 4, 12, stratBtLazy2},    // 11
		{18, 19, 19, 7, 4, 12, stratBtLazy2},    // 12
		{18, 18, 19, 4, 4, 16, stratBtOpt},      // 13
		{18, 18, 19, 4, 3, 32, stratBtOpt},      // 14
		{18, 18, 19, 6, 3, 128, stratBtOpt},     // 15
		{18, 19, 19, 6, 3, 128, stratBtUltra},   // 16
		{18, 19, 19, 8, 3, 256, stratBtUltra},   // 17
		{18, 19, 19, 6, 3, 128, stratBtUltra2},  // 18
		{18, 19, 19, 8, 3, 256, stratBtUltra2},  // 19
		{18, 19, 19, 10, 3, 512, stratBtUltra2}, // 20
		{18, 19, 19, 12, 3, 512, stratBtUltra2}, // 21
		{18, 19, 19, 13, 3, 999, stratBtUltra2}, // 22
	},
	{ // inputs of at most 128 KiB
		{},
		{17, 12, 13, 1, 6, 0, stratFast},        // 1
		{17, 13, 15, 1, 5, 0, stratFast},        // 2
		{17, 15, 16, 2, 5, 0, stratDFast},       // 3
		{17, 17, 17, 2, 4, 0, stratDFast},       // 4
		{17, 16, 17, 3, 4, 2, stratGreedy},      // 5
		{17, 16, 17, 3, 4, 4, stratLazy},        // 6
		{17, 16, 17, 3, 4, 8, stratLazy2},       // 7
		{17, 16, 17, 4, 4, 8, stratLazy2},       // 8
		{17, 16, 17, 5, 4, 8, stratLazy2},       // 9
		{17, 16, 17, 6, 4, 8, stratLazy2},       // 10
		{17, 17, 17, 5, 4, 8, stratBtLazy2},     // 11
		{17, 18, 17, 7, 4, 12, stratBtLazy2},    // 12
		{17, 18, 17, 3, 4, 12, stratBtOpt},      // 13
		{17, 18, 17, 4, 3, 32, stratBtOpt},      // 14
		{17, 18, 17, 6, 3, 256, stratBtOpt},     // 15
		{17, 18, 17, 6, 3, 128, stratBtUltra},   // 16
		{17, 18, 17, 8, 3, 256, stratBtUltra},   // 17
		{17, 18, 17, 10, 3, 512, stratBtUltra},  // 18
		{17, 18, 17, 5, 3, 256, stratBtUltra2},  // 19
		{17, 18, 17, 7, 3, 512, stratBtUltra2},  // 20
		{17, 18, 17, 9, 3, 512, stratBtUltra2},  // 21
		{17, 18, 17, 11, 3, 999, stratBtUltra2}, // 22
	},
	{ // inputs of at most 16 KiB
		{},
		{14, 14, 15, 1, 5, 0, stratFast},        // 1
		{14, 14, 15, 1, 4, 0, stratFast},        // 2
		{14, 14, 15, 2, 4, 0, stratDFast},       // 3
		{14, 14, 14, 4, 4, 2, stratGreedy},      // 4
		{14, 14, 14, 3, 4, 4, stratLazy},        // 5
		{14, 14, 14, 4, 4, 8, stratLazy2},       // 6
		{14, 14, 14, 6, 4, 8, stratLazy2},       // 7
		{14, 14, 14, 8, 4, 8, stratLazy2},       // 8
		{14, 15, 14, 5, 4, 8, stratBtLazy2},     // 9
		{14, 15, 14, 9, 4, 8, stratBtLazy2},     // 10
		{14, 15, 14, 3, 4, 12, stratBtOpt},      // 11
		{14, 15, 14, 4, 3, 24, stratBtOpt},      // 12
		{14, 15, 14, 5, 3, 32, stratBtUltra},    // 13
		{14, 15, 15, 6, 3, 64, stratBtUltra},    // 14
		{14, 15, 15, 7, 3, 256, stratBtUltra},   // 15
		{14, 15, 15, 5, 3, 48, stratBtUltra2},   // 16
		{14, 15, 15, 6, 3, 128, stratBtUltra2},  // 17
		{14, 15, 15, 7, 3, 256, stratBtUltra2},  // 18
		{14, 15, 15, 8, 3, 256, stratBtUltra2},  // 19
		{14, 15, 15, 8, 3, 512, stratBtUltra2},  // 20
		{14, 15, 15, 9, 3, 512, stratBtUltra2},  // 21
		{14, 15, 15, 10, 3, 999, stratBtUltra2}, // 22
	},
}

// paramsFor returns libzstd's parameters for level and an input of n
// bytes, adjusted to the input's size as ZSTD_adjustCParams does, and
// whether level is one of libzstd's (1-22).
//
// largeLevels: at levels 7 and 9 (C-Blosc2's clevels 4 and 5), an input
// of 128-256 KiB takes libzstd's parameters for inputs of more than 256
// KiB, which the adjustment brings to the same window and tables: a
// minimum match of 5 bytes where libzstd's table for its size says 4,
// and at level 9 16 candidates a position where it says 32. libzstd
// searches those levels' rows (rows.go); its chain (what the search runs
// over here, params.rows) walked 32 candidates too slowly for text: on
// one core of a Zen 4 EPYC, C-Blosc2's 256 KiB blocks of the logs
// compressed at 0.85-0.89 of C-Blosc2's speed at clevel 5 and 0.95-0.99
// at clevel 4. With these they compress 1.45 and 1.09 times as fast and
// are 0.9% and 1.7% smaller than with libzstd's (than C-Blosc2's
// chunks too); the bitshuffled telemetry values are 0.45% larger and
// 6-10% faster. Inputs of at most 128 KiB (the streams C-Blosc2 splits
// shuffled blocks into) keep libzstd's table for them: there a minimum
// match of 5 makes the shuffled ERA5 floats 4.3% larger.
func paramsFor(level, n int) (params, bool) {
	if level < 1 || level >= len(levelParams[0]) {
		return params{}, false
	}
	class := 0
	switch {
	case n <= 16<<10:
		class = 3
	case n <= 128<<10:
		class = 2
	case n <= 256<<10:
		class = 1
	}
	if class == 1 && (level == 7 || level == 9) {
		class = 0 // largeLevels
	}
	p := levelParams[class][level]
	// A small input shrinks the window, the hash table to at most
	// twice the window and the chain to the window.
	srcLog := uint8(6)
	for srcLog < 30 && 1<<srcLog < n {
		srcLog++
	}
	p.windowLog = min(p.windowLog, srcLog)
	p.hashLog = min(p.hashLog, p.windowLog+1)
	cycleLog := p.chainLog
	if p.strategy >= stratBtLazy2 {
		cycleLog--
	}
	if cycleLog > p.windowLog {
		p.chainLog -= cycleLog - p.windowLog
	}
	p.windowLog = max(p.windowLog, 10)
	return p, true
}

// EncodeAll appends to dst one frame holding src, compressed at zstd
// level level, and returns it. It returns ErrUnsupported for levels
// outside 1-22, for inputs over 128 MiB, and where the level's tables
// for src would pass 256 MB (levels 21 and 22 over 16 MiB, level 22 at
// 16 MiB). It may write into dst's capacity past the frame, and, as
// append does, reallocate dst where it runs out of capacity, which a
// block compressed past it before being stored raw does too: callers
// find the frame in the returned slice.
func (e *Encoder) EncodeAll(dst, src []byte, level int) ([]byte, error) {
	p, ok := paramsFor(level, len(src))
	if !ok || len(src) > maxInput || p.tableBytes() > maxTables {
		return dst, ErrUnsupported
	}
	dst = frameHeader(dst, len(src))
	if len(src) == 0 {
		return appendUint24(dst, 1), nil // one empty last raw block
	}
	e.startFrame(p, len(src))
	if p.strategy >= stratBtOpt {
		e.startOptimal(p)
	} else if p.strategy >= stratGreedy {
		// The tables at exactly the sizes the hash and chainMask index
		// (lazy.go indexes them unchecked).
		mls := min(max(p.minMatch, 4), 6)
		e.finder = finder{hash: e.hash[:1<<p.hashLog], base: e.base}
		if p.rows() {
			e.finder.rows(e.tags[:1<<p.hashLog], p.hashLog, p.searchLog, mls)
		} else {
			e.finder.h = newHasher(p.hashLog, mls)
			e.finder.chain = e.chain[:1<<p.chainLog]
			e.finder.chainMask = 1<<p.chainLog - 1
			e.finder.attempts = 1 << p.searchLog
			e.finder.rowSkips = p.windowLog > 14 && p.strategy < stratBtLazy2
			e.finder.tree = p.strategy == stratBtLazy2
			e.finder.btMask = 1<<(p.chainLog-1) - 1
		}
	}
	e.reps = [3]uint32{1, 4, 8}
	e.litGainLog, e.minGainLog = 6, 6
	switch {
	case p.strategy == stratFast:
		e.litGainLog = 4
	case p.strategy >= stratBtUltra:
		e.litGainLog, e.minGainLog = p.strategy-1, p.strategy-1
	}
	var err error
	for start := 0; start < len(src) && err == nil; start += maxBlockSize {
		end := min(start+maxBlockSize, len(src))
		dst, err = e.block(dst, src, start, end, p, end == len(src))
	}
	e.base += uint32(len(src))
	return dst, err
}

// rows reports whether p's search runs over rows (rows.go) rather
// than the hash chain: lazy2 with 64 attempts (levels 11 and 12 over
// 256 KiB, 10 below), over windows of more than 16 KiB as libzstd's
// rows. libzstd searches rows at levels 5-12, but here they cost more
// than the chain below 64 attempts: one core, 256 KiB blocks at level 9
// (32 attempts) ran the logs 3-5% faster over rows and the shuffled ERA
// floats 10-17%, the bitshuffled values 14-15% and the shuffled
// timestamps 29-30% slower; at level 11 on 512 KiB blocks the logs
// 22-29% faster (0.72-0.76 of libzstd's speed over the chain, 0.92-0.93
// over rows), the others 5-29% slower, where the chain had the most to
// spare against C-Blosc2 (README, against C-Blosc2). Inserting a
// position costs a row more (its head, tag and index) than a chain (a
// link), and a search of 64 links waits for each.
func (p params) rows() bool {
	return p.strategy == stratLazy2 && p.searchLog >= 6 && p.windowLog > 14
}

// tableBytes is the size of the match finder's tables at p.
func (p params) tableBytes() int {
	n := 1 << p.hashLog
	if p.rows() {
		return 5 * n // and a byte of tag each
	}
	if p.strategy != stratFast {
		n += 1 << p.chainLog
	}
	if p.strategy >= stratBtOpt && p.minMatch == 3 {
		n += 1 << min(hash3MaxLog, p.windowLog)
	}
	return 4 * n
}

// startFrame readies the tables for a frame of n bytes at p: it sets
// base, its first position taking the chain's first slot as in new
// tables, so that a frame touches the memory the one before it did; and
// it grows the hash table and the chain to p's sizes. What they hold
// from earlier frames are indices below base, no candidates.
//
// A frame's indices run from base to base+n, and btultra2's first pass
// moves base by up to a block: where they would pass maxIndex, the
// tables are cleared to their capacity and counting starts over.
func (e *Encoder) startFrame(p params, n int) {
	align := uint64(1)
	if p.strategy >= stratGreedy { // a chain or tree of positions, not dfast's hashes
		align = 1 << p.chainLog
	}
	base := (uint64(e.base) + align - 1) &^ (align - 1)
	if e.base == 0 || base+2*uint64(n) > maxIndex {
		for _, t := range [][]uint32{e.hash, e.chain, e.hash3} {
			clear(t[:cap(t)])
		}
		base = (firstIndex + align - 1) &^ (align - 1)
	}
	e.base = uint32(base)
	e.hash = growTable(e.hash, 1<<p.hashLog)
	if p.rows() {
		if cap(e.tags) < 1<<p.hashLog {
			e.tags = make([]uint8, 1<<p.hashLog)
		}
	} else if p.strategy != stratFast {
		// dfast's table of short hashes, or the hash chain.
		e.chain = growTable(e.chain, 1<<p.chainLog)
	}
}

// growTable returns t resized to n entries: what it held, or zeros
// where it grows. Either is an index below any frame's to come.
func growTable(t []uint32, n int) []uint32 {
	if cap(t) < n {
		return make([]uint32, n)
	}
	return t[:n]
}

// frameHeader appends a single-segment frame header for n bytes of
// content, its size in the fewest bytes.
func frameHeader(dst []byte, n int) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, magic)
	switch {
	case n < 256:
		return append(dst, 0x20, byte(n))
	case n < 65536+256:
		return binary.LittleEndian.AppendUint16(append(dst, 1<<6|0x20), uint16(n-256))
	}
	return binary.LittleEndian.AppendUint32(append(dst, 2<<6|0x20), uint32(n))
}

// block appends the block of src[start:end] (what precedes it in src
// being the frame's history): compressed, or raw or RLE where that is
// no larger, as libzstd decides.
func (e *Encoder) block(dst, src []byte, start, end int, p params, last bool) ([]byte, error) {
	b := src[start:end]
	// Like libzstd, no frame starts with an RLE block: zstd 1.4.3 and
	// older refuse one.
	if start > 0 && isRun(b) {
		return rleBlock(dst, b, last), nil
	}
	if cap(e.seqs) < len(b)/4+1 {
		e.seqs = make([]seq, 0, len(b)/4+1)
	}
	if cap(e.lits) < len(b)+16 {
		// 16 bytes of room for store's copies of short runs.
		e.lits = make([]byte, 0, len(b)+16)
	}
	e.seqs, e.lits = e.seqs[:0], e.lits[:0]
	reps := e.reps
	switch p.strategy {
	case stratFast:
		e.fast(src, start, end, p)
	case stratDFast:
		e.dfast(src, start, end, p)
	case stratBtOpt, stratBtUltra:
		e.optimal(src, start, end, p.strategy >= stratBtUltra)
	case stratBtUltra2:
		if start == 0 && len(b) > predefMax {
			// Parse the first block once only to seed the statistics,
			// then forget its matches (ZSTD_initStats_ultra).
			e.optimal(src, start, end, true)
			e.seqs, e.lits, e.reps = e.seqs[:0], e.lits[:0], reps
			e.base += uint32(len(b))
			e.bt.base = e.base
			e.bt.next = 0
		}
		e.optimal(src, start, end, true)
	default:
		e.lazy(src, start, end, p, &e.finder)
	}
	if p.strategy >= stratBtOpt && p.windowLog >= 17 {
		return e.splitBlock(dst, src, start, end, reps, last)
	}
	dst, ok, err := e.compressed(dst, b, e.seqs, e.lits, last)
	if !ok {
		e.reps = reps // a raw block leaves the decoder's repeat offsets as they were
	}
	return dst, err
}

// compressed appends the block of b, its sequences seqs and literals
// lits, compressed, or raw where that saves less than minGain: then it
// returns false.
func (e *Encoder) compressed(dst, b []byte, seqs []seq, lits []byte, last bool) ([]byte, bool, error) {
	at := len(dst)
	dst = appendUint24(dst, 0)
	dst = e.literals(dst, lits)
	dst, err := e.sequences(dst, seqs)
	if err != nil {
		return dst[:at], false, err
	}
	n := len(dst) - at - 3
	if n >= len(b)-minGain(len(b), e.minGainLog) {
		dst = appendUint24(dst[:at], blockHeader(blockRaw, len(b), last))
		return append(dst, b...), false, nil
	}
	v := blockHeader(blockCompressed, n, last)
	dst[at], dst[at+1], dst[at+2] = byte(v), byte(v>>8), byte(v>>16)
	return dst, true, nil
}

// Block types (RFC 8878, 3.1.1.2.2).
const (
	blockRaw = iota
	blockRLE
	blockCompressed
)

// blockHeader is the 3-byte header of a block of type typ and size n
// (its content's, or for RLE its regenerated size).
func blockHeader(typ, n int, last bool) uint32 {
	v := uint32(typ<<1 | n<<3)
	if last {
		v |= 1
	}
	return v
}

// rleBlock appends an RLE block of b, one byte repeated.
func rleBlock(dst, b []byte, last bool) []byte {
	return append(appendUint24(dst, blockHeader(blockRLE, len(b), last)), b[0])
}

// store appends a sequence to the block's: lits, then length bytes
// copied from off bytes back. The offset is coded with the repeat codes
// the decoder's repeat offsets allow (RFC 8878, 3.1.2.5), and e.reps
// follows the decoder's.
func (e *Encoder) store(lits []byte, off, length uint32) {
	if n := len(e.lits); len(lits) <= 16 && cap(lits) >= 16 && cap(e.lits)-n >= 16 {
		// A short run is copied as two whole words, as libzstd's
		// ZSTD_storeSeq copies 16 bytes: the bytes past it are
		// overwritten by the next run.
		from, to := lits[:16], e.lits[n:n+16]
		le.Store64(to, 0, le.Load64(from, 0))
		le.Store64(to, 8, le.Load64(from, 8))
		e.lits = e.lits[:n+len(lits)]
	} else {
		e.lits = append(e.lits, lits...)
	}
	r := &e.reps
	var v uint32
	if len(lits) > 0 {
		switch off {
		case r[0]:
			v = 1
		case r[1]:
			v = 2
			r[0], r[1] = r[1], r[0]
		case r[2]:
			v = 3
			r[0], r[1], r[2] = r[2], r[0], r[1]
		}
	} else {
		switch off {
		case r[1]:
			v = 1
			r[0], r[1] = r[1], r[0]
		case r[2]:
			v = 2
			r[0], r[1], r[2] = r[2], r[0], r[1]
		case r[0] - 1:
			v = 3
			r[0], r[1], r[2] = off, r[0], r[1]
		}
	}
	if v == 0 {
		v = off + 3
		r[0], r[1], r[2] = off, r[0], r[1]
	}
	e.seqs = append(e.seqs, seq{litLen: uint32(len(lits)), matchLen: length - zfmt.MinMatch, offset: v})
}

// isRun reports whether b is one byte repeated: whether it equals itself
// shifted by one, which the runtime's vector compare answers 32 bytes a
// step (a loop over the bytes took 6% of level 1 on the shuffled
// timestamps, whose blocks start with long runs).
func isRun(b []byte) bool {
	return len(b) > 0 && bytes.Equal(b[1:], b[:len(b)-1])
}
