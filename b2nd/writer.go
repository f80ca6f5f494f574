package b2nd

import (
	"fmt"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/option"
)

// chunkSink receives the chunks of an array being written, in chunk order.
// The b2nd metalayer was given when the sink was created; UpdateMeta
// rewrites it in place (same length) before Close.
type chunkSink interface {
	AppendChunk(chunk []byte) error
	// TruncateChunks keeps the first n chunks (see
	// framewriter.Writer.TruncateChunks).
	TruncateChunks(n int64) error
	UpdateMeta(content []byte) error
	Close() error
	Abort() error
}

// WriterOption configures Create and NewWriter.
type WriterOption func(*createOptions) error

type createOptions struct {
	chunkshape, blockshape []int32
	cp                     blosc2.CParams
	cpSet                  bool
	metalayers             []metalayer
	sparse                 bool
	noChecksums            bool
}

type metalayer struct {
	name    string
	content []byte
}

// WithChunkShape sets the chunk extents, one per dimension, each ≥ 1. The
// default is DefaultShapes'.
func WithChunkShape(cs ...int32) WriterOption {
	return func(o *createOptions) error {
		o.chunkshape = slices.Clone(cs)
		return nil
	}
}

// WithBlockShape sets the block extents, one per dimension, each ≥ 1
// (normally ≤ the chunk extent). The default is DefaultShapes'.
func WithBlockShape(bs ...int32) WriterOption {
	return func(o *createOptions) error {
		o.blockshape = slices.Clone(bs)
		return nil
	}
}

// WithCParams sets the compression parameters of the chunks. TypeSize and
// BlockSize are ignored: they follow from the dtype and the block shape.
// The default is blosc2.DefaultCParams (BloscLZ, level 5, shuffle), the
// C-Blosc2 default.
//
// Avoid the DELTA filter for arrays that C-Blosc2 or python-blosc2 will
// read: C-Blosc2 3.3.2 decodes a chunk block by block when a read needs at
// most a quarter of its blocks (for a whole read, edge chunks that are
// mostly padding) and then uses each block as its own DELTA reference,
// returning wrong values. This package reads such arrays correctly.
func WithCParams(p blosc2.CParams) WriterOption {
	return func(o *createOptions) error {
		o.cp, o.cpSet = p, true
		return nil
	}
}

// WithMetalayer adds a user metalayer (stored raw in the frame header,
// after "b2nd"). At most 15 may be added; names are 1 to 31 bytes and not
// "b2nd".
func WithMetalayer(name string, content []byte) WriterOption {
	return func(o *createOptions) error {
		if name == "" || len(name) > 31 || name == MetaName {
			return fmt.Errorf("%w: metalayer name %q", blosc2.ErrInvalidOption, name)
		}
		if len(o.metalayers) == 15 {
			return fmt.Errorf("%w: more than 15 user metalayers", blosc2.ErrInvalidOption)
		}
		o.metalayers = append(o.metalayers, metalayer{name, slices.Clone(content)})
		return nil
	}
}

// WithSparse makes Create write a sparse frame: a directory holding the
// index frame chunks.b2frame and one file per chunk.
func WithSparse(sparse bool) WriterOption {
	return func(o *createOptions) error {
		o.sparse = sparse
		return nil
	}
}

// WithoutChecksums leaves out the per-chunk checksums the frame keeps by
// default (framewriter.WithoutChecksums), as C-Blosc2 does.
func WithoutChecksums() WriterOption {
	return func(o *createOptions) error {
		o.noChecksums = true
		return nil
	}
}

// arraySpec is a validated array to write: its metalayer (with the final
// or, for a growing array, current shape) and geometry.
type arraySpec struct {
	meta    Meta
	dtype   DType
	growing bool // shape[0] grows with the rows written
	cp      blosc2.CParams
	opts    createOptions
}

