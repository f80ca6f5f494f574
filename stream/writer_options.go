package stream

import (
	"bytes"
	"fmt"
	"runtime"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/frame"
)

// DefaultChunkSize is the uncompressed size of each chunk of the frame the
// Writer produces, unless WithChunkSize says otherwise.
const DefaultChunkSize = 4 << 20

// MaxConcurrency caps the automatic concurrency (WithConcurrency(0)).
const MaxConcurrency = 8

// WriterOption configures a Writer. Options are fixed at NewWriter; Reset
// keeps them.
type WriterOption func(*writerOptions) error

type writerOptions struct {
	cparams     blosc2.CParams
	chunkSize   int
	concurrency int
	metalayers  []frame.Metalayer
	vlmeta      []frame.Metalayer
	noChecksums bool
	// tier is the automatic mode's tier (0: off, fixed parameters);
	// fixed names the parameters options set explicitly.
	tier  blosc2.Tier
	fixed blosc2.Fixed
	// tierSet says the tier was asked for (WithTier, WithAuto): naming
	// both the codec and the filters then does not turn the mode off.
	tierSet bool
}

// auto returns the automatic mode the options describe, or nil.
func (o *writerOptions) auto() *blosc2.Auto {
	if o.tier == 0 || !o.tierSet && o.fixed&(blosc2.FixCodec|blosc2.FixFilters) == blosc2.FixCodec|blosc2.FixFilters {
		return nil
	}
	return &blosc2.Auto{Tier: o.tier, Fixed: o.fixed, Base: o.cparams}
}

func defaultWriterOptions() writerOptions {
	return writerOptions{
		cparams:     blosc2.DefaultCParams(),
		chunkSize:   DefaultChunkSize,
		concurrency: autoConcurrency(),
		tier:        blosc2.TierDefault,
	}
}

func autoConcurrency() int { return min(runtime.GOMAXPROCS(0), MaxConcurrency) }

// WithCodec sets the codec. By default the automatic mode picks it (see
// WithTier); naming the codec fixes it, and naming both the codec and the
// filters (WithFilters) turns the automatic mode off unless WithTier or
// WithAuto asks for it, so that such callers get C-Blosc2's fixed
// parameters (BloscLZ, level 5, typesize 8, shuffle where not named).
func WithCodec(id codec.ID) WriterOption {
	return func(o *writerOptions) error {
		if _, err := codec.Lookup(id); err != nil {
			return fmt.Errorf("%w: %v", blosc2.ErrInvalidOption, err)
		}
		o.cparams.Codec = id
		o.fixed |= blosc2.FixCodec
		return nil
	}
}

// WithLevel sets the compression level, 0 (store) to 9. By default the
// automatic mode's tier picks it; naming it fixes it (5 when the mode is
// off and no level is named).
func WithLevel(level int) WriterOption {
	return func(o *writerOptions) error {
		if level < 0 || level > 9 {
			return fmt.Errorf("%w: level %d outside 0-9", blosc2.ErrInvalidOption, level)
		}
		o.cparams.Level = level
		o.fixed |= blosc2.FixLevel
		return nil
	}
}

// WithTypeSize sets the element size the filters work with (8 when the
// automatic mode is off and none is named). In the automatic mode, the
// default, it is a hint: that size is among those the probe tries.
func WithTypeSize(n int) WriterOption {
	return func(o *writerOptions) error {
		if n < 1 || n > blosc2.MaxTypeSize {
			return fmt.Errorf("%w: typesize %d", blosc2.ErrInvalidOption, n)
		}
		o.cparams.TypeSize = n
		return nil
	}
}

// WithFilters sets the filter pipeline, applied in the order given (at most
// six; placed as blosc2.Pipeline places them). No argument means no
// filter. By default the automatic mode picks them; naming them fixes
// them (shuffle when the mode is off and none are named).
func WithFilters(filters ...blosc2.Filter) WriterOption {
	return func(o *writerOptions) error {
		if len(filters) > blosc2.MaxFilters {
			return fmt.Errorf("%w: %d filters, at most %d", blosc2.ErrInvalidOption, len(filters), blosc2.MaxFilters)
		}
		o.cparams.Filters = blosc2.Pipeline(filters...)
		o.fixed |= blosc2.FixFilters
		return nil
	}
}

// WithTier sets the tier of the automatic mode, the default mode at
// blosc2.TierDefault (see [blosc2.Tier] for each tier's promise): each
// chunk gets the filters, element size, codec, level and block size a
// probe of the chunk itself finds best, decided from the chunk alone, so
// that the bytes still depend only on the data and the options (never on
// the concurrency or on how writes are cut). A chunk of one repeated value
// becomes a special chunk. Parameters set by other options (WithCodec, WithLevel,
// WithFilters, a non-zero WithBlockSize) stay fixed, before or after this
// option; WithTypeSize is a hint. WithCParams, given after it, turns the automatic mode off.
func WithTier(t blosc2.Tier) WriterOption {
	return func(o *writerOptions) error {
		if t < blosc2.TierFastest || t > blosc2.TierBest {
			return fmt.Errorf("%w: tier %d", blosc2.ErrInvalidOption, t)
		}
		o.tier, o.tierSet = t, true
		return nil
	}
}

