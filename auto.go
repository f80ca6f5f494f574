package blosc2

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/fanout"
)

// Tier is a speed tier of the automatic mode ([Auto]), named as
// klauspost/compress/zstd names its encoder levels. Each tier fixes the
// codec and level; the filters, the element size and the block size are
// chosen per chunk by a probe of the chunk itself.
type Tier uint8

// The tiers, fastest first. Each aims at its Go counterpart's speed with
// a better ratio, and on every data set of the project's benchmark gives
// at least the ratio of the fixed defaults ([DefaultCParams]); the
// README's benchmark table says, file by file, where the aims hold.
const (
	// TierFastest compresses with LZ4 (acceleration 1) after the filter
	// the probe finds best, in 128 KiB blocks. A filtered chunk that
	// compresses less than 5:1 and whose sample loses less than 1/16 at
	// acceleration 9 (clevel 1) gets acceleration 9; when that shrinks
	// the sample by less than 1/8 (near-noise, such as recorded audio),
	// acceleration 64, beyond C-Blosc2's 1-9
	// ([CParams.LZ4Acceleration]): on the project's audio about twice
	// the speed for 3.3% of the size, where S2 stores the input as it
	// is. A chunk LZ4 cannot compress as it is (S2 stores it) and that
	// the probe gives shuffle+bytedelta at less than 2:1 takes the
	// shuffle alone at acceleration 64 when that loses less than 1/8:
	// on the project's geoid grid 2.5 times the speed for 9% of the
	// size. C-Blosc2 decodes the chunks either way. What no filter helps
	// (text, values no shuffle orders) it compresses with Zstd at
	// clevel 1 (libzstd's fast strategy, by our port) in 1 MiB blocks,
	// at least two per chunk. It aims at S2's compression speed and
	// ratio: typed data with structure (grids, timestamps, sensor
	// signals) beats S2 on both. On text, where LZ4 reached 0.73-1.06
	// of S2's ratio at about its speed, zstd's fastest level compresses
	// 1.4-1.8 times S2's ratio and 0.97-1.04 times klauspost's
	// SpeedFastest's, at 0.6-0.9 of S2's speed and 1.6-2.5 times
	// SpeedFastest's, and decompresses faster than S2 (the README's
	// table).
	TierFastest Tier = iota + 1
	// TierDefault, the default, compresses with Zstd at clevel 2 (zstd
	// level 3, libzstd's dfast, by our port) in 256 KiB blocks after a
	// filter, 2 MiB without. It aims at zstd SpeedDefault's ratio (0.97
	// of it on text) at its speed or above. A filtered chunk that
	// compresses less than 5:1 and whose sample loses less than 2% at
	// clevel 1 (zstd level 1, libzstd's fast strategy) gets clevel 1: noisy
	// measurements, audio, grids of nearly random low bytes, where
	// zstd's matches gain little, compress about 1.5 times as fast. The
	// level is not recorded in a chunk, so info does not show it. A
	// filtered chunk whose sample compresses less than 2:1 takes
	// [TierFastest]'s LZ4, level rule and blocks instead (under its
	// filters or bitshuffle), when that sample is less than 1/6 larger: audio,
	// noisy float64 measurements, where zstd's gain over LZ4 (2.5-8.5%
	// of the size on the project's data) costs twice the compression
	// and the decompression time.
	TierDefault
	// TierBetter compresses with Zstd at clevel 4 (zstd level 7,
	// SpeedBetterCompression) in 512 KiB blocks after a filter, 4 MiB
	// without (one block for a 4 MiB chunk: its long matches are what
	// zstd's own stream finds; shorter chunks in 2 MiB blocks), aiming
	// at zstd SpeedBetterCompression likewise. As at the default tier, a
	// filtered chunk that compresses less than 5:1 gets clevel 1, when
	// its sample loses less than 1% there: on such data zstd's slower
	// levels spend several times the time for the last percent. An
	// unfiltered chunk that is not text (binary values that zstd
	// compresses best as they are) gets clevel 3 (zstd level 5, libzstd's
	// greedy search, by our port) in blocks of at most half the chunk:
	// on the project's float64 values 3-4% smaller than
	// SpeedBetterCompression at 1.7-3.8 times its speed.
	TierBetter
	// TierBest compresses with Zstd at clevel 6 (zstd level 11,
	// SpeedBestCompression) in 1 MiB blocks after a filter, 4 MiB
	// without (as TierBetter): the best ratio of the four, at the lowest
	// speed (on the project's data, all but the 90 KB rainfall grid,
	// 0.6% larger than at TierDefault, whose dfast level finds more
	// there than SpeedBestCompression). A filtered chunk that compresses less than 2:1 (audio, a
	// grid of nearly random low bytes) gets clevel 2 (zstd level 3,
	// libzstd's dfast) when its sample loses less than 1% there: 7-18
	// times the speed on the project's audio and geoid grid, for 1.1%
	// and 0.9% of their size.
	TierBest
)

// String names the tier as zstd's levels are named ("fastest", "default",
// "better", "best").
func (t Tier) String() string {
	switch t {
	case TierFastest:
		return "fastest"
	case TierDefault:
		return "default"
	case TierBetter:
		return "better"
	case TierBest:
		return "best"
	}
	return fmt.Sprintf("tier-%d", uint8(t))
}

// TierFromLevel maps a command-line level 1-9 (zstd's -1 … -9 habit) onto
// a tier: 1-2 fastest, 3-5 default, 6-7 better, 8-9 best.
func TierFromLevel(level int) Tier {
	switch {
	case level <= 2:
		return TierFastest
	case level <= 5:
		return TierDefault
	case level <= 7:
		return TierBetter
	}
	return TierBest
}

