package blosc2

import (
	"fmt"
	"runtime"

	"github.com/blosc2go/blosc2/codec"
)

// Codec ids, re-exported from package codec for convenience.
const (
	BloscLZ = codec.BloscLZ
	LZ4     = codec.LZ4
	LZ4HC   = codec.LZ4HC
	Zlib    = codec.Zlib
	Zstd    = codec.Zstd
	// Snappy exists only in Blosc1 chunks ([ChunkBlosc1]): C-Blosc2 has no
	// such codec.
	Snappy = codec.Snappy
)

// ChunkFormat is the layout of the chunks [Compress] writes.
type ChunkFormat uint8

// The chunk formats.
const (
	// ChunkBlosc2 is the chunk C-Blosc2 writes (version 5, 32-byte
	// header): the default, and the only one frames hold.
	ChunkBlosc2 ChunkFormat = 0
	// ChunkBlosc1 is the chunk C-Blosc 1.x writes (version 2, 16-byte
	// header), which Zarr v2, numcodecs, python-blosc and C-Blosc 1.x read
	// (and C-Blosc2 too). Its block size and split decisions are C-Blosc
	// 1.21's. It cannot express every option: see [CParams.Format].
	ChunkBlosc1 ChunkFormat = 1
)

// String names the format as the command line does ("blosc2", "blosc1").
func (f ChunkFormat) String() string {
	switch f {
	case ChunkBlosc2:
		return "blosc2"
	case ChunkBlosc1:
		return "blosc1"
	}
	return fmt.Sprintf("chunk-format-%d", uint8(f))
}

// FilterID is a Blosc2 filter id, as stored in a chunk's filter slots.
type FilterID uint8

// The filters C-Blosc2 defines. User filters take ids 160-255 (RegisterFilter).
const (
	NoFilter       FilterID = 0
	Shuffle        FilterID = 1  // byte shuffle; Meta = element width (0: typesize)
	BitShuffle     FilterID = 2  // bit shuffle
	Delta          FilterID = 3  // XOR against the chunk's first block
	TruncPrec      FilterID = 4  // float mantissa truncation (lossy); Meta = int8 precision
	ByteDeltaBuggy FilterID = 34 // the original bytedelta, read for old data
	ByteDelta      FilterID = 35 // byte-wise delta after shuffle; Meta = number of streams (0: typesize)

	// The filters C-Blosc2 registers as plugins. NDCell and NDMean work on
	// the cells of N-dimensional blocks and need a [Geometry] (a b2nd
	// array), as in C-Blosc2, where they read the b2nd metalayer.
	NDCell   FilterID = 32 // reorder a block cell by cell; Meta = cell side
	NDMean   FilterID = 33 // replace each cell by its mean (lossy; float32/float64); Meta = cell side (1-127)
	IntTrunc FilterID = 36 // zero low bits of integers (lossy); Meta = int8: bits kept (≥ 0) or zeroed (< 0)
)

// Geometry is the block shape of a b2nd array, which the ZFP and NDLZ
// codecs and the NDCell and NDMean filters need: see [codec.Geometry].
type Geometry = codec.Geometry

// Filter is one slot of the filter pipeline: an id and its meta byte.
type Filter struct {
	ID   FilterID
	Meta uint8
}

// Pipeline places filters in the six slots the way C-Blosc2's command-line
// conventions and python-blosc2 do: right-aligned, so the last filter named
// sits in slot 5. Filters run from slot 0 to slot 5 when compressing, i.e.
// in the order given. It panics if given more than six filters.
func Pipeline(filters ...Filter) [MaxFilters]Filter {
	if len(filters) > MaxFilters {
		panic("blosc2: more than 6 filters")
	}
	var p [MaxFilters]Filter
	copy(p[MaxFilters-len(filters):], filters)
	return p
}

// SplitMode says when blocks are cut into one stream per byte of the
// element (C-Blosc2's splitmode).
type SplitMode uint8

// The split modes. SplitForward, the default, and SplitAuto use C-Blosc2's
// heuristic (split for BloscLZ, LZ4 and Zstd up to clevel 5, with a shuffle
// filter, typesize ≤ 16 and at least 32 elements per block). Blosc1 chunks
// use C-Blosc 1.21's: SplitForward splits every codec but Zstd, SplitAuto
// BloscLZ and Snappy, for typesize ≤ 16 and at least 128 elements per block,
// with or without a filter; SplitAlways splits only blocks C-Blosc 1.x can
// read split (those same sizes).
const (
	SplitDefault SplitMode = 0 // same as SplitForward
	SplitAlways  SplitMode = 1
	SplitNever   SplitMode = 2
	SplitAuto    SplitMode = 3
	SplitForward SplitMode = 4
)

