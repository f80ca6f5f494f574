package framewriter

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/ndmeta"
)

// Writer writes a Blosc2 frame chunk by chunk, laid out as C-Blosc2 3.3.2
// lays out a super-chunk built by appending chunks: header, chunks in
// order, index, trailer. It streams: it holds one chunk and the index (8
// bytes per chunk), never the frame.
//
// The header's sizes are known only at the end, so Close writes the index
// and the trailer and then patches the header, which needs a destination
// that can seek (an io.WriteSeeker, an io.WriterAt, an *os.File on a
// regular file). On any other destination (a pipe, a socket) the header is
// left unpatched: the frame is complete and framereader reads it (and
// ChunkReader in one pass), but C-Blosc2 refuses it until Repair or
// RepairFile patches it.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	storage storage // where the frame goes: a contiguous frame's bytes or a sparse directory
	cp      blosc2.CParams
	h       frame.Header // header template; sizes filled at Close
	hdrLen  int          // length once written (0 before)
	vl      []frame.VLMeta

	entries []int64
	crcs    []uint32 // with sums, each chunk's checksum (0 for index-only ones)
	sums    bool     // write the checksum record
	// trailerHasVL: the trailer tail built holds vlmetalayers (the
	// header's has_vlmetalayers).
	trailerHasVL bool
	sizes        frame.Sizes
	cbytes       int64 // contiguous: chunks section length; sparse: Σ chunk file sizes
	specials     SpecialMode
	pending      []pendingSpecial // index-only specials, for relocation
	fill         bool             // the index is FillSpecial's repeated value
	lossy        bool             // the unpatched header says index-only specials exist

	buf     []byte       // the head of chunk: WriteChunk's first piece
	chunk   blosc2.Chunk // what WriteChunk compresses into
	one     [1][]byte    // WriteCompressedChunk's chunk, as pieces
	noSync  bool
	sticky  bool
	dirty   bool // something to write at Close (append sessions)
	resumed bool // an Append session
	err     error
	closed  bool
	onClose func() error // after a successful finish (append bookkeeping)
}

// testHookBeforePatch, when set by a test, runs after the index and the
// trailer are written and before the header is patched.
var testHookBeforePatch func() error

// pendingSpecial is an index-only special chunk, remembered in case Close
// must store it after all (variable-size frames).
type pendingSpecial struct {
	i      int
	kind   blosc2.Special
	nbytes int32
	ts     int32 // its own typesize (NaN needs it)
	bs     int32
}

// chunk rebuilds the special chunk.
func (p *pendingSpecial) chunk() ([]byte, error) {
	return blosc2.AppendSpecial(nil, p.kind, int(p.nbytes), int(p.ts), int(p.bs), nil)
}

// NewWriter returns a Writer that writes a contiguous frame to w, starting at
// w's current position when w can seek. Close does not close w.
func NewWriter(w io.Writer, opts ...WriterOption) (*Writer, error) {
	return newWriter(&contiguous{sink: newSink(w)}, opts)
}

// NewWriterAt returns a Writer that writes a contiguous frame into w from offset
// off, with WriteAt only.
func NewWriterAt(w io.WriterAt, off int64, opts ...WriterOption) (*Writer, error) {
	if off < 0 {
		return nil, fmt.Errorf("%w: negative offset %d", blosc2.ErrInvalidOption, off)
	}
	return newWriter(&contiguous{sink: &atSink{w: w, base: off}}, opts)
}

// Create creates (or truncates) the file at path and returns a Writer for
// a contiguous frame in it. Close patches the header (after an fsync,
// unless WithoutSync) and closes the file.
func Create(path string, opts ...WriterOption) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	o, err := newOptions(opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	s := &contiguous{sink: &fileSink{atSink: atSink{w: f}, f: f, sync: !o.noSync}}
	w, err := newWriter(s, opts)
	if err != nil {
		s.release()
		return nil, err
	}
	return w, nil
}

