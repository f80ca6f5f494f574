package stream

import (
	"io"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framewriter"
)

// chunkSink receives compressed chunks in order: the frame writer.
type chunkSink interface {
	WriteCompressed(c *blosc2.Chunk) error
	Close() error
	// Seekable reports whether Close patches the header in place.
	Seekable() bool
}

// newSink starts a frame on dst with the Writer's options.
func newSink(dst io.Writer, o *writerOptions) (chunkSink, error) {
	p := o.cparams
	if a := o.auto(); a != nil {
		p = a.FrameCParams()
	}
	opts := []framewriter.WriterOption{framewriter.WithCParams(p)}
	for _, m := range o.metalayers {
		opts = append(opts, framewriter.WithMetalayer(m.Name, m.Content))
	}
	for _, m := range o.vlmeta {
		opts = append(opts, framewriter.WithVLMetalayer(m.Name, m.Content))
	}
	if o.noChecksums {
		opts = append(opts, framewriter.WithoutChecksums())
	}
	return framewriter.NewWriter(dst, opts...)
}