// newSpec validates shape, dtype and options. A negative shape[0] makes the
// array grow along its first axis.
func newSpec(shape []int64, dtype string, opts []WriterOption) (*arraySpec, error) {
	var o createOptions
	if err := option.Apply(&o, opts); err != nil {
		return nil, err
	}
	dt, err := ParseDType(dtype)
	if err != nil {
		return nil, err
	}
	if len(shape) > MaxDim {
		return nil, fmt.Errorf("%w: %d dimensions, at most %d", blosc2.ErrInvalidOption, len(shape), MaxDim)
	}
	s := &arraySpec{dtype: dt, opts: o}
	s.meta.Shape = slices.Clone(shape)
	if len(shape) > 0 && shape[0] < 0 {
		s.growing = true
		s.meta.Shape[0] = 0
		if slices.Contains(shape[1:], 0) {
			return nil, fmt.Errorf("%w: a growing array needs non-empty rows, shape %v", blosc2.ErrInvalidOption, shape)
		}
	}
	for i, x := range shape {
		if x < 0 && i > 0 {
			return nil, fmt.Errorf("%w: shape %v: only the first extent may be negative (growing)", blosc2.ErrInvalidOption, shape)
		}
	}
	s.meta.ChunkShape, s.meta.BlockShape = o.chunkshape, o.blockshape
	if s.meta.ChunkShape == nil {
		s.meta.ChunkShape, _ = DefaultShapes(shape, dt.Size)
		for i := range min(len(o.blockshape), len(shape)) {
			// Keep chunks at least as large as the requested blocks.
			s.meta.ChunkShape[i] = max(s.meta.ChunkShape[i], o.blockshape[i])
		}
	}
	if s.meta.BlockShape == nil && len(s.meta.ChunkShape) == len(shape) {
		ext := make([]int64, len(shape))
		for i, c := range s.meta.ChunkShape {
			ext[i] = max(int64(c), 1)
		}
		for _, x := range slab(ext, int64(dt.Size), DefaultBlockBytes) {
			s.meta.BlockShape = append(s.meta.BlockShape, int32(x))
		}
		if s.meta.BlockShape == nil {
			s.meta.BlockShape = []int32{}
		}
	}
	if len(s.meta.ChunkShape) != len(shape) || len(s.meta.BlockShape) != len(shape) {
		return nil, fmt.Errorf("%w: shape has %d dimensions, chunkshape %d, blockshape %d",
			blosc2.ErrInvalidOption, len(shape), len(s.meta.ChunkShape), len(s.meta.BlockShape))
	}
	for i := range shape {
		if s.meta.ChunkShape[i] < 1 || s.meta.BlockShape[i] < 1 {
			return nil, fmt.Errorf("%w: chunkshape %v, blockshape %v: extents must be ≥ 1",
				blosc2.ErrInvalidOption, s.meta.ChunkShape, s.meta.BlockShape)
		}
	}
	s.meta.DType = dt.String()
	if _, err := newGeom(&s.meta, dt.Size); err != nil {
		return nil, fmt.Errorf("%w: %v", blosc2.ErrInvalidOption, err)
	}
	s.cp = blosc2.DefaultCParams()
	if o.cpSet {
		s.cp = o.cp
	}
	s.cp.TypeSize = dt.Size
	return s, nil
}

// Writer writes an array from its elements in C order. Write takes any
// number of bytes; every time a slab of chunkshape[0] rows is complete its
// chunks are compressed and stored, so memory use is one slab. An array
// created with a negative first extent grows: its shape[0] is the number
// of rows written when Close is called, and AppendRows adds rows one
// sample at a time.
type Writer struct {
	spec *arraySpec
	sink chunkSink
	enc  *chunkEncoder

	rowBytes int64  // bytes of one row (item along axis 0); T for 0-d
	slabRows int64  // rows per slab: chunkshape[0], 1 for 0-d
	slab     []byte // the rows of the current slab, complete and partial
	rows     int64  // complete rows written
	nchunks  int64  // chunks stored
	// An OpenAppend session on an array whose last slab is partial holds
	// its rows in slab; its resumed chunks, still in the frame, are
	// replaced when the slab is next stored.
	resumed     int64 // chunks of the partial slab still in the frame
	resumedRows int64 // rows when the session began
	err         error
	closed      bool
}

// newWriter starts an array over sink, which already holds the metalayer.
func newWriter(s *arraySpec, sink chunkSink) *Writer {
	w := &Writer{spec: s, sink: sink}
	w.rowBytes = int64(s.dtype.Size)
	w.slabRows = 1
	if len(s.meta.Shape) > 0 {
		for _, x := range s.meta.Shape[1:] {
			w.rowBytes *= x
		}
		w.slabRows = int64(s.meta.ChunkShape[0])
	}
	return w
}

// Meta returns the metalayer as it stands: for a growing array, shape[0]
// is the number of rows written so far.
func (w *Writer) Meta() Meta {
	m := w.spec.meta
	m.Shape = slices.Clone(m.Shape)
	if w.spec.growing {
		m.Shape[0] = w.rows
	}
	return m
}

// Rows is the number of complete rows (elements along the first axis)
// written.
func (w *Writer) Rows() int64 { return w.rows }