// newWriter builds a Writer putting its frame in st; st may be nil when
// the caller sets the storage afterwards (Append).
func newWriter(st storage, opts []WriterOption) (*Writer, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	cp := blosc2.DefaultCParams()
	if o.cp != nil {
		cp = *o.cp
	}
	if cp.Geometry == nil {
		// The block shape of a b2nd array's metalayer, for the codecs and
		// filters that need it (as C-Blosc2's plugins read it).
		cp.Geometry = ndmeta.FrameGeometry(o.metas)
	}
	if cp, err = checkCParams(cp); err != nil {
		return nil, err
	}
	typ := uint8(frame.TypeContiguous)
	if st != nil {
		typ = st.frameType()
	}
	w := &Writer{storage: st, cp: cp, h: headerFor(&cp, typ), sizes: frame.NewSizes(), noSync: o.noSync, sticky: o.sticky, sums: !o.noSums}
	w.h.Metalayers = o.metas
	w.specials = o.specials
	if w.specials == SpecialsAuto {
		w.specials = SpecialsIndex
		if st != nil && !st.indexOnly() {
			w.specials = SpecialsInline
		}
	}
	for _, v := range o.vlmetas {
		if err := w.SetVLMetalayer(v.name, v.content); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// checkCParams validates p (by compressing nothing with it) and
// normalises its defaults.
func checkCParams(p blosc2.CParams) (blosc2.CParams, error) {
	if p.TypeSize == 0 {
		p.TypeSize = 1
	}
	if p.SplitMode == blosc2.SplitDefault {
		p.SplitMode = blosc2.SplitForward
	}
	if p.Concurrency < 1 {
		p.Concurrency = 1
	}
	if p.TypeSize > 1<<31-1 {
		return p, fmt.Errorf("%w: typesize %d", blosc2.ErrInvalidOption, p.TypeSize)
	}
	if p.Format != blosc2.ChunkBlosc2 {
		return p, fmt.Errorf("%w: frames hold Blosc2 chunks, not %v (write Blosc1 chunks with blosc2.Compress)", blosc2.ErrInvalidOption, p.Format)
	}
	return p, p.Validate()
}

// headerFor is the header new_header_frame writes for a super-chunk
// created with cparams p.
func headerFor(p *blosc2.CParams, typ uint8) frame.Header {
	cc := uint8(p.Codec)
	nib := cc
	if cc >= frame.UDCodecFormat {
		nib = frame.UDCodecFormat
	}
	h := frame.Header{
		GeneralFlags: frame.VersionRC1 | frame.FlagOffsets64,
		FrameType:    typ,
		CodecFlags:   nib | uint8(p.Level)<<4,
		OtherFlags:   uint8(p.SplitMode-1) & 3,
		TypeSize:     int32(p.TypeSize),
		BlockSize:    int32(p.BlockSize),
		ChunkSize:    -1,
		TComp:        int16(min(p.Concurrency, 1<<15-1)),
		TDecomp:      int16(min(p.Concurrency, 1<<15-1)),
		NFilters:     blosc2.MaxFilters,
		UDCodec:      cc,
		CodecMeta:    p.CodecMeta,
	}
	for i, f := range p.Filters {
		h.Filters[i] = uint8(f.ID)
		h.FiltersMeta[i] = f.Meta
	}
	if p.UseDict {
		h.OtherFlags2 = 1
	}
	return h
}

func (w *Writer) usable() error {
	if w.closed {
		return fmt.Errorf("%w: frame writer", blosc2.ErrClosed)
	}
	return w.err
}

// fail records a write error: the Writer is unusable from then on.
func (w *Writer) fail(err error) error {
	if err != nil && w.err == nil {
		w.err = err
	}
	return err
}

// NumChunks is the number of chunks written so far.
func (w *Writer) NumChunks() int { return len(w.entries) }

// Nbytes is the uncompressed size written so far.
func (w *Writer) Nbytes() int64 { return w.sizes.Nbytes }

// TruncateChunks removes the chunks after the first n from the frame, so
// that the next chunk written becomes chunk n: the way to replace the last
// chunks (b2nd uses it to re-encode a partly filled last row of chunks).
// Their bytes stay where they were written, unreferenced, as C-Blosc2
// leaves the chunks it updates in a contiguous frame; in an Append session
// nothing of the old frame is touched, so a crash still leaves it intact.
// Such a frame can no longer be read in one pass from a plain io.Reader
// (framereader.ChunkReader reports it); io.ReaderAt readers and C-Blosc2
// read it. If the session dies before Close, RecoverFile and RecoverSparse
// keep the removed chunks as well as the ones written after them: nothing
// on disk tells them apart. Frames whose chunk sizes vary are refused with
// blosc2.ErrUnsupported: the sizes of the remaining chunks are unknown.
func (w *Writer) TruncateChunks(n int) error {
	if err := w.usable(); err != nil {
		return err
	}
	if n < 0 || n > len(w.entries) {
		return fmt.Errorf("%w: keep %d chunks of %d", blosc2.ErrInvalidOption, n, len(w.entries))
	}
	if n == len(w.entries) {
		return nil
	}
	if w.sizes.ChunkSize <= 0 {
		return fmt.Errorf("%w: truncating a frame whose chunk sizes vary", blosc2.ErrUnsupported)
	}
	gone, err := w.storage.dropped(w.entries[n:])
	if err != nil {
		return err
	}
	w.cbytes -= gone
	w.entries = w.entries[:n]
	if w.sums {
		w.crcs = w.crcs[:n]
	}
	w.pending = slices.DeleteFunc(w.pending, func(p pendingSpecial) bool { return p.i >= n })
	if n == 0 {
		w.sizes = frame.NewSizes() // the next chunk sets VLBlocks again
	} else {
		// Every chunk but the last has the chunk size, so the n kept do.
		w.sizes.N, w.sizes.Last, w.sizes.Nbytes = int64(n), w.sizes.ChunkSize, int64(n)*int64(w.sizes.ChunkSize)
	}
	w.dirty = true
	return nil
}

// Seekable reports whether Close patches the header in place: false for a
// sparse frame's directory (nothing to patch) and for destinations that
// cannot seek (a pipe, a socket, a file opened with O_APPEND), where the
// frame keeps its unpatched header.
func (w *Writer) Seekable() bool { return w.storage != nil && w.storage.seekable() }

// CParams returns the parameters WriteChunk compresses with.
func (w *Writer) CParams() blosc2.CParams { return w.cp }

// WriteChunk compresses raw (one chunk's worth of data, at least one
// byte) with the Writer's parameters and appends the chunk.
func (w *Writer) WriteChunk(raw []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	defer w.chunk.Release()
	if err := w.chunk.Compress(w.buf, raw, &w.cp); err != nil {
		return err
	}
	w.buf = w.chunk.Pieces()[0]
	if w.sticky {
		if h, err := blosc2.ParseHeaderPrefix(w.buf); err == nil {
			w.cp.BlockSize = h.BlockSize
		}
	}
	return w.WriteCompressed(&w.chunk)
}

// WriteCompressedChunk appends an already compressed chunk. The chunk's
// header decides everything: its nbytes, whether it has variable-length
// blocks (a frame cannot mix both kinds), and whether it is a zero, NaN or
// uninitialized special chunk, which is recorded as an index entry or
// stored according to WithSpecials. The first chunk's size becomes the
// frame's chunk size; a chunk after a shorter one, or larger than the
// chunk size, makes the sizes variable (frame format 3), as in C-Blosc2.
// chunk may be longer than the chunk it holds; it is not retained.
func (w *Writer) WriteCompressedChunk(chunk []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	h, err := blosc2.ParseHeader(chunk)
	if err != nil {
		return fmt.Errorf("chunk %d: %w", len(w.entries), err)
	}
	w.one[0] = chunk[:h.Cbytes]
	defer clear(w.one[:])
	return w.writeChunk(w.one[:], &h)
}

// WriteCompressed appends a compressed chunk held in pieces
// ([blosc2.Chunk]), as [Writer.WriteCompressedChunk] appends one in a single slice, writing the pieces
// one after the other without copying them together (but into a sparse
// frame's chunk file). c is not retained.
func (w *Writer) WriteCompressed(c *blosc2.Chunk) error {
	if err := w.usable(); err != nil {
		return err
	}
	pieces := c.Pieces()
	if len(pieces) == 0 {
		return fmt.Errorf("chunk %d: %w: empty blosc2.Chunk", len(w.entries), blosc2.ErrTruncated)
	}
	h, err := blosc2.ParseHeaderPrefix(pieces[0])
	if err != nil {
		return fmt.Errorf("chunk %d: %w", len(w.entries), err)
	}
	if n := c.Len(); n != h.Cbytes {
		return fmt.Errorf("chunk %d: %w: %d bytes in pieces, the header says %d", len(w.entries), blosc2.ErrCorrupt, n, h.Cbytes)
	}
	return w.writeChunk(pieces, &h)
}

// writeChunk is WriteCompressedChunk and WriteChunk once the header is
// read: pieces hold the chunk's cbytes exactly.
func (w *Writer) writeChunk(pieces [][]byte, h *blosc2.Header) error {
	if h.Nbytes == 0 {
		return fmt.Errorf("%w: chunk %d is empty (C-Blosc2 cannot read a frame holding empty chunks)", blosc2.ErrInvalidOption, len(w.entries))
	}
	if h.Codec == blosc2.Snappy {
		return fmt.Errorf("%w: chunk %d is a snappy chunk (C-Blosc 1.x): C-Blosc2 has no snappy codec, so frames cannot hold it", blosc2.ErrInvalidOption, len(w.entries))
	}
	if w.sizes.N == 0 {
		w.sizes.VLBlocks = h.VLBlocks()
	} else if w.sizes.VLBlocks != h.VLBlocks() {
		return fmt.Errorf("%w: chunk %d: a frame cannot mix chunks with and without variable-length blocks", blosc2.ErrInvalidOption, len(w.entries))
	}
	if len(w.entries) >= frame.MaxChunks {
		return fmt.Errorf("%w: a frame holds at most %d chunks", blosc2.ErrTooLarge, frame.MaxChunks)
	}
	if err := w.storage.begin(w, int32(h.Nbytes)); err != nil {
		return err
	}
	kind := h.Special()
	// Index-only, as C-Blosc2 records them, unless the sizes are (or this
	// chunk makes them) variable: C-Blosc2 cannot size such entries.
	next := w.sizes
	next.Add(int32(h.Nbytes))
	if w.specials == SpecialsIndex && frame.IndexedSpecial(kind) && next.ChunkSize != 0 &&
		(kind != blosc2.SpecialNaN || h.TypeSize == int(w.h.TypeSize)) {
		w.pending = append(w.pending, pendingSpecial{i: len(w.entries), kind: kind, nbytes: int32(h.Nbytes), ts: int32(h.TypeSize), bs: int32(h.BlockSize)})
		w.entries = append(w.entries, frame.SpecialEntry(kind))
		w.noteCRC(nil)
		if err := w.storage.markLossy(w); err != nil {
			return err
		}
	} else {
		if frame.IndexedSpecial(kind) {
			// Special chunks are a header and at most a value: one piece
			// (a chunk in several is copied together).
			chunk, err := w.inlineSpecial(joinPieces(nil, pieces), h)
			if err != nil {
				return err
			}
			pieces = [][]byte{chunk}
		}
		e, err := w.store(pieces)
		if err != nil {
			return err
		}
		w.entries = append(w.entries, e)
		w.noteCRC(pieces)
	}
	w.fill = false
	w.dirty = true
	w.sizes.Add(int32(h.Nbytes))
	return nil
}

// joinPieces returns the bytes of pieces in one slice: the only piece
// itself, or them all appended to buf[:0].
func joinPieces(buf []byte, pieces [][]byte) []byte {
	if len(pieces) == 1 {
		return pieces[0]
	}
	buf = buf[:0]
	for _, p := range pieces {
		buf = append(buf, p...)
	}
	return buf
}

// store writes a chunk, in pieces, to the chunks section (or its own
// file) and returns its index entry.
func (w *Writer) store(pieces [][]byte) (int64, error) {
	e, err := w.storage.store(w, pieces)
	if err != nil {
		return 0, err
	}
	for _, p := range pieces {
		w.cbytes += int64(len(p))
	}
	return e, nil
}

// blockSizeFor is the block size C-Blosc2's compressor chooses for nbytes
// bytes with the Writer's parameters (what blosc2_chunk_zeros & co. record).
func (w *Writer) blockSizeFor(nbytes int) (int, error) {
	return blosc2.BlockSize(&w.cp, nbytes)
}

// WriteSpecial appends a special chunk of nbytes bytes: all zeros
// (SpecialZero), all NaN (SpecialNaN, typesize 4 or 8), uninitialized
// (SpecialUninit) or value repeated (SpecialValue, len(value) bytes per
// element), made as blosc2_chunk_zeros, _nans, _uninit and _repeatval make
// them with the Writer's parameters.
func (w *Writer) WriteSpecial(kind blosc2.Special, nbytes int, value []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	bs, err := w.blockSizeFor(nbytes)
	if err != nil {
		return err
	}
	c, err := blosc2.AppendSpecial(nil, kind, nbytes, w.cp.TypeSize, bs, value)
	if err != nil {
		return err
	}
	return w.WriteCompressedChunk(c)
}

// FillSpecial fills an empty frame with nitems elements of the frame's
// typesize, all zero, NaN or uninitialized, in chunks of chunksize bytes
// (the last one shorter if needed), as blosc2_schunk_fill_special does:
// the index is one repeated entry and no chunk is stored (with
// SpecialsInline, the 32-byte chunks are stored instead). Chunks may be
// appended afterwards.
func (w *Writer) FillSpecial(nitems int64, kind blosc2.Special, chunksize int) error {
	if err := w.usable(); err != nil {
		return err
	}
	if len(w.entries) > 0 {
		return fmt.Errorf("%w: FillSpecial needs an empty frame, this one has %d chunks", blosc2.ErrInvalidOption, len(w.entries))
	}
	if !frame.IndexedSpecial(kind) {
		return fmt.Errorf("%w: FillSpecial takes zeros, NaN or uninit, not %v", blosc2.ErrInvalidOption, kind)
	}
	ts := int64(w.cp.TypeSize)
	if nitems < 0 || chunksize <= 0 || chunksize > blosc2.MaxBufferSize || int64(chunksize)/ts == 0 {
		return fmt.Errorf("%w: FillSpecial(%d items, chunksize %d, typesize %d)", blosc2.ErrInvalidOption, nitems, chunksize, ts)
	}
	if nitems == 0 {
		return nil
	}
	per := int64(chunksize) / ts
	n := nitems / per
	left := nitems % per
	if n+1 > frame.MaxChunks || nitems > (1<<62)/ts {
		return fmt.Errorf("%w: %d items in chunks of %d bytes", blosc2.ErrTooLarge, nitems, chunksize)
	}
	if kind == blosc2.SpecialNaN && ts != 4 && ts != 8 {
		return fmt.Errorf("%w: NaN needs typesize 4 or 8, not %d", blosc2.ErrInvalidOption, ts)
	}
	if w.specials == SpecialsInline {
		for range n {
			if err := w.WriteSpecial(kind, chunksize, nil); err != nil {
				return err
			}
		}
		if left > 0 {
			return w.WriteSpecial(kind, int(left*ts), nil)
		}
		return nil
	}
	bs, err := w.blockSizeFor(chunksize)
	if err != nil {
		return err
	}
	total := n
	if left > 0 {
		total++
	}
	if err := w.storage.begin(w, int32(chunksize)); err != nil {
		return err
	}
	w.h.BlockSize = int32(bs)
	e := frame.SpecialEntry(kind)
	w.entries = slices.Repeat([]int64{e}, int(total))
	if w.sums && total <= frame.MaxChecksummedChunks {
		w.crcs = make([]uint32, total)
	} else {
		w.sums = false
		w.crcs = nil
	}
	w.sizes = frame.Sizes{ChunkSize: int32(chunksize), N: total, Nbytes: nitems * ts, Last: int32(chunksize), VLBlocks: false}
	if left > 0 {
		w.sizes.Last = int32(left * ts)
	}
	for i := range w.entries {
		n := int32(chunksize)
		if i == len(w.entries)-1 {
			n = w.sizes.Last
		}
		w.pending = append(w.pending, pendingSpecial{i: i, kind: kind, nbytes: n, ts: int32(ts), bs: int32(bs)})
	}
	w.fill = true
	w.dirty = true
	return w.storage.markLossy(w)
}

// AddMetalayer declares a fixed metalayer (see WithMetalayer); only
// before the first chunk.
func (w *Writer) AddMetalayer(name string, content []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	if w.hdrLen > 0 || len(w.entries) > 0 {
		return fmt.Errorf("%w: metalayer %q: metalayers must be added before the first chunk", blosc2.ErrInvalidOption, name)
	}
	w.dirty = true
	return frame.AddMetalayer(&w.h.Metalayers, name, content)
}

// UpdateMetalayer rewrites the content of metalayer name in place, as
// blosc2_meta_update does: content may not be longer than the stored one,
// and replaces its first len(content) bytes. On a destination that cannot
// seek this is only possible before the first chunk.
func (w *Writer) UpdateMetalayer(name string, content []byte) error {
	if err := w.usable(); err != nil {
		return err
	}
	for i := range w.h.Metalayers {
		m := &w.h.Metalayers[i]
		if m.Name != name {
			continue
		}
		if len(content) > len(m.Content) {
			return fmt.Errorf("%w: metalayer %q holds %d bytes, cannot grow to %d", blosc2.ErrInvalidOption, name, len(m.Content), len(content))
		}
		if w.hdrLen > 0 && !w.storage.seekable() {
			return fmt.Errorf("%w: metalayer %q: the header is already written to a destination that cannot seek", blosc2.ErrUnsupported, name)
		}
		m.Content = bytes.Clone(m.Content)
		copy(m.Content, content)
		w.dirty = true
		return nil
	}
	return fmt.Errorf("%w: no metalayer %q", blosc2.ErrInvalidOption, name)
}

// Metalayer returns the current content of metalayer name.
func (w *Writer) Metalayer(name string) ([]byte, bool) { return w.h.Metalayer(name) }

// SetVLMetalayer adds or replaces the variable-length metalayer name with
// content compressed using C-Blosc2's default parameters (BloscLZ level 5,
// typesize 8, shuffle), as blosc2_vlmeta_add and blosc2_vlmeta_update do
// when given no cparams. vlmetalayers live in the trailer: they can change
// until Close. At most 16 (C-Blosc2 refuses to store more).
func (w *Writer) SetVLMetalayer(name string, content []byte) error {
	return w.SetVLMetalayerWith(name, content, nil)
}

// SetVLMetalayerWith is SetVLMetalayer compressing with p (nil: defaults).
func (w *Writer) SetVLMetalayerWith(name string, content []byte, p *blosc2.CParams) error {
	if err := w.usable(); err != nil {
		return err
	}
	if err := frame.CheckMetaName(name); err != nil {
		return err
	}
	if name == frame.ChecksumsName {
		return fmt.Errorf("%w: vlmetalayer name %q is reserved for the chunk checksums", blosc2.ErrInvalidOption, name)
	}
	q := blosc2.DefaultCParams()
	if p != nil {
		q = *p
	}
	c, err := blosc2.Compress(nil, content, &q)
	if err != nil {
		return fmt.Errorf("vlmetalayer %q: %w", name, err)
	}
	return w.setVLChunk(name, c)
}

func (w *Writer) setVLChunk(name string, c []byte) error {
	w.dirty = true
	for i := range w.vl {
		if w.vl[i].Name == name {
			w.vl[i].Chunk = c
			return nil
		}
	}
	if len(w.vl) >= frame.MaxVLMetalayersWrite {
		return fmt.Errorf("%w: more than %d vlmetalayers (C-Blosc2 cannot store them)", blosc2.ErrInvalidOption, frame.MaxVLMetalayersWrite)
	}
	w.vl = append(w.vl, frame.VLMeta{Name: name, Chunk: c})
	return nil
}

// DeleteVLMetalayer removes the variable-length metalayer name.
func (w *Writer) DeleteVLMetalayer(name string) error {
	if err := w.usable(); err != nil {
		return err
	}
	for i := range w.vl {
		if w.vl[i].Name == name {
			w.vl = slices.Delete(w.vl, i, i+1)
			w.dirty = true
			return nil
		}
	}
	return fmt.Errorf("%w: no vlmetalayer %q", blosc2.ErrInvalidOption, name)
}

// VLMetalayerNames returns the names of the vlmetalayers, in order.
func (w *Writer) VLMetalayerNames() []string {
	out := make([]string, len(w.vl))
	for i, m := range w.vl {
		out[i] = m.Name
	}
	return out
}

// Close writes the index and the trailer, patches the header when the
// destination can seek, and (for files the package opened) closes the
// file. It does not close an io.Writer given to NewWriter. Close is idempotent:
// later calls return nil, or the error of the first.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		w.abort()
		return w.err
	}
	if err := w.finish(); err != nil {
		w.abort()
		w.err = err
		return err
	}
	if w.onClose != nil {
		if err := w.onClose(); err != nil {
			w.err = err
			return err
		}
	}
	return nil
}

