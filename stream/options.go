package stream

import (
	"fmt"
	"runtime"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
)

// DefaultChunkSize is the uncompressed size of each chunk of the frame the
// Writer produces, unless WithChunkSize says otherwise.
const DefaultChunkSize = 4 << 20

// MaxConcurrency caps the automatic concurrency (WithConcurrency(0)).
const MaxConcurrency = 8

// WriterOption configures a Writer. Options are fixed at NewWriter; Reset
// keeps them.
type WriterOption func(*writerOptions) error

type metalayer struct {
	name    string
	content []byte
}

type writerOptions struct {
	cparams     blosc2.CParams
	chunkSize   int
	concurrency int
	metalayers  []metalayer
	vlmeta      []metalayer
	noChecksums bool
}

func defaultWriterOptions() writerOptions {
	return writerOptions{
		cparams:     blosc2.DefaultCParams(),
		chunkSize:   DefaultChunkSize,
		concurrency: autoConcurrency(),
	}
}

func autoConcurrency() int { return min(runtime.GOMAXPROCS(0), MaxConcurrency) }

// WithCodec sets the codec (default blosc2.BloscLZ, as C-Blosc2).
func WithCodec(id codec.ID) WriterOption {
	return func(o *writerOptions) error {
		if _, err := codec.Lookup(id); err != nil {
			return fmt.Errorf("%w: %v", blosc2.ErrInvalidOption, err)
		}
		o.cparams.Codec = id
		return nil
	}
}

// WithLevel sets the compression level, 0 (store) to 9; default 5.
func WithLevel(level int) WriterOption {
	return func(o *writerOptions) error {
		if level < 0 || level > 9 {
			return fmt.Errorf("%w: level %d outside 0-9", blosc2.ErrInvalidOption, level)
		}
		o.cparams.Level = level
		return nil
	}
}

// WithTypeSize sets the element size the filters work with; default 8.
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
// six; placed as blosc2.Pipeline places them). Default: shuffle. No
// argument means no filter.
func WithFilters(filters ...blosc2.Filter) WriterOption {
	return func(o *writerOptions) error {
		if len(filters) > blosc2.MaxFilters {
			return fmt.Errorf("%w: %d filters, at most %d", blosc2.ErrInvalidOption, len(filters), blosc2.MaxFilters)
		}
		o.cparams.Filters = blosc2.Pipeline(filters...)
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

// WithBlockSize sets the block size inside chunks; 0 (default) chooses it
// as C-Blosc2 does.
func WithBlockSize(n int) WriterOption {
	return func(o *writerOptions) error {
		if n < 0 || n > blosc2.MaxBlockSize {
			return fmt.Errorf("%w: block size %d", blosc2.ErrInvalidOption, n)
		}
		o.cparams.BlockSize = n
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
// may be updated later by frame tools, never resized.
func WithMetalayer(name string, content []byte) WriterOption {
	return func(o *writerOptions) error {
		if name == "" {
			return fmt.Errorf("%w: empty metalayer name", blosc2.ErrInvalidOption)
		}
		o.metalayers = append(o.metalayers, metalayer{name, append([]byte(nil), content...)})
		return nil
	}
}

// WithVLMeta adds a variable-length metalayer, written with the trailer.
func WithVLMeta(name string, value []byte) WriterOption {
	return func(o *writerOptions) error {
		if name == "" {
			return fmt.Errorf("%w: empty vlmetalayer name", blosc2.ErrInvalidOption)
		}
		o.vlmeta = append(o.vlmeta, metalayer{name, append([]byte(nil), value...)})
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

// ReaderOption configures a Reader.
type ReaderOption func(*readerOptions) error

type readerOptions struct {
	concurrency int
	maxMemory   int
	single      bool // stop after the first frame
	closeSource bool // Close closes the source
}

// DefaultMaxMemory is the default cap on the decompressed size of one
// chunk a Reader accepts (WithMaxMemory).
const DefaultMaxMemory = 1 << 30

func defaultReaderOptions() readerOptions {
	return readerOptions{concurrency: autoConcurrency(), maxMemory: DefaultMaxMemory}
}

// WithReaderConcurrency sets how many chunks are decompressed ahead by
// goroutines: n ≤ 0 uses GOMAXPROCS capped at MaxConcurrency (default);
// 1 decompresses synchronously in Read.
func WithReaderConcurrency(n int) ReaderOption {
	return func(o *readerOptions) error {
		if n <= 0 {
			n = autoConcurrency()
		}
		o.concurrency = n
		return nil
	}
}

// WithMaxMemory caps the memory a Reader holds for chunks (default 1 GiB):
// the chunks read ahead, compressed and decompressed, and the buffers kept
// for reuse, together stay within n bytes (plus the one chunk being read
// from the source, and a buffer the Reader keeps across Reset); fewer
// chunks are decoded ahead when larger ones would not fit. A chunk whose
// compressed and decoded sizes together exceed n, or an index larger than
// n, fails with blosc2.ErrTooLarge instead of allocating what a hostile
// stream claims. Special chunks (zeros, NaN, a repeated value) of 1 MiB or
// more are produced 64 KiB at a time, so they are read whatever size they
// declare. Random access (ReadAt, Seek) decodes one chunk at a time per
// call, each within the same cap.
func WithMaxMemory(n int) ReaderOption {
	return func(o *readerOptions) error {
		if n < 1 {
			return fmt.Errorf("%w: max memory %d", blosc2.ErrInvalidOption, n)
		}
		o.maxMemory = n
		return nil
	}
}

// WithCParams sets every chunk parameter at once (codec, level, typesize,
// filters, block size, split mode, dictionary), and the concurrency from
// p.Threads (0: automatic). Later options override it. Streams are frames,
// which hold Blosc2 chunks: p.Format [blosc2.ChunkBlosc1] is refused.
func WithCParams(p blosc2.CParams) WriterOption {
	return func(o *writerOptions) error {
		if p.Format != blosc2.ChunkBlosc2 {
			return fmt.Errorf("%w: streams are frames of Blosc2 chunks, not %v (write Blosc1 chunks with blosc2.Compress)", blosc2.ErrInvalidOption, p.Format)
		}
		conc := p.Threads
		if conc <= 0 {
			conc = autoConcurrency()
		}
		o.cparams, o.concurrency = p, conc
		return nil
	}
}

// WithMultistream sets whether a Reader reads every frame of a
// concatenation as one stream (true, the default, as gzip.Reader does) or
// only the first (gzip.Reader.Multistream(false)): then, on a plain
// io.Reader, bytes after the frame may have been buffered.
func WithMultistream(on bool) ReaderOption {
	return func(o *readerOptions) error {
		o.single = !on
		return nil
	}
}

// WithCloseSource makes Reader.Close close the source when it is an
// io.Closer, which also ends a Read of it in progress (a socket, a pipe).
// By default Close leaves the source open, as gzip.Reader does.
func WithCloseSource(on bool) ReaderOption {
	return func(o *readerOptions) error {
		o.closeSource = on
		return nil
	}
}