// Fixed is a set of parameters the automatic mode takes from
// [Auto.Base] as given instead of choosing them.
type Fixed uint8

// The parameters that can be fixed.
const (
	FixCodec     Fixed = 1 << iota // Base.Codec and Base.CodecMeta
	FixLevel                       // Base.Level
	FixTypeSize                    // Base.TypeSize
	FixFilters                     // Base.Filters
	FixBlockSize                   // Base.BlockSize
)

// Auto configures the automatic mode: per chunk, [ChooseCParams] probes
// the start of the chunk (1/128 of it, 4-16 KiB) with each
// candidate filter pipeline (none; shuffle at element sizes 2, 4, 8 and
// the hinted one; then bitshuffle and shuffle+bytedelta at the sizes
// whose shuffle came within 20% of the best, 5% at the fastest tier, in
// size and in saving)
// under the tier's codec,
// keeps the smallest (bytedelta, the slowest to decode, must win by 4%),
// weighs a faster level or codec for it on a window of the chunk's
// middle, and picks the block size from the tier and the winner: at most half
// the chunk, at least 32 KiB. The choice depends only on the chunk's
// bytes and on a, so the output is deterministic.
type Auto struct {
	// Tier is the speed tier; 0 means TierDefault.
	Tier Tier
	// Fixed names the parameters taken from Base unchanged.
	Fixed Fixed
	// Base holds the fixed parameters and those the mode never chooses
	// (SplitMode, UseDict, Concurrency). Base.TypeSize, when not fixed and
	// above 1, is a hint: that element size is among the candidates.
	Base CParams
}

// DefaultAuto returns the automatic mode at tier t with nothing fixed.
func DefaultAuto(t Tier) Auto {
	b := DefaultCParams()
	b.TypeSize = 0
	return Auto{Tier: t, Base: b}
}

type tierParams struct {
	codec codec.ID
	level int
	// textCodec at textLevel, when textLevel is not 0, compresses the
	// chunks the probe leaves unfiltered (text, values no shuffle
	// orders) instead of codec at level, when neither is fixed.
	textCodec codec.ID
	textLevel int
	blockSize int // for unfiltered (text-like) data
	typedBS   int // for filtered data
	// wholeText keeps unfiltered (text-like) chunks in blocks of
	// blockSize, even one block per chunk, and a shorter chunk (a short
	// stream, its last chunk) in blocks of shortTextBlock (or one, where
	// the second would be short), not halves:
	// zstd's long matches across the whole block pay more than a second
	// goroutine on the chunk, as the Writer's pipeline compresses
	// several chunks at once.
	wholeText bool
	// literalSlack, when not 0, lets a filtered chunk that compresses
	// less than literalRatio:1 (5:1 when 0: noisy samples, bytes a
	// filter left nearly random, where what the codec gains is mostly
	// entropy coding or short matches) take a fast level of the codec,
	// literalLevel (when 0, clevel 1: zstd's fastest level, LZ4's
	// acceleration 9), when that loses less than 1/literalSlack of the
	// size on the probe's sample against the tier's level: 1.5 to 10
	// times the speed for that fraction of the ratio.
	literalSlack int
	literalLevel int
	literalRatio int
	// fastCodecSlack, when not 0, lets a filtered chunk that compresses
	// less than 2:1 under the tier's codec (audio, grids of nearly
	// random low bytes: what zstd gains there over LZ4 is entropy
	// coding of near-noise, at two to four times LZ4's time) take the
	// fastest tier's codec and level instead, under the better of the
	// winner's filters and bitshuffle at its element size, when that
	// loses less than 1/fastCodecSlack of the sample's size.
	fastCodecSlack int
	// binaryLevel, when not 0, is the clevel of unfiltered chunks that
	// are not text (binary values zstd compresses best as they are),
	// with our port of libzstd's levels (CParams.FastZstd off) and in
	// the blocks of filtered chunks, at most half the chunk: on the
	// CloudWatch and ETT float64 values libzstd level 5's greedy search
	// finds the repeats klauspost's SpeedBetterCompression finds, 3.5-6%
	// smaller and twice as fast in blocks of half the chunk, where on
	// text klauspost's keeps 2-4% more and its whole-block windows pay
	// (looksText).
	binaryLevel int
	// sizeSlack: stage 2 of the probe tries bitshuffle and bytedelta at
	// the element sizes whose shuffle came within 1/sizeSlack of the
	// best one (5 when 0). The fastest tier's 20 leaves out the second
	// size that a fifth let in on the grids of float32 (shuffle/8 within
	// a fifth of shuffle/4), two of the ERA5 grid's ten compressions,
	// where the probe cost 19% of the chunk's one-goroutine compression
	// (16-17% now); on the project's data no choice changed.
	sizeSlack int
	// recurring, when set, leaves a filtered winner aside for textCodec
	// unfiltered when the chunk's 8-byte values recur across it
	// (Auto.valuesRecur). LZ4, the fastest tier's codec, sees 64 KiB
	// back, and a filter splits each value over its planes; zstd sees the
	// whole block and matches whole values. On the ETT float64 values
	// (readings of a few decimals, 54% of the sampled words recurring)
	// the probe's 3.8 KB sample favoured bitshuffle under LZ4, 2.17:1 on
	// the whole file, against S2's 2.48; unfiltered under zstd clevel 1,
	// in two blocks, 3.35:1 at 1.6 times S2's compression speed.
	recurring bool
	// noiseAccel, when not 0, is the LZ4 acceleration, beyond C-Blosc2's
	// 1-9 (CParams.LZ4Acceleration), of a chunk that takes the fast
	// level (literalSlack) and whose sample that level shrinks by less
	// than 1/noiseSaving: near-noise such as the audio, where S2 stores
	// the input as it is at memory speed and LZ4's few short matches
	// cost more time than they save bytes.
	noiseAccel int
}