// abort releases the storage of a failed session without writing more.
func (w *Writer) abort() {
	if w.storage != nil {
		w.storage.release()
	}
}

// inlineSpecial returns the chunk to store for a zero, NaN or
// uninitialized special chunk. C-Blosc2 3.3.2 cannot read such chunks from
// a frame file (frame_get_lazychunk accepts only regular and
// repeated-value chunks), so it becomes the repeated-value chunk of one
// element of its content (an uninitialized chunk becomes zeros), or, when
// its size is not a whole number of the frame's elements, a memcpyed chunk.
func (w *Writer) inlineSpecial(chunk []byte, h *blosc2.Header) ([]byte, error) {
	ts := int(w.h.TypeSize)
	if h.Nbytes%ts == 0 && ts <= blosc2.MaxTypeSize && (h.Special() != blosc2.SpecialNaN || h.TypeSize == ts) {
		value := make([]byte, ts)
		if h.Special() == blosc2.SpecialNaN {
			v, err := blosc2.Decompress(nil, chunk, nil)
			if err != nil {
				return nil, err
			}
			copy(value, v)
		}
		return blosc2.AppendSpecial(nil, blosc2.SpecialValue, h.Nbytes, ts, h.BlockSize, value)
	}
	raw, err := blosc2.Decompress(nil, chunk, nil)
	if err != nil {
		return nil, err
	}
	p := w.cp
	p.Level = 0
	return blosc2.Compress(nil, raw, &p)
}

