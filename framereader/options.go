package framereader

import (
	"fmt"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/option"
)

// Option configures a Reader or a ChunkReader.
type Option func(*options) error

type options struct {
	dp     blosc2.DParams
	single bool
}

func newOptions(opts []Option) (options, error) {
	var o options
	err := option.Apply(&o, opts)
	return o, err
}

// WithDParams sets the parameters chunks are decompressed with: goroutines
// per chunk and the largest chunk accepted (MaxNbytes). The default is the
// zero DParams: one goroutine, the format's own limit.
func WithDParams(p blosc2.DParams) Option {
	return func(o *options) error {
		if p.Threads < 0 || p.MaxNbytes < 0 {
			return fmt.Errorf("%w: DParams threads %d, MaxNbytes %d", blosc2.ErrInvalidOption, p.Threads, p.MaxNbytes)
		}
		o.dp = p
		return nil
	}
}

// WithMultistream sets whether a ChunkReader reads every frame of a
// concatenation (true, the default, as gzip.Reader) or stops after the
// first one, leaving what follows unread in its bufio.Reader
// (gzip.Reader.Multistream(false)). A Reader opens one frame whatever it
// is told.
func WithMultistream(on bool) Option {
	return func(o *options) error {
		o.single = !on
		return nil
	}
}
