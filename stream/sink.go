package stream

import (
	"io"

	"github.com/blosc2go/blosc2/framewriter"
)

// newSink starts a frame on dst with the Writer's options.
func newSink(dst io.Writer, o *writerOptions) (chunkSink, error) {
	opts := []framewriter.Option{framewriter.WithCParams(o.cparams)}
	for _, m := range o.metalayers {
		opts = append(opts, framewriter.WithMetalayer(m.name, m.content))
	}
	for _, m := range o.vlmeta {
		opts = append(opts, framewriter.WithVLMetalayer(m.name, m.content))
	}
	if o.noChecksums {
		opts = append(opts, framewriter.WithoutChecksums())
	}
	return framewriter.New(dst, opts...)
}