// relocate stores the index-only specials of a variable-size frame:
// C-Blosc2 3.3.2 cannot size them when reading (README_CFRAME_FORMAT.rst).
func (w *Writer) relocate() error {
	if w.sizes.ChunkSize != 0 || len(w.pending) == 0 {
		return nil
	}
	for _, p := range w.pending {
		sc, err := p.chunk()
		if err != nil {
			return err
		}
		h, err := blosc2.ParseHeader(sc)
		if err != nil {
			return err
		}
		c, err := w.inlineSpecial(sc, &h)
		if err != nil {
			return err
		}
		e, err := w.store([][]byte{c})
		if err != nil {
			return err
		}
		w.entries[p.i] = e
		if w.sums {
			w.crcs[p.i] = frame.ChunkCRC(c)
		}
	}
	w.pending = nil
	return nil
}

// tail builds the index and the trailer.
func (w *Writer) tail() (idx, trailer []byte, err error) {
	if w.sizes.Nbytes > 0 {
		if w.fill {
			idx, err = frame.AppendRepeatIndex(nil, len(w.entries), w.entries[0])
		} else {
			idx, err = frame.AppendIndex(nil, w.entries)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	vl, fp, err := w.trailerVL()
	if err != nil {
		return nil, nil, err
	}
	w.trailerHasVL = len(vl) > 0
	return idx, frame.AppendTrailer(nil, vl, fp), nil
}

// noteCRC records the checksum of the chunk just added, stored (nil for
// one the index records without storing it), when the frame keeps them.
func (w *Writer) noteCRC(stored [][]byte) {
	if !w.sums {
		return
	}
	var c uint32
	if stored != nil {
		c = frame.ChunkCRC(stored...)
	}
	w.crcs = append(w.crcs, c)
}

// trailerVL is the trailer's vlmetalayers: the user's, and the checksum
// record (see frame.ChecksumsName) with the fingerprint that vouches for
// it. There is no record when the Writer keeps no checksums, when the
// frame has too many chunks for one, or when the user's vlmetalayers
// leave no room under C-Blosc2's limit of 16.
func (w *Writer) trailerVL() ([]frame.VLMeta, frame.Fingerprint, error) {
	if !w.sums || len(w.entries) > frame.MaxChecksummedChunks || len(w.vl) >= frame.MaxVLMetalayersWrite {
		return w.vl, frame.Fingerprint{}, nil
	}
	sums := frame.Checksums{Nbytes: w.sizes.Nbytes, ChunkSize: w.sizes.ChunkSize, TypeSize: w.h.TypeSize, BlockSize: w.h.BlockSize,
		CRCs: make([]uint32, len(w.entries))}
	for i, e := range w.entries {
		if e < 0 {
			sums.CRCs[i] = frame.EntryCRC(e)
		} else {
			sums.CRCs[i] = w.crcs[i]
		}
	}
	m, fp, err := sums.Entry()
	if err != nil {
		return nil, frame.Fingerprint{}, err
	}
	return append(slices.Clip(w.vl), m), fp, nil
}

// finalHeader is the header with the final sizes.
func (w *Writer) finalHeader(frameLen int64) []byte {
	h := w.h
	h.FrameLen = frameLen
	h.Nbytes = w.sizes.Nbytes
	h.Cbytes = w.cbytes
	h.ChunkSize = w.sizes.ChunkSize
	h.GeneralFlags = w.sizes.GeneralFlags()
	h.HasVLMeta = w.trailerHasVL
	return h.Append(nil)
}

// finish writes what Close must write, by the storage.
func (w *Writer) finish() error { return w.storage.finish(w) }