// noiseSaving: a sample the fast level shrinks by less than
// 1/noiseSaving is near-noise (tierParams.noiseAccel).
const noiseSaving = 8

// shortTextBlock is the block size of a text chunk shorter than its
// tier's (wholeText). Halves of 0.5-1.2 MB cost the apache log (one 2.4
// MB chunk) 4.3-6.1% of its size at the zstd tiers and silesia_xml's
// last chunk (1.1 MB) 9-13%, against the zstd peers' one frame; one
// block for the whole chunk left a lone chunk on one goroutine, at or
// below the peers' speed. Blocks of 2 MiB keep a second goroutine busy
// on a chunk over 2 MiB, unless what is left past the first is less than
// an eighth of the chunk (the second goroutine's share, worth at most
// 8/7 of the speed): then the chunk is one block. A last block of 0.26
// MiB, without the first's history, cost the apache log 3.7% of its size
// at the better and best tiers (session 29).
const shortTextBlock = 2 << 20

var tiers = [...]tierParams{
	TierFastest: {codec: LZ4, level: 9, textCodec: Zstd, textLevel: 1,
		blockSize: 1 << 20, typedBS: 128 << 10, literalSlack: 16, sizeSlack: 20, noiseAccel: 64,
		recurring: true},
	TierDefault: {codec: Zstd, level: 2, blockSize: 2 << 20, typedBS: 256 << 10,
		wholeText: true, literalSlack: 50, fastCodecSlack: 6},
	TierBetter: {codec: Zstd, level: 4, blockSize: 4 << 20, typedBS: 512 << 10,
		wholeText: true, literalSlack: 100, binaryLevel: 3},
	TierBest: {codec: Zstd, level: 6, blockSize: 4 << 20, typedBS: 1 << 20,
		wholeText: true, literalSlack: 100, literalLevel: 2, literalRatio: 2},
}

func (a *Auto) tier() tierParams {
	t := a.Tier
	if t < TierFastest || t > TierBest {
		t = TierDefault
	}
	return tiers[t]
}

// validate checks a's tier and fixed parameters.
func (a *Auto) validate() error {
	if a.Tier > TierBest {
		return fmt.Errorf("%w: tier %d", ErrInvalidOption, a.Tier)
	}
	if a.Base.Format != ChunkBlosc2 {
		return fmt.Errorf("%w: the automatic mode writes Blosc2 chunks only", ErrInvalidOption)
	}
	p := a.base(DefaultCParams().Filters, 8)
	_, err := p.validate()
	return err
}

// base returns a's parameters with the tier's codec and level where not
// fixed, and the given filters and typesize where not fixed.
func (a *Auto) base(filters [MaxFilters]Filter, ts int) CParams {
	p := a.Base
	tp := a.tier()
	if a.Fixed&FixCodec == 0 {
		p.Codec, p.CodecMeta = tp.codec, 0
	}
	if a.Fixed&FixLevel == 0 {
		// The tiers are measured against klauspost's encoder levels.
		p.Level, p.FastZstd = tp.level, true
	}
	if a.Fixed&FixFilters == 0 {
		p.Filters = filters
	}
	if a.Fixed&FixTypeSize == 0 {
		p.TypeSize = ts
	}
	if p.TypeSize == 0 {
		p.TypeSize = 1
	}
	return p
}

// The probe's sample is the chunk's first 128th, at least probeMin bytes
// and at most probeMax (at the fastest tier the first 256th, at least
// probeMin/2 bytes), compressed as one block. A second window from the chunk's end changed no choice on the
// project's data but one (for the worse), and cost twice the time. The
// rules on a slower level or codec judge a window of the chunk's middle
// instead (Auto.middle).
const (
	probeMin = 4 << 10
	probeMax = 16 << 10
)

// ChooseCParams returns the parameters the automatic mode a (nil: the
// default tier, nothing fixed) compresses src with as one chunk.
func ChooseCParams(src []byte, a *Auto) (CParams, error) {
	if a == nil {
		d := DefaultAuto(TierDefault)
		a = &d
	}
	if err := a.validate(); err != nil {
		return CParams{}, err
	}
	return a.choose(src), nil
}

// candidate is one filter pipeline and element size, and the codec
// level when not the tier's (0), or the fastest tier's codec and level
// instead of this tier's (fastCodec).
type candidate struct {
	ts        int
	filters   [MaxFilters]Filter
	level     int
	fastCodec bool
	accel     int // LZ4's acceleration beyond C-Blosc2's (noiseAccel)
}

// params returns a's parameters for candidate c.
func (a *Auto) params(c candidate) CParams {
	p := a.base(c.filters, c.ts)
	if c.fastCodec && a.codecOpen() {
		p.Codec, p.CodecMeta, p.Level = tiers[TierFastest].codec, 0, tiers[TierFastest].level
	}
	if c.level != 0 && a.Fixed&FixLevel == 0 {
		p.Level = c.level
	}
	if c.accel != 0 && a.codecOpen() && p.Codec == LZ4 {
		p.LZ4Acceleration = c.accel
	}
	return p
}

// blockSize is the block size of candidate c's chunks that are filtered
// or not: the tier's, or the fastest tier's for its codec.
func (a *Auto) blockSize(c candidate, filtered bool) int {
	tp := a.tier()
	if c.fastCodec {
		tp = tiers[TierFastest]
	}
	if filtered {
		return tp.typedBS
	}
	return tp.blockSize
}

// probeOut recycles the probe's output buffers.
var probeOut = sync.Pool{New: func() any { return new([]byte) }}

