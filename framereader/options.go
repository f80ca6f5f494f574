package framereader

import (
	"fmt"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/option"
)

// ReaderOption configures a Reader or a ChunkReader. Each option checks
// its argument: a bad one fails the constructor.
type ReaderOption func(*options) error

type options struct {
	dp     blosc2.DParams
	single bool
}

func newOptions(opts []ReaderOption) (options, error) {
	var o options
	err := option.Apply(&o, opts)
	return o, err
}

// WithConcurrency sets how many goroutines decompress the blocks of one
// chunk ([blosc2.DParams].Concurrency): n ≤ 1, the default, decodes in
// the calling goroutine. A negative n is refused.
func WithConcurrency(n int) ReaderOption {
	return func(o *options) error {
		if n < 0 {
			return fmt.Errorf("%w: concurrency %d", blosc2.ErrInvalidOption, n)
		}
		o.dp.Concurrency = n
		return nil
	}
}

// WithMaxMemory caps what the reader allocates on the frame's word
// ([blosc2.DParams].MaxMemory): the size a chunk may declare, the index
// and the chunk-size table; beyond it reads fail with an error wrapping
// [blosc2.ErrTooLarge]. 0, the default, is [blosc2.DefaultMaxMemory]. A
// negative n is refused.
func WithMaxMemory(n int) ReaderOption {
	return func(o *options) error {
		if n < 0 {
			return fmt.Errorf("%w: max memory %d", blosc2.ErrInvalidOption, n)
		}
		o.dp.MaxMemory = n
		return nil
	}
}

// WithMultistream sets whether a ChunkReader reads every frame of a
// concatenation (true, the default, as gzip.Reader) or stops after the
// first one, leaving what follows unread in its bufio.Reader
// (gzip.Reader.Multistream(false)). A Reader opens one frame whatever it
// is told.
func WithMultistream(on bool) ReaderOption {
	return func(o *options) error {
		o.single = !on
		return nil
	}
}