// Write appends C-order bytes of the array. Rows may be split across
// calls. For an array of fixed shape, writing past its end fails.
func (w *Writer) Write(p []byte) (int, error) {
	if w.closed {
		return 0, fmt.Errorf("%w: b2nd writer", blosc2.ErrClosed)
	}
	if w.err != nil {
		return 0, w.err
	}
	total := w.totalRows()
	n := 0
	for len(p) > 0 {
		if w.rowBytes == 0 {
			return n, fmt.Errorf("%w: the array has an empty dimension and holds no bytes", blosc2.ErrInvalidOption)
		}
		if total >= 0 && w.rows >= total {
			return n, fmt.Errorf("%w: %d bytes beyond the array's %d rows", blosc2.ErrInvalidOption, len(p), total)
		}
		full := w.slabRows * w.rowBytes
		if w.slab == nil {
			w.slab = make([]byte, 0, full)
		}
		k := min(int64(len(p)), full-int64(len(w.slab)))
		if total >= 0 {
			// Do not accept bytes past the last row.
			k = min(k, (total-w.rows)*w.rowBytes-int64(len(w.slab))%w.rowBytes)
		}
		w.slab = append(w.slab, p[:k]...)
		p = p[k:]
		n += int(k)
		w.rows = w.slabStart() + int64(len(w.slab))/w.rowBytes
		if int64(len(w.slab)) == full {
			if err := w.flushSlab(w.slabRows); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// AppendRows appends whole rows: len(rows) must be a multiple of the row
// size (the product of shape[1:] times the item size).
func (w *Writer) AppendRows(rows []byte) error {
	if w.rowBytes > 0 && int64(len(rows))%w.rowBytes != 0 {
		return fmt.Errorf("%w: %d bytes is not a whole number of %d-byte rows", blosc2.ErrInvalidOption, len(rows), w.rowBytes)
	}
	_, err := w.Write(rows)
	return err
}

// totalRows is the fixed row count, or -1 for a growing array.
func (w *Writer) totalRows() int64 {
	if w.spec.growing {
		return -1
	}
	if len(w.spec.meta.Shape) == 0 {
		return 1
	}
	return w.spec.meta.Shape[0]
}

// slabStart is the first row of the slab being filled.
func (w *Writer) slabStart() int64 {
	return w.nchunks / max(w.chunksPerSlab(), 1) * w.slabRows
}

// chunksPerSlab is the number of chunks one slab produces.
func (w *Writer) chunksPerSlab() int64 {
	n := int64(1)
	m := &w.spec.meta
	for i := 1; i < len(m.Shape); i++ {
		c := int64(m.ChunkShape[i])
		n *= (m.Shape[i] + c - 1) / c
	}
	return n
}

// flushSlab compresses and stores the chunks of the current slab, which
// holds rows complete rows (fewer than slabRows only at the end).
func (w *Writer) flushSlab(rows int64) error {
	s := w.spec
	start := w.slabStart()
	m := s.meta
	m.Shape = slices.Clone(m.Shape)
	if len(m.Shape) > 0 {
		m.Shape[0] = start + rows
	}
	g, err := newGeom(&m, s.dtype.Size)
	if err != nil {
		return w.fail(err)
	}
	if w.enc == nil {
		w.enc = newChunkEncoder(g, s.cp)
	}
	w.enc.g = g
	ext := slices.Clone(m.Shape)
	origin := make([]int64, len(ext))
	if len(ext) > 0 {
		ext[0] = rows
		origin[0] = start
	}
	per := w.chunksPerSlab()
	if w.resumed > 0 {
		if err := w.sink.TruncateChunks(w.nchunks); err != nil {
			return w.fail(err)
		}
		w.resumed = 0
	}
	first := w.nchunks
	for j := range per {
		chunk, err := w.enc.encode(first+j, w.slab, ext, origin)
		if err != nil {
			return w.fail(err)
		}
		if err := w.sink.AppendChunk(chunk); err != nil {
			return w.fail(err)
		}
		w.nchunks++
	}
	w.slab = w.slab[:0]
	return nil
}

func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return err
}

// Close stores the last, partial slab (padded with zeros), records the
// final shape of a growing array in the metalayer and completes the frame.
// For an array of fixed shape that received fewer rows than its shape,
// the missing rows are zeros and Close reports blosc2.ErrTruncated. An
// incomplete row is dropped and reported the same way. Close is
// idempotent.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		w.sink.Abort()
		return w.err
	}
	var short error
	if w.rowBytes > 0 {
		if r := int64(len(w.slab)) % w.rowBytes; r != 0 {
			short = fmt.Errorf("%w: %d bytes of an incomplete row dropped", blosc2.ErrTruncated, r)
			w.slab = w.slab[:int64(len(w.slab))-r]
		}
		total := w.totalRows()
		if total >= 0 && w.rows < total {
			short = fmt.Errorf("%w: %d of %d rows written, the rest are zeros", blosc2.ErrTruncated, w.rows, total)
			for w.rows < total {
				// Complete the array with zero rows, a slab at a time.
				k := min(total-w.rows, w.slabRows-int64(len(w.slab))/w.rowBytes)
				w.slab = append(w.slab, make([]byte, k*w.rowBytes)...)
				w.rows += k
				if int64(len(w.slab)) == w.slabRows*w.rowBytes {
					if err := w.flushSlab(w.slabRows); err != nil {
						w.sink.Abort()
						return err
					}
				}
			}
		}
		if w.resumed > 0 && w.rows == w.resumedRows {
			// Nothing added to the resumed slab: its chunks stand.
			w.slab = w.slab[:0]
			w.nchunks += w.resumed
			w.resumed = 0
		}
		if len(w.slab) > 0 {
			if err := w.flushSlab(int64(len(w.slab)) / w.rowBytes); err != nil {
				w.sink.Abort()
				return err
			}
		}
	}
	if w.spec.growing {
		m := w.Meta()
		b, err := m.MarshalBinary()
		if err == nil {
			err = w.sink.UpdateMeta(b)
		}
		if err != nil {
			w.sink.Abort()
			return w.fail(err)
		}
	}
	if err := w.sink.Close(); err != nil {
		return w.fail(err)
	}
	if short != nil {
		w.err = short
	}
	return short
}