func (a *Auto) choose(src []byte) CParams {
	tp := a.tier()
	hint := 0
	if a.Fixed&FixTypeSize == 0 && a.Base.TypeSize > 1 && a.Base.TypeSize <= 16 {
		hint = a.Base.TypeSize
	}
	best := a.probe(src, hint)
	p := a.params(best)
	// The probe ranks the candidates under the tier's codec; the text
	// codec takes the unfiltered winner.
	if tp.textLevel != 0 && !filtered(&p) && a.codecOpen() {
		p.Codec, p.CodecMeta, p.Level = tp.textCodec, 0, tp.textLevel
	}
	// Binary chunks take the blocks of filtered ones (binaryLevel).
	typed := filtered(&p)
	if !typed && tp.binaryLevel != 0 && a.codecOpen() && !looksText(a.sample(src)) {
		p.Level, p.FastZstd, typed = tp.binaryLevel, false, true
	}
	if a.Fixed&FixBlockSize == 0 {
		bs := a.blockSize(best, typed)
		switch {
		case typed || !tp.wholeText:
			// At least two blocks per chunk where the chunk allows, so
			// that its blocks keep goroutines busy; this depends on
			// len(src) only.
			bs = min(bs, max(32<<10, (len(src)+1)/2))
		case len(src) < bs && 8*(len(src)-shortTextBlock) >= len(src):
			// A short text chunk whose second 2 MiB block would hold
			// at least an eighth of it; otherwise bs, the tier's,
			// makes it one block (shortTextBlock).
			bs = shortTextBlock
		}
		// A block of the whole chunk is named as such: 0 would mean
		// C-Blosc2's automatic (cache-sized) blocks.
		p.BlockSize = max(min(bs, len(src))/p.TypeSize*p.TypeSize, p.TypeSize)
	}
	return p
}

// filtered reports whether p has a shuffle or bitshuffle that acts.
func filtered(p *CParams) bool {
	for _, f := range p.Filters {
		if (f.ID == Shuffle || f.ID == BitShuffle) && p.TypeSize > 1 {
			return true
		}
	}
	return false
}

// probe returns the candidate that compresses src's sample
// smallest (the earliest on a tie). Candidates of one stage run on up to
// Base.Concurrency goroutines; the choice does not depend on how many.
func (a *Auto) probe(src []byte, hint int) candidate {
	fixedTS := a.Fixed&FixTypeSize != 0
	baseTS := max(a.Base.TypeSize, 1)
	none := candidate{ts: 1}
	if fixedTS {
		none.ts = baseTS
	}
	if a.Fixed&FixFilters != 0 {
		none.filters = a.Base.Filters
		if fixedTS {
			return none
		}
	}
	sample := a.sample(src)
	if len(sample) == 0 {
		return none
	}
	tss := tsCandidates(hint)
	if fixedTS {
		tss = []int{baseTS}
	}
	if a.Fixed&FixFilters != 0 {
		// Only the element size is open: try each.
		cands := []candidate{none}
		for _, ts := range tss {
			cands = append(cands, candidate{ts: ts, filters: a.Base.Filters})
		}
		best, _ := a.smallest(sample, cands, noLimit)
		return best
	}
	// Stage 1: byte shuffle at each element size, then no filter, which
	// wins a tie.
	shuf := Pipeline(Filter{ID: Shuffle})
	var cands []candidate
	for _, ts := range tss {
		if ts > 1 {
			cands = append(cands, candidate{ts: ts, filters: shuf})
		}
	}
	if len(cands) == 0 {
		return none
	}
	slack := cmp.Or(a.tier().sizeSlack, 5)
	nshuf := len(cands)
	cands = append(cands, none)
	sizes := a.sizes(sample, cands, func(i int, known []int) int {
		if i == 0 {
			return noLimit
		}
		least := slices.Min(known)
		if i == nshuf {
			return least // no filter wins only at most the best shuffle
		}
		return least + least/slack // stage 2's bound below
	})
	shufI := 0
	for i, n := range sizes[:nshuf] {
		if n < sizes[shufI] {
			shufI = i
		}
	}
	shufN, shufTS := sizes[shufI], cands[shufI].ts
	best, bestN := cands[shufI], shufN
	if sizes[nshuf] <= shufN {
		best, bestN = none, sizes[nshuf]
	}
	// Stage 2: bitshuffle and shuffle+bytedelta at the element sizes
	// whose shuffle came within a fifth of the best one
	// (tierParams.sizeSlack), in size and in what it saves: on nearly
	// incompressible data every size is within a fifth of the best in
	// size, and trying them all cost the default tier a fifth of its
	// compression time. A chunk that may go to the
	// fastest tier's codec (its best shuffle compresses less than 2:1,
	// at a tier with tierParams.fastCodecSlack) tries shuffle+bytedelta
	// at the best shuffle's size alone: its compression may take a
	// fraction of the time the probe was sized for, and bitshuffle,
	// LZ4's filter on such data, never won under zstd on the project's
	// data; fastCodec tries it under LZ4.
	var more []candidate
	gain := len(sample) - shufN // the best shuffle's saving
	hardTS := 0
	if a.mayTakeFastCodec() && 2*shufN > len(sample) {
		hardTS = shufTS
	}
	for i, n := range sizes[:nshuf] {
		ts := cands[i].ts
		if n > shufN+shufN/slack || slack*(len(sample)-n) < (slack-1)*gain || hardTS != 0 && ts != hardTS {
			continue
		}
		if hardTS == 0 {
			more = append(more, candidate{ts: ts, filters: Pipeline(Filter{ID: BitShuffle})})
		}
		// ByteDelta's meta names its stream count: with meta 0,
		// C-Blosc2 takes the frame's typesize, not the chunk's.
		more = append(more, candidate{ts: ts, filters: Pipeline(Filter{ID: Shuffle}, Filter{ID: ByteDelta, Meta: uint8(ts)})})
	}
	// Bytedelta's decoding is a running sum, slower than the other
	// filters: it must win by more than 4%.
	score := func(c candidate, n int) int {
		if hasByteDelta(c.filters) {
			return n + n/25
		}
		return n
	}
	bestRaw, bestScore := bestN, bestN
	moreSizes := a.sizes(sample, more, func(i int, known []int) int {
		// A candidate wins only below the best score so far, and its
		// score is at least its size.
		least := bestScore
		for j, n := range known {
			least = min(least, score(more[j], n))
		}
		return least - 1
	})
	for i, n := range moreSizes {
		if sc := score(more[i], n); sc < bestScore {
			best, bestScore, bestRaw = more[i], sc, n
		}
	}
	p := a.params(best)
	if filtered(&p) && a.valuesRecur(src, sample, bestRaw) {
		return none
	}
	if !filtered(&p) || !a.mayTakeFastCodec() && !a.mayTakeLiteralLevel() {
		return best
	}
	// The level and codec rules judge the chunk by its middle window.
	mid, z := a.middle(src, sample, best, bestRaw)
	if fast, ok := a.rawNoise(mid, best, z); ok {
		return fast
	}
	if fast, n, ok := a.fastCodec(mid, best, z); ok {
		// The fastest tier's own level rule.
		return a.literalLevel(mid, fast, n, tiers[TierFastest])
	}
	return a.literalLevel(mid, best, z, a.tier())
}

