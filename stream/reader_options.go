package stream

import (
	"fmt"

	"github.com/blosc2go/blosc2"
)

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
// goroutines (the Reader's side of WithConcurrency; the name says which
// side because both live in this package, as zstd's
// WithDecoderConcurrency): n ≤ 0 uses GOMAXPROCS capped at MaxConcurrency (default);
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
// call, each within the same cap. DecodeAll, which holds its whole output,
// refuses frames declaring more than n decompressed bytes.
func WithMaxMemory(n int) ReaderOption {
	return func(o *readerOptions) error {
		if n < 1 {
			return fmt.Errorf("%w: max memory %d", blosc2.ErrInvalidOption, n)
		}
		o.maxMemory = n
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
