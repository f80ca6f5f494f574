package b2nd

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
)

// Array is a b2nd array opened for reading. Its methods are safe for
// concurrent use.
type Array struct {
	meta  Meta
	dtype DType // zero when the dtype string is absent or not understood
	g     *geom
	src   chunkSource
	dp    blosc2.DParams
	close func() error
	frame *framereader.Reader // nil for arrays not read from a frame

	mu     sync.Mutex
	closed bool
	pool   sync.Pool // *sliceReader
}

// ReaderOption configures Open and its variants. Each option checks its
// argument: a bad one fails the constructor.
type ReaderOption func(*openOptions) error

type openOptions struct {
	dp blosc2.DParams
}

// frameOptions are the options of the frame reader under the array.
func (o *openOptions) frameOptions() []framereader.ReaderOption {
	return []framereader.ReaderOption{framereader.WithConcurrency(o.dp.Concurrency), framereader.WithMaxMemory(o.dp.MaxMemory)}
}

// WithConcurrency sets how many goroutines decompress the blocks of one
// chunk ([blosc2.DParams].Concurrency); slices spanning several chunks
// decode that many chunks at once. n ≤ 1, the default, decodes in the
// calling goroutine. A negative n is refused.
func WithConcurrency(n int) ReaderOption {
	return func(o *openOptions) error {
		if n < 0 {
			return fmt.Errorf("%w: concurrency %d", blosc2.ErrInvalidOption, n)
		}
		o.dp.Concurrency = n
		return nil
	}
}

// WithMaxMemory caps what reading allocates on the file's word
// ([blosc2.DParams].MaxMemory, as framereader.WithMaxMemory), the
// slices [Array.ReadSlice] and [Array.ReadAll] return included: a slice
// larger than n fails with an error wrapping [blosc2.ErrTooLarge] (read
// a larger one with [Array.ReadSliceInto] into a buffer of your own). 0,
// the default, is [blosc2.DefaultMaxMemory]. A negative n is refused.
func WithMaxMemory(n int) ReaderOption {
	return func(o *openOptions) error {
		if n < 0 {
			return fmt.Errorf("%w: max memory %d", blosc2.ErrInvalidOption, n)
		}
		o.dp.MaxMemory = n
		return nil
	}
}

// newArray checks the metalayer content and the frame's typesize and
// builds the array over src.
func newArray(metaBytes []byte, typesize int, src chunkSource, close func() error, opts []ReaderOption) (*Array, error) {
	o, err := openOpts(opts)
	if err != nil {
		return nil, err
	}
	m, err := ParseMeta(metaBytes)
	if err != nil {
		return nil, err
	}
	g, err := newGeom(&m, typesize)
	if err != nil {
		return nil, err
	}
	if n := src.NChunks(); n != g.nchunks {
		return nil, fmt.Errorf("%w: the frame holds %d chunks, shape %v in chunks of %v needs %d",
			blosc2.ErrCorrupt, n, m.Shape, m.ChunkShape, g.nchunks)
	}
	a := &Array{meta: m, g: g, src: src, dp: o.dp, close: close}
	if a.dp.Geometry == nil {
		a.dp.Geometry = m.Geometry()
	}
	if !m.NoDType && m.DTypeFormat == DTypeNumPy {
		if dt, err := ParseDType(m.DType); err == nil {
			a.dtype = dt
		}
	}
	return a, nil
}

// Meta returns a copy of the array's metalayer.
func (a *Array) Meta() Meta {
	m := a.meta
	m.Shape = slices.Clone(m.Shape)
	m.ChunkShape = slices.Clone(m.ChunkShape)
	m.BlockShape = slices.Clone(m.BlockShape)
	return m
}

// Frame returns the frame reader the array reads from (for its header,
// vlmetalayers and other metalayers), or nil.
func (a *Array) Frame() *framereader.Reader { return a.frame }

// NDim is the number of dimensions (0 for a scalar).
func (a *Array) NDim() int { return a.g.ndim }

// Shape returns the array's extents.
func (a *Array) Shape() []int64 { return slices.Clone(a.meta.Shape) }

// ChunkShape returns the chunk extents.
func (a *Array) ChunkShape() []int32 { return slices.Clone(a.meta.ChunkShape) }

// BlockShape returns the block extents.
func (a *Array) BlockShape() []int32 { return slices.Clone(a.meta.BlockShape) }

// DTypeString is the dtype as stored; "" when the metalayer has none.
func (a *Array) DTypeString() string { return a.meta.DType }

