package b2nd

import (
	"errors"
	"fmt"
	"io"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/option"
)

// ErrNotArray reports a valid frame that carries neither a "b2nd" nor a
// "caterva" metalayer: a plain super-chunk, not an array. It wraps
// blosc2.ErrHeader.
var ErrNotArray = fmt.Errorf("%w: no b2nd metalayer: not an N-dimensional array", blosc2.ErrHeader)

// Open opens the array stored in a frame file (".b2nd") or a sparse frame
// directory. The file stays open until Close.
func Open(path string, opts ...ReaderOption) (*Array, error) {
	o, err := openOpts(opts)
	if err != nil {
		return nil, err
	}
	fr, err := framereader.Open(path, o.frameOptions()...)
	if err != nil {
		return nil, err
	}
	a, err := FromFrame(fr, opts...)
	if err != nil {
		fr.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	a.close = fr.Close
	return a, nil
}

// OpenIfArray opens path as an array when it is one: a contiguous or
// sparse frame with a "b2nd" (or "caterva") metalayer. For anything else
// (a bare chunk, a frame without the metalayer, an unreadable path) it
// returns ok false and no error, so that the caller can handle the input
// another way; for a frame that cannot be read it returns the error.
func OpenIfArray(path string, opts ...ReaderOption) (a *Array, ok bool, err error) {
	f, err := framereader.DetectFile(path)
	if err != nil || (f != framereader.Contiguous && f != framereader.Sparse) {
		return nil, false, nil
	}
	a, err = Open(path, opts...)
	switch {
	case errors.Is(err, ErrNotArray):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return a, true, nil
}

// NewReader opens the array in the contiguous frame at the start of ra,
// which holds size bytes.
func NewReader(ra io.ReaderAt, size int64, opts ...ReaderOption) (*Array, error) {
	o, err := openOpts(opts)
	if err != nil {
		return nil, err
	}
	fr, err := framereader.NewReader(ra, size, o.frameOptions()...)
	if err != nil {
		return nil, err
	}
	return FromFrame(fr, opts...)
}

// NewReaderBytes opens the array in the contiguous frame at the start of
// b, which the Array keeps.
func NewReaderBytes(b []byte, opts ...ReaderOption) (*Array, error) {
	o, err := openOpts(opts)
	if err != nil {
		return nil, err
	}
	fr, err := framereader.NewReaderBytes(b, o.frameOptions()...)
	if err != nil {
		return nil, err
	}
	return FromFrame(fr, opts...)
}

// FromFrame reads the array held by an open frame. It takes the "b2nd"
// metalayer, or "caterva" for arrays of the standalone Caterva library,
// and the item size from the frame header's typesize. Closing the Array
// does not close fr.
func FromFrame(fr *framereader.Reader, opts ...ReaderOption) (*Array, error) {
	meta, ok := fr.Metalayer(MetaName)
	if !ok {
		if meta, ok = fr.Metalayer(CatervaMetaName); !ok {
			return nil, ErrNotArray
		}
	}
	ts := fr.Info().TypeSize
	a, err := newArray(meta, ts, frameSource{fr}, nil, opts)
	if err != nil {
		return nil, err
	}
	a.frame = fr
	return a, nil
}

func openOpts(opts []ReaderOption) (openOptions, error) {
	var o openOptions
	if err := option.Apply(&o, opts); err != nil {
		return o, err
	}
	return o, nil
}

// frameSource adapts a framereader.Reader to chunkSource.
type frameSource struct{ r *framereader.Reader }

func (s frameSource) NChunks() int64 { return int64(s.r.NumChunks()) }

func (s frameSource) Chunk(i int64) ([]byte, error) { return s.r.Chunk(int(i)) }