// CParams are the compression parameters. The zero value is not useful:
// start from DefaultCParams, or pass nil for the defaults.
type CParams struct {
	// Codec is the compressor (BloscLZ, LZ4, LZ4HC, Zlib, Zstd or a
	// registered id ≥ 160). CodecMeta is passed to it and stored in the header.
	Codec     codec.ID
	CodecMeta uint8
	// Level is the compression level 0-9; 0 stores the data uncompressed.
	Level int
	// TypeSize is the element size in bytes, 1 to MaxTypeSize (0 means 1).
	// Sizes above 255 are stored as 1 and filters then see bytes.
	TypeSize int
	// Filters is the pipeline, slot 0 first (see Pipeline).
	Filters [MaxFilters]Filter
	// BlockSize is the block size in bytes; 0 chooses it as C-Blosc2 does
	// (C-Blosc 1.21 for Blosc1 chunks, which also raises a size below 128
	// to 128 and enlarges the blocks it splits, as C does). A size that is
	// not a multiple of TypeSize is rounded down to one.
	BlockSize int
	// SplitMode decides whether blocks are cut into per-byte streams.
	SplitMode SplitMode
	// UseDict builds a dictionary for the chunk (LZ4, LZ4HC and Zstd).
	UseDict bool
	// FastZstd compresses Zstd at clevels 3-6 with klauspost/compress's
	// encoder levels instead of our port of libzstd's, and blocks over
	// 256 KiB at clevel 1 with libzstd level 2's parameters (see
	// [codec.LookupFast]): the trade-offs the automatic mode's tiers are
	// tuned to, which it sets. At clevels 3-5 they are 1.6-3 times as
	// fast in Go, chunks up to 1.5 times C-Blosc2's size (shuffled
	// timestamps; 3-8% on text and floats); at clevel 6 faster on blocks
	// of several MiB of text. Other clevels and codecs ignore it, and
	// C-Blosc2 reads the chunks either way.
	FastZstd bool
	// LZ4Acceleration, when not 0, is the acceleration LZ4 compresses
	// with (1 to [codec.MaxLZ4Acceleration]) in place of C-Blosc2's
	// 10-Level ([codec.LZ4Accelerated]): above 9, data LZ4 can barely
	// compress goes through several times as fast, nearly as it is. The
	// automatic mode's fastest tier sets it for such chunks. Other codecs
	// ignore it, and C-Blosc2 reads the chunks either way.
	LZ4Acceleration int
	// Concurrency is the number of goroutines compressing the blocks of one
	// chunk (C-Blosc2's nthreads, which frame headers record); ≤ 1
	// compresses in the calling goroutine. The output does not depend on
	// it. The module says "concurrency" for every count of goroutines.
	Concurrency int
	// Geometry is the block shape of the b2nd array the chunk belongs to,
	// needed by the codecs and filters that work on N-dimensional cells
	// (ZFP, NDLZ, NDCell, NDMean); the b2nd package sets it. Without it
	// those refuse, with an error wrapping [ErrInvalidOption].
	Geometry *Geometry
	// Format is the chunk layout: [ChunkBlosc2] (the zero value) or
	// [ChunkBlosc1] for C-Blosc 1.x, Zarr v2 and numcodecs. A Blosc1 chunk
	// holds at most one filter, Shuffle or BitShuffle (in any slot), a
	// typesize up to 255 and one of the codecs C-Blosc 1.x has (BloscLZ,
	// LZ4, LZ4HC, Snappy, Zlib, Zstd); Compress refuses Delta, TruncPrec,
	// ByteDelta, user filters and codecs, UseDict and CodecMeta with an
	// error wrapping [ErrInvalidOption] that names them. Frames hold
	// Blosc2 chunks only.
	Format ChunkFormat
}

// Lossless reports whether decompressing what p compresses always gives
// back exactly the input: its codec is lossless ([codec.Lossless]) and so
// is every filter of its pipeline (not TruncPrec, NDMean, IntTrunc or a
// user filter).
func (p *CParams) Lossless() bool {
	if !codec.Lossless(p.Codec) {
		return false
	}
	for _, f := range p.Filters {
		if !filterLossless(f.ID) {
			return false
		}
	}
	return true
}

// DefaultCParams returns C-Blosc2's defaults: BloscLZ at level 5,
// typesize 8, shuffle in slot 5, automatic block size and split mode.
func DefaultCParams() CParams {
	return CParams{
		Codec:       BloscLZ,
		Level:       5,
		TypeSize:    8,
		Filters:     Pipeline(Filter{ID: Shuffle}),
		SplitMode:   SplitForward,
		Concurrency: 1,
	}
}

// DefaultMaxMemory is the default limit on the size a chunk may declare
// (DParams.MaxMemory): the format's own maximum. stream.Reader, which holds
// several chunks, has a lower default (stream.DefaultMaxMemory).
const DefaultMaxMemory = MaxBufferSize