// DType returns the parsed dtype. When the metalayer has none (Caterva
// arrays), it is "|S<itemsize>", as python-blosc2 assumes. Errors wrap
// blosc2.ErrUnsupported (a non-NumPy dtype format),
// blosc2.ErrInvalidOption (a string NumPy would not accept) or
// blosc2.ErrCorrupt (a dtype whose item size is not the frame's
// typesize; the array's bytes can still be read, as ItemSize-byte items).
func (a *Array) DType() (DType, error) {
	if a.meta.NoDType {
		return DType{Kind: 'S', Order: '|', Size: int(a.g.T)}, nil
	}
	if a.meta.DTypeFormat != DTypeNumPy {
		return DType{}, fmt.Errorf("%w: dtype format %d", blosc2.ErrUnsupported, a.meta.DTypeFormat)
	}
	dt := a.dtype
	if dt.Size == 0 {
		var err error
		if dt, err = ParseDType(a.meta.DType); err != nil {
			return DType{}, err
		}
	}
	if int64(dt.Size) != a.g.T {
		return DType{}, fmt.Errorf("%w: dtype %s describes %d-byte items, the frame's typesize is %d",
			blosc2.ErrCorrupt, a.meta.DType, dt.Size, a.g.T)
	}
	return dt, nil
}

// ItemSize is the size of one element in bytes: the frame's typesize.
func (a *Array) ItemSize() int { return int(a.g.T) }

// NItems is the number of elements.
func (a *Array) NItems() int64 { return a.g.nitems }

// NBytes is the size of the whole array in C order, without padding.
func (a *Array) NBytes() int64 { return a.g.nitems * a.g.T }

// NChunks is the number of chunks of the frame.
func (a *Array) NChunks() int64 { return a.g.nchunks }

// SliceSize is the byte size of the slice [start, stop).
func (a *Array) SliceSize(start, stop []int64) (int64, error) {
	_, n, err := a.g.checkSlice(start, stop)
	return n, err
}

// ReadAll appends the whole array, in C order, to dst.
func (a *Array) ReadAll(dst []byte) ([]byte, error) {
	return a.ReadSlice(dst, make([]int64, a.g.ndim), a.meta.Shape)
}

// ReadSlice appends the hyper-slice [start, stop) — start[i] ≤ index <
// stop[i] in every dimension — to dst, in C order. It decodes only the
// chunks the slice intersects and, where the slice covers few of a chunk's
// blocks, only those blocks. A 0-d array's slice has empty start and stop.
func (a *Array) ReadSlice(dst []byte, start, stop []int64) ([]byte, error) {
	_, n, err := a.g.checkSlice(start, stop)
	if err != nil {
		return dst, err
	}
	l := len(dst)
	if n > int64(a.dp.MemoryCap()) || n > int64(math.MaxInt-l) {
		return dst, fmt.Errorf("%w: a slice of %d bytes, more than the %d allowed (WithMaxMemory)", blosc2.ErrTooLarge, n, a.dp.MemoryCap())
	}
	dst = slices.Grow(dst, int(n))[:l+int(n)]
	if err := a.ReadSliceInto(dst[l:], start, stop); err != nil {
		return dst[:l], err
	}
	return dst, nil
}

// ReadSliceInto is ReadSlice into out, which must hold at least the
// slice's size (SliceSize) bytes.
func (a *Array) ReadSliceInto(out []byte, start, stop []int64) error {
	if err := a.checkOpen(); err != nil {
		return err
	}
	r, _ := a.pool.Get().(*sliceReader)
	if r == nil {
		r = &sliceReader{g: a.g, src: a.src, dp: &a.dp}
	}
	defer a.pool.Put(r)
	return r.readSlice(out, start, stop)
}

// WriteTo writes the whole array to w in C order (io.WriterTo), one row
// of chunks at a time, so that memory use stays at one such slab however
// large the array. A slab larger than WithMaxMemory is written a few rows
// of the first axis at a time, each decoding the chunks it crosses again:
// reading stays within the cap. A single such row larger than the cap
// fails with an error wrapping blosc2.ErrTooLarge.
func (a *Array) WriteTo(w io.Writer) (int64, error) {
	g := a.g
	if g.nitems == 0 {
		return 0, a.checkOpen()
	}
	start := make([]int64, g.ndim)
	stop := slices.Clone(g.shape)
	step := int64(1)
	if g.ndim > 0 {
		step = g.cs[0]
		limit := int64(a.dp.MemoryCap())
		if row := g.nitems / g.shape[0] * g.T; step > limit/row {
			step = max(1, limit/row)
		}
	}
	var buf []byte
	var n int64
	for r := int64(0); g.ndim == 0 || r < g.shape[0]; r += step {
		if g.ndim > 0 {
			start[0], stop[0] = r, min(r+step, g.shape[0])
		}
		var err error
		if buf, err = a.ReadSlice(buf[:0], start, stop); err != nil {
			return n, err
		}
		k, err := w.Write(buf)
		n += int64(k)
		if err != nil || g.ndim == 0 {
			return n, err
		}
	}
	return n, nil
}

func (a *Array) checkOpen() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return fmt.Errorf("%w: b2nd array", blosc2.ErrClosed)
	}
	return nil
}

// Close releases the underlying file, if Open opened one. It is
// idempotent.
func (a *Array) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return nil
	}
	a.closed = true
	if a.close != nil {
		return a.close()
	}
	return nil
}
