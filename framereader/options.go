package framereader

import (
	"fmt"

	"github.com/blosc2go/blosc2"
)

// Option configures a Reader or a StreamReader.
type Option func(*options) error

type options struct {
	dp blosc2.DParams
}

func newOptions(opts []Option) (options, error) {
	var o options
	for _, f := range opts {
		if err := f(&o); err != nil {
			return o, err
		}
	}
	return o, nil
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