// valuesRecur reports whether a chunk whose filtered winner compresses
// the sample to z bytes goes unfiltered to the tier's text codec
// instead (tierParams.recurring): the tier allows it, neither codec nor
// level is fixed, the sample compresses less than 3:1 (a filter that
// gains more, on small integers of 8 bytes for one, keeps it), an eighth
// or more of the sample's words recur within it, and a
// quarter or more of the 8-byte words sampled across the chunk recur
// among them, other than the commonest (recurringWords): runs of one
// value, a grid's zeros or an image's background, are what the filters
// and LZ4 compress well. Of the project's data only the ETT values
// (54%) reach a quarter; silesia_mr's chunks have 0-9% (99% with its
// background), the rainfall grid 6% (64% with its zeros), the
// ERA-Interim u grid 5%, the taxi values 4%, the CloudWatch values 17%
// (the probe leaves them unfiltered already), the others less.
func (a *Auto) valuesRecur(src, sample []byte, z int) bool {
	if !a.tier().recurring || !a.codecOpen() || 3*z <= len(sample) {
		return false
	}
	// The sample first, which is in cache: the count across a 4 MiB
	// chunk costs 10-15 µs more out of cache, 1.2% of the ERA5 grid's
	// compression, whose sample has no recurring word (nor the audio's,
	// the geoid grid's, the timestamps'); the ETT values' has 50%.
	if r, m := recurringWords(sample); 8*r < m || m == 0 {
		return false
	}
	r, m := recurringWords(src)
	return m > 0 && 4*r >= m
}

// recurringWords samples src in recurGroups runs of recurRun 8-byte
// words at even steps from its start to its end, and returns how many of
// the words taken equal a word of another run, not counting those equal
// to the commonest word, and how many were taken (none from less than
// two runs' worth). Words equal within one run are local repeats, which
// LZ4 finds. 1024 single words, each on a cache line and most on a page
// of their own, took 40-45 µs out of cache on a 4 MiB chunk; 16 runs of
// 64 rank the project's data the same (the ETT values 54% against 61%,
// the others 9% or less, but for the CloudWatch values, 17% against
// 40%, which the probe leaves unfiltered). It reads each word once and
// allocates nothing.
func recurringWords(src []byte) (recurring, taken int) {
	n := len(src) / 8
	runs := min(n/recurRun, recurGroups)
	if runs < 2 {
		return 0, 0
	}
	var keys [1 << recurBits]uint64
	var counts [len(keys)]uint16
	var first [len(keys)]uint8 // the run a word was first taken from
	var across [len(keys)]bool // and taken from another run since
	slot := func(v uint64) int {
		j := int(v * 0x9E3779B97F4A7C15 >> (64 - recurBits))
		for counts[j] != 0 && keys[j] != v {
			j = (j + 1) & (len(keys) - 1)
		}
		return j
	}
	var slots [recurGroups * recurRun]uint16 // each word's
	top := 0
	for k := range runs {
		start := int(int64(k) * int64(n-recurRun) / int64(runs-1))
		run := src[8*start : 8*(start+recurRun)]
		for i := range recurRun {
			v := binary.LittleEndian.Uint64(run[8*i:])
			j := slot(v)
			slots[k*recurRun+i] = uint16(j)
			if counts[j] == 0 {
				keys[j], first[j] = v, uint8(k)
			} else if first[j] != uint8(k) {
				across[j] = true
			}
			counts[j]++
			if counts[j] > counts[top] {
				top = j
			}
		}
	}
	for _, j := range slots[:runs*recurRun] {
		if across[j] {
			recurring++
		}
	}
	if across[top] {
		recurring -= int(counts[top])
	}
	return recurring, runs * recurRun
}

// recurringWords' samples: recurGroups runs of recurRun words, in a
// table of 1<<recurBits slots (twice as many as words).
const (
	recurRun    = 64
	recurGroups = 16 // at most 256: a run's number is a byte
	recurBits   = 11
	_           = uint(1<<recurBits - 2*recurGroups*recurRun) // the table has room
)