// WithAuto turns on the automatic mode as a describes it: its tier (0:
// blosc2.TierDefault), the parameters it fixes and its base parameters,
// which replace those other options set (codec, level, typesize, filters,
// block size, split mode, dictionary; the concurrency is kept). It suits
// callers that build a blosc2.Auto themselves, such as the blosc2 command.
func WithAuto(a blosc2.Auto) WriterOption {
	return func(o *writerOptions) error {
		if a.Tier == 0 {
			a.Tier = blosc2.TierDefault
		}
		if _, err := blosc2.ChooseCParams(nil, &a); err != nil {
			return err
		}
		o.tier, o.fixed, o.cparams, o.tierSet = a.Tier, a.Fixed, a.Base, true
		return nil
	}
}

// WithChunkSize sets the uncompressed size of each chunk (default 4 MiB).
// Memory use grows with it: see NewWriter.
func WithChunkSize(n int) WriterOption {
	return func(o *writerOptions) error {
		if n < 1 || n > blosc2.MaxBufferSize {
			return fmt.Errorf("%w: chunk size %d", blosc2.ErrInvalidOption, n)
		}
		o.chunkSize = n
		return nil
	}
}

// WithBlockSize sets the block size inside chunks; 0 (default) lets the
// automatic mode choose it, or C-Blosc2's rule when the mode is off.
func WithBlockSize(n int) WriterOption {
	return func(o *writerOptions) error {
		if n < 0 || n > blosc2.MaxBlockSize {
			return fmt.Errorf("%w: block size %d", blosc2.ErrInvalidOption, n)
		}
		o.cparams.BlockSize = n
		if n != 0 {
			o.fixed |= blosc2.FixBlockSize
		}
		return nil
	}
}

// WithSplitMode sets when blocks are split into byte streams (default
// blosc2.SplitForward).
func WithSplitMode(m blosc2.SplitMode) WriterOption {
	return func(o *writerOptions) error {
		if m > blosc2.SplitForward {
			return fmt.Errorf("%w: split mode %d", blosc2.ErrInvalidOption, m)
		}
		o.cparams.SplitMode = m
		return nil
	}
}

// WithConcurrency sets how many goroutines compress: n ≤ 0 uses GOMAXPROCS
// capped at MaxConcurrency (the default); 1 compresses synchronously in
// Write, with no goroutine at all. The bytes written do not depend on it.
func WithConcurrency(n int) WriterOption {
	return func(o *writerOptions) error {
		if n <= 0 {
			n = autoConcurrency()
		}
		o.concurrency = n
		return nil
	}
}

// WithDict makes each chunk carry a dictionary (lz4, lz4hc and zstd).
func WithDict(on bool) WriterOption {
	return func(o *writerOptions) error {
		o.cparams.UseDict = on
		return nil
	}
}

// WithMetalayer adds a fixed metalayer to the frame header. Its content
// may be updated later by frame tools, never resized. The name has 1-31
// bytes and is declared once, at most 16 metalayers a frame (as
// framewriter.WithMetalayer): NewWriter fails otherwise.
func WithMetalayer(name string, content []byte) WriterOption {
	return func(o *writerOptions) error {
		return frame.AddMetalayer(&o.metalayers, name, content)
	}
}

// WithVLMetalayer adds a variable-length metalayer, written with the
// trailer. The name has 1-31 bytes (NewWriter fails otherwise); a name
// given twice keeps the last content.
func WithVLMetalayer(name string, content []byte) WriterOption {
	return func(o *writerOptions) error {
		if err := frame.CheckMetaName(name); err != nil {
			return err
		}
		o.vlmeta = append(o.vlmeta, frame.Metalayer{Name: name, Content: bytes.Clone(content)})
		return nil
	}
}

// WithoutChecksums leaves out the per-chunk CRC-32C checksums that frames
// carry by default (README, "Integrity"), as C-Blosc2 does: readers can
// then not tell a damaged chunk that still decodes from a good one.
func WithoutChecksums() WriterOption {
	return func(o *writerOptions) error {
		o.noChecksums = true
		return nil
	}
}

// WithCParams sets every chunk parameter at once (codec, level, typesize,
// filters, block size, split mode, dictionary), and the concurrency from
// p.Concurrency (0: automatic). Later options override it. Streams are frames,
// which hold Blosc2 chunks: p.Format [blosc2.ChunkBlosc1] is refused.
func WithCParams(p blosc2.CParams) WriterOption {
	return func(o *writerOptions) error {
		if p.Format != blosc2.ChunkBlosc2 {
			return fmt.Errorf("%w: streams are frames of Blosc2 chunks, not %v (write Blosc1 chunks with blosc2.Compress)", blosc2.ErrInvalidOption, p.Format)
		}
		conc := p.Concurrency
		if conc <= 0 {
			conc = autoConcurrency()
		}
		o.cparams, o.concurrency = p, conc
		o.tier = 0
		return nil
	}
}