// DParams are the decompression parameters. The zero value is usable.
type DParams struct {
	// Concurrency is the number of goroutines decompressing the blocks of one
	// chunk, at most; ≤ 1 decompresses in the calling goroutine. A chunk
	// with no filter but shuffle that decodes fast takes one goroutine per
	// 768 KiB of its output at a ratio of 32:1 or more (384 KiB under zstd
	// and zlib, and two blocks either way), per 256 KiB under LZ4 below
	// that: on less, a second one costs more than it saves.
	Concurrency int
	// MaxMemory caps the memory a decode allocates on the input's word: the
	// uncompressed size a chunk may declare (chunks that declare more fail
	// with ErrTooLarge before anything is allocated) and, for frame
	// readers, the size of an index or a chunk-size table. 0 means
	// DefaultMaxMemory.
	MaxMemory int
	// Geometry is the block shape of the b2nd array the chunk belongs to,
	// which chunks compressed with ZFP or NDLZ or filtered with NDCell or
	// NDMean need (the b2nd package and framereader set it from the b2nd
	// metalayer). Without it such chunks fail with an error wrapping
	// [ErrUnsupported].
	Geometry *Geometry
}

func (p *DParams) geometry() *Geometry {
	if p == nil {
		return nil
	}
	return p.Geometry
}

func (p *DParams) threads() int {
	if p == nil || p.Concurrency <= 1 {
		return 1
	}
	return min(p.Concurrency, 4*runtime.GOMAXPROCS(0))
}

// MemoryCap is the cap MaxMemory sets: MaxMemory, or DefaultMaxMemory
// when it is 0 (or p is nil).
func (p *DParams) MemoryCap() int {
	if p == nil || p.MaxMemory <= 0 {
		return DefaultMaxMemory
	}
	return p.MaxMemory
}

// Validate checks the parameters as [Compress] does before it compresses
// anything: every error wraps [ErrInvalidOption] and names the field. The
// packages that take CParams (framewriter, stream, b2nd) call it in their
// constructors, so that bad parameters fail there and not at the first
// chunk.
func (p *CParams) Validate() error {
	_, err := p.validate()
	return err
}

// orDefault returns p validated and normalised, or DefaultCParams for nil:
// the first step of every function that takes a *CParams.
func (p *CParams) orDefault() (CParams, error) {
	if p == nil {
		return DefaultCParams(), nil
	}
	return p.validate()
}

// validate checks the parameters and returns them normalised.
func (p *CParams) validate() (CParams, error) {
	q := *p
	if q.Level < 0 || q.Level > 9 {
		return q, fmt.Errorf("%w: compression level %d outside 0-9", ErrInvalidOption, q.Level)
	}
	if q.LZ4Acceleration < 0 || q.LZ4Acceleration > codec.MaxLZ4Acceleration {
		return q, fmt.Errorf("%w: lz4 acceleration %d outside 0-%d", ErrInvalidOption, q.LZ4Acceleration, codec.MaxLZ4Acceleration)
	}
	if q.TypeSize == 0 {
		q.TypeSize = 1
	}
	if q.TypeSize < 0 || q.TypeSize > MaxTypeSize {
		return q, fmt.Errorf("%w: typesize %d outside 1-%d", ErrInvalidOption, q.TypeSize, MaxTypeSize)
	}
	if q.BlockSize < 0 || q.BlockSize > MaxBlockSize {
		return q, fmt.Errorf("%w: blocksize %d outside 0-%d", ErrInvalidOption, q.BlockSize, MaxBlockSize)
	}
	if q.SplitMode > SplitForward {
		return q, fmt.Errorf("%w: split mode %d", ErrInvalidOption, q.SplitMode)
	}
	if q.SplitMode == SplitDefault {
		q.SplitMode = SplitForward
	}
	if _, err := codec.Lookup(q.Codec); err != nil {
		return q, fmt.Errorf("%w: %v", ErrInvalidOption, err)
	}
	for i, f := range q.Filters {
		if !filterKnown(f.ID) {
			return q, fmt.Errorf("%w: filter id %d in slot %d is not registered", ErrInvalidOption, f.ID, i)
		}
		if filterNeedsGeometry(f.ID) && q.Geometry == nil {
			return q, fmt.Errorf("%w: filter %d in slot %d: %v", ErrInvalidOption, f.ID, i, codec.ErrNoGeometry)
		}
	}
	if codec.NeedsGeometry(q.Codec) && q.Geometry == nil {
		return q, fmt.Errorf("%w: codec %s: %v", ErrInvalidOption, codec.Name(q.Codec), codec.ErrNoGeometry)
	}
	switch q.Format {
	case ChunkBlosc1:
		err := q.validateBlosc1()
		return q, err
	case ChunkBlosc2:
	default:
		return q, fmt.Errorf("%w: chunk format %d", ErrInvalidOption, q.Format)
	}
	if q.Codec == Snappy {
		return q, fmt.Errorf("%w: snappy exists only in Blosc1 chunks (C-Blosc2 has no snappy codec): use ChunkBlosc1 (blosc2 compress --format blosc1)", ErrInvalidOption)
	}
	if q.UseDict && q.Codec != LZ4 && q.Codec != LZ4HC && q.Codec != Zstd {
		return q, fmt.Errorf("%w: dictionaries need lz4, lz4hc or zstd, not %s", ErrInvalidOption, codec.Name(q.Codec))
	}
	return q, nil
}