// sample returns the probe's sample of src: its first 128th, 4-16 KiB;
// its first 256th, 2-16 KiB, when the tier's codec is LZ4.
func (a *Auto) sample(src []byte) []byte {
	// LZ4's tier compresses fastest: it gets half the sample, down to
	// 2 KiB for chunks under 1 MiB. With 4 KiB the probe took a third
	// of the time of the machine-temperature values' 0.18 MB; with 2
	// the stream compresses them at 2.07-2.11 GB/s instead of
	// 1.19-1.67, the rainfall grid 10% and the CloudWatch values 5%
	// faster. Of the 26 data files' choices only theirs changed, for
	// the better (ratio 1.250 to 1.261).
	div, least := 128, probeMin
	if a.tier().codec == LZ4 {
		div, least = 256, probeMin/2
	}
	return src[:min(len(src), max(len(src)/div, least), probeMax)]
}

// looksText reports whether b reads as text: at least 7/8 of its bytes
// are printable ASCII, tab, line feed or carriage return. The project's
// text files are 97-100% such bytes, its binary numbers 11-53%; text in
// other scripts (UTF-8 beyond ASCII) reads as binary.
func looksText(b []byte) bool {
	n := 0
	for _, c := range b {
		if c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' || c == '\r' {
			n++
		}
	}
	return 8*n >= 7*len(b)
}

// middle returns the window of src's middle as long as sample, and the
// size of its chunk under best, when src is at least four samples long;
// else sample and z, its size under best. The filters are ranked on the
// chunk's first window, but how much a slower level or codec gains is
// judged on its middle: a grid's first rows may be its poles, a constant
// value, where the geoid grid's first 16 KiB compress 4.5:1 and the
// whole chunk 1.6:1, which kept it from the default tier's LZ4 rule
// (tierParams.fastCodecSlack). Ranking the filters on the middle window
// too made the audio's and silesia_mr's choices 5-6% larger.
func (a *Auto) middle(src, sample []byte, best candidate, z int) ([]byte, int) {
	if len(src) < 4*len(sample) {
		return sample, z
	}
	m := len(src) / 2 / best.ts * best.ts // on an element's start
	mid := src[m : m+len(sample)]
	return mid, a.size(mid, best, noLimit)
}

// fastCodec returns the fastest tier's codec under best's filters or
// bitshuffle at best's element size, whichever compresses the sample
// smaller, when the tier allows it (tierParams.fastCodecSlack), best
// is filtered, the sample (z under best) compresses less than 2:1, and
// that codec's sample is less than 1/fastCodecSlack larger than z.
func (a *Auto) fastCodec(sample []byte, best candidate, z int) (candidate, int, bool) {
	if !a.mayTakeFastCodec() || 2*z <= len(sample) {
		return best, z, false
	}
	cands := []candidate{{ts: best.ts, filters: best.filters, fastCodec: true}}
	if bit := Pipeline(Filter{ID: BitShuffle}); best.filters != bit && a.Fixed&FixFilters == 0 {
		cands = append(cands, candidate{ts: best.ts, filters: bit, fastCodec: true})
	}
	limit := z + z/a.tier().fastCodecSlack
	fast, n := a.smallest(sample, cands, limit)
	return fast, n, n <= limit
}

// mayTakeFastCodec reports whether a's chunks may take the fastest
// tier's codec (fastCodec): the tier allows it and neither the codec
// nor the level is fixed.
func (a *Auto) mayTakeFastCodec() bool {
	return a.tier().fastCodecSlack != 0 && a.codecOpen()
}

// mayTakeLiteralLevel reports whether a's chunks may take the tier's
// fast level (literalLevel): the tier allows it and neither the codec
// nor the level is fixed.
func (a *Auto) mayTakeLiteralLevel() bool {
	return a.tier().literalSlack != 0 && a.codecOpen()
}

// codecOpen reports whether the tier chooses the codec and its level:
// neither is fixed.
func (a *Auto) codecOpen() bool {
	return a.Fixed&(FixCodec|FixLevel) == 0
}

// hasByteDelta reports whether the pipeline has a ByteDelta filter.
func hasByteDelta(filters [MaxFilters]Filter) bool {
	for _, f := range filters {
		if f.ID == ByteDelta {
			return true
		}
	}
	return false
}

// literalLevel returns best at tier tp's fast level (clevel 1, or
// tierParams.literalLevel) when tp allows it (tierParams.literalSlack)
// and the sample, z bytes under best at the level the probe used, is
// little larger at the fast level than at tp's level; else best. tp is
// a's tier, or the fastest tier for a chunk that took its codec
// (fastCodec).
func (a *Auto) literalLevel(sample []byte, best candidate, z int, tp tierParams) candidate {
	if tp.literalSlack == 0 || !a.codecOpen() {
		return best
	}
	// Only filtered data that compresses less than 5:1 on the sample:
	// there the matches are short and few whatever the block. On text
	// and on highly compressible data (timestamps) the long matches of
	// whole blocks, which a small sample does not show, make the slower
	// level pay.
	if cmp.Or(tp.literalRatio, 5)*z <= len(sample) {
		return best
	}
	fast, slow := best, best
	fast.level, slow.level = max(tp.literalLevel, 1), tp.level
	if z > len(sample) {
		// The sample was stored as it is: nothing to lose.
		return a.noise(fast)
	}
	// The probe ran zstd at clevel 1 (see sizes) and other codecs at the
	// tier's level: what it did not measure is measured here.
	var nFast, nSlow int
	switch {
	case tp.codec == Zstd && fast.level == 1:
		nFast, nSlow = z, a.size(sample, slow, noLimit)
	case tp.codec == Zstd:
		n := a.sizes(sample, []candidate{fast, slow}, nil)
		nFast, nSlow = n[0], n[1]
	default:
		nFast, nSlow = a.size(sample, fast, z+z/tp.literalSlack), z
	}
	if nFast <= nSlow+nSlow/tp.literalSlack {
		if nFast > len(sample)-len(sample)/noiseSaving {
			return a.noise(fast)
		}
		return fast
	}
	return best
}

// rawNoise returns best's shuffle at the tier's noiseAccel, when the
// tier has one (the fastest), best has a ByteDelta, the chunk's middle
// window mid compresses less than 2:1 under best (z bytes) and shrinks
// by less than 1/noiseSaving under the tier's codec with no filter,
// and the shuffle at noiseAccel loses less than 1/rawNoiseSlack of z.
// There S2, the fastest tier's counterpart, stores the input at memory
// speed, and what ByteDelta gains over the shuffle is LZ4's short
// matches in planes of near-random low bytes, which cost LZ4 their
// time: on the geoid grid 40 sequences a KiB against the shuffle's 13,
// half the shuffle's speed for 6% of the size. The shuffle at
// acceleration 64 skips those planes: 1.29:1 against 1.41, at 2.5
// times the speed on one goroutine (S2: 1.00:1). Where ByteDelta
// compresses 2:1 or more its planes hold long matches, which LZ4 finds
// fast (a grid of values rounded to 1/256, 3.5:1 with ByteDelta, 2.0
// as the shuffle at acceleration 64).
func (a *Auto) rawNoise(mid []byte, best candidate, z int) (candidate, bool) {
	accel := a.tier().noiseAccel
	if accel == 0 || !hasByteDelta(best.filters) || !a.codecOpen() || 2*z <= len(mid) {
		return best, false
	}
	if limit := len(mid) - len(mid)/noiseSaving; a.size(mid, candidate{ts: 1}, limit) <= limit {
		return best, false
	}
	fast := candidate{ts: best.ts, filters: Pipeline(Filter{ID: Shuffle}), accel: accel}
	if limit := z + z/rawNoiseSlack; a.size(mid, fast, limit) > limit {
		return best, false
	}
	return fast, true
}

// rawNoiseSlack: the shuffle at noiseAccel that replaces a ByteDelta
// (Auto.rawNoise) loses less than 1/rawNoiseSlack of its size.
const rawNoiseSlack = 8

// noise returns fast, a candidate at the fast level whose sample is
// near-noise, at the tier's noiseAccel when it has one (the fastest
// tier's alone: the other tiers keep what LZ4 saves on such chunks).
func (a *Auto) noise(fast candidate) candidate {
	fast.accel = a.tier().noiseAccel
	return fast
}

// smallest returns the candidate compressing sample smallest, the
// earliest on a tie, and its size, or a size above limit when none is
// at most limit.
func (a *Auto) smallest(sample []byte, cands []candidate, limit int) (candidate, int) {
	sizes := a.sizes(sample, cands, func(i int, known []int) int {
		if i == 0 {
			return limit
		}
		// A later candidate wins only below the smallest so far.
		return min(limit, slices.Min(known)-1)
	})
	best := 0
	for i, n := range sizes {
		if n < sizes[best] {
			best = i
		}
	}
	return cands[best], sizes[best]
}

// noLimit: the caller of Auto.sizes needs the candidate's exact size
// (every size is at most noLimit).
const noLimit = math.MaxInt

// size returns the size of sample's chunk, one block, under candidate
// c, or a size above limit when it is larger (Auto.sizes).
func (a *Auto) size(sample []byte, c candidate, limit int) int {
	out := probeOut.Get().(*[]byte)
	defer probeOut.Put(out)
	return a.sizeInto(out, sample, c, limit)
}

// sizeInto is size, compressing into *out.
func (a *Auto) sizeInto(out *[]byte, sample []byte, c candidate, limit int) int {
	if !probeLimits {
		limit = noLimit
	}
	p := a.params(c)
	if a.codecOpen() && p.Codec == Zstd && c.level == 0 {
		// zstd's fastest level ranks the candidates as its slower
		// ones do, at a fraction of their time (like libzstd's,
		// whose size it writes, it entropy-codes the literals of
		// match-less windows too).
		p.Level = 1
	}
	p.BlockSize = len(sample)
	p.UseDict = false
	n, err := chunkLenWithin(out, sample, &p, limit)
	if err != nil {
		return len(sample) + MaxOverhead
	}
	if n > limit {
		return limit + overLimit
	}
	return n
}

// sizes returns the size of sample's chunk, one block, under each
// candidate, computed on up to Base.Concurrency goroutines. limit, when
// not nil, says what the caller needs to know of candidate i given the
// sizes of those before it: its size when at most limit(i, known), else
// only that it is larger (noLimit: its size). On one goroutine the
// candidates are compressed in order, and one beyond its limit reports
// limit+overLimit, at a fraction of the time under LZ4 (chunkLenWithin): the
// callers' choices are the same whatever a size above its limit is
// (TestProbeLimits). On several the sizes are exact.
func (a *Auto) sizes(sample []byte, cands []candidate, limit func(i int, known []int) int) []int {
	sizes := make([]int, len(cands))
	threads := min(a.Base.Concurrency, len(cands))
	if threads > 1 {
		// The candidates of one call share their codec. Under LZ4 or
		// BloscLZ each takes a few microseconds, less than the
		// hand-offs between goroutines: two made the fastest tier's
		// probe 3-25% slower on the project's data.
		if c := a.params(cands[0]).Codec; c == LZ4 || c == BloscLZ {
			threads = 1
		}
	}
	if threads <= 1 {
		// Not through fanout.Run, whose closure and counter would escape
		// to the heap on every call, several times a chunk.
		out := probeOut.Get().(*[]byte)
		for i, c := range cands {
			lim := noLimit
			if limit != nil {
				lim = limit(i, sizes[:i])
			}
			sizes[i] = a.sizeInto(out, sample, c, lim)
		}
		probeOut.Put(out)
		return sizes
	}
	var next atomic.Int64
	fanout.Run(threads, func() {
		out := probeOut.Get().(*[]byte)
		defer probeOut.Put(out)
		for i := int(next.Add(1) - 1); i < len(cands); i = int(next.Add(1) - 1) {
			sizes[i] = a.sizeInto(out, sample, cands[i], noLimit)
		}
	})
	return sizes
}

// probeLimits lets Auto.sizes compress a candidate only as far as its
// caller needs, and a candidate beyond its limit reports limit+overLimit.
// The tests turn the limits off, and report far beyond them, to check
// that no choice depends on either.
var (
	probeLimits = true
	overLimit   = 1
)

// tsCandidates are the element sizes tried: 2, 4, 8 and the hint.
func tsCandidates(hint int) []int {
	ts := []int{2, 4, 8}
	if hint > 1 && hint != 2 && hint != 4 && hint != 8 {
		ts = append(ts, hint)
	}
	return ts
}

// CompressAuto compresses src into one chunk with the parameters
// [ChooseCParams] chooses, appends it to dst and returns the extended
// slice and those parameters. A chunk whose elements all repeat one
// value (of 1, 2, 4, 8 or 16 bytes, or the fixed typesize) becomes a
// special chunk: zeros, or the value stored once.
func CompressAuto(dst, src []byte, a *Auto) ([]byte, CParams, error) {
	return compressAuto(dst, src, a, nil)
}

// compressAuto is CompressAuto, and with pieces Chunk.CompressAuto (see
// encoder.compress).
func compressAuto(dst, src []byte, a *Auto, pieces *[][]byte) ([]byte, CParams, error) {
	if a == nil {
		d := DefaultAuto(TierDefault)
		a = &d
	}
	if err := a.validate(); err != nil {
		return dst, CParams{}, err
	}
	if err := checkChunkLen(src); err != nil {
		return dst, CParams{}, err
	}
	if out, p, ok := a.special(dst, src); ok {
		return out, p, nil
	}
	p := a.choose(src)
	out, err := compressChunk(dst, src, &p, pieces)
	return out, p, err
}

// special writes src as a special chunk when it is one value repeated.
func (a *Auto) special(dst, src []byte) ([]byte, CParams, bool) {
	if len(src) < MinBufferSize {
		return dst, CParams{}, false
	}
	periods := []int{1, 2, 4, 8, 16}
	if a.Fixed&FixTypeSize != 0 {
		periods = []int{max(a.Base.TypeSize, 1)}
	}
	for _, ts := range periods {
		if ts > len(src) || len(src)%ts != 0 || !repeats(src, ts) {
			continue
		}
		p := a.base([MaxFilters]Filter{}, ts)
		var out []byte
		var err error
		if _, zero := runByte(src[:ts]); zero && src[0] == 0 {
			out, err = AppendSpecial(dst, SpecialZero, len(src), ts, 0, nil)
		} else {
			out, err = AppendSpecial(dst, SpecialValue, len(src), ts, 0, src[:ts])
		}
		if err != nil {
			return dst, CParams{}, false
		}
		return out, p, true
	}
	return dst, CParams{}, false
}

// repeats reports whether src is its first ts bytes over and over.
func repeats(src []byte, ts int) bool {
	if !bytes.Equal(src[:ts], src[len(src)-ts:]) {
		return false
	}
	// Doubling comparison: src[:n] repeats, then compare the next n.
	n := ts
	for n < len(src) {
		m := min(n, len(src)-n)
		if !bytes.Equal(src[n:n+m], src[:m]) {
			return false
		}
		n += m
	}
	return true
}

// Choice describes what a chunk's header says was chosen for it, as the
// automatic mode's reports show it: the codec, the filters with the
// element size ("zstd shuffle+bytedelta/8", "lz4 nofilter/1"), or the
// kind of a special chunk ("special-zero").
func (h *Header) Choice() string {
	if s := h.Special(); s != SpecialNone {
		return "special-" + s.String()
	}
	var names []byte
	for _, f := range h.Filters {
		if f.ID == NoFilter {
			continue
		}
		if len(names) > 0 {
			names = append(names, '+')
		}
		names = append(names, filterName(f.ID)...)
	}
	if len(names) == 0 {
		names = append(names, "nofilter"...)
	}
	s := fmt.Sprintf("%s %s/%d", codec.Name(h.Codec), names, h.TypeSize)
	if h.Memcpyed() {
		s += " memcpyed"
	}
	return s
}

// filterName is the command line's name of a filter id.
func filterName(id FilterID) string {
	switch id {
	case Shuffle:
		return "shuffle"
	case BitShuffle:
		return "bitshuffle"
	case Delta:
		return "delta"
	case TruncPrec:
		return "truncprec"
	case ByteDelta:
		return "bytedelta"
	case ByteDeltaBuggy:
		return "bytedelta-old"
	}
	return fmt.Sprintf("filter-%d", id)
}

// FrameCParams returns the parameters a frame written in the automatic
// mode records in its header, before any chunk is seen: the tier's codec
// and level (or the fixed ones), the fixed or hinted typesize (else 1),
// the fixed filters (else none). Each chunk's own header says what was
// chosen for it.
func (a *Auto) FrameCParams() CParams {
	ts := 1
	if a.Base.TypeSize > 1 {
		ts = a.Base.TypeSize
	}
	p := a.base([MaxFilters]Filter{}, ts)
	if a.Fixed&FixBlockSize == 0 {
		p.BlockSize = 0
	}
	return p
}
