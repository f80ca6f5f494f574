package framereader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/ndmeta"
)

// Reader gives random access to the chunks and the uncompressed bytes of a
// frame: a contiguous frame (from a file, a file offset, an io.ReaderAt or
// a byte slice), a sparse frame directory, or one of the older formats
// (beta-era frames, packed super-chunks). It is safe for concurrent use:
// every method may be called from several goroutines at once, provided the
// underlying io.ReaderAt is (an *os.File and a *bytes.Reader are).
//
// A Reader decodes only what is asked for: ReadAt decodes the chunks, and
// inside them only the blocks, that hold the requested range.
type Reader struct {
	format  Format
	h       frame.Header
	src     source
	idx     frame.Index
	nchunks int
	vl      []frame.VLMeta
	dp      blosc2.DParams
	closer  io.Closer
	offset  int64 // in the input of NewReaders
	// sums verify every chunk read when sumsState is ChecksumsValid.
	sums      *frame.Checksums
	sumsState frame.ChecksumState
	// unpatched: the header's sizes were never patched (see Info).
	unpatched bool
	// ref is the reference of a packed super-chunk's delta filter.
	ref        []byte
	layoutOnce sync.Once
	starts     []int64 // uncompressed start of each chunk, len nchunks+1; nil for fixed sizes
	layoutErr  error
}

// source fetches stored chunks by index entry.
type source interface {
	// chunk appends to dst the compressed chunk that entry e (≥ 0)
	// designates, and computes its checksum while reading it if sum. With
	// inPlace, a source in memory may return the chunk where it lies
	// instead (see frame.InPlace), which the caller then only reads.
	chunk(dst []byte, e int64, sum, inPlace bool) ([]byte, uint32, error)
	// header returns at least the first 16 bytes of that chunk.
	header(e int64) ([]byte, error)
}

// Open opens a frame file, a sparse frame directory (or the
// chunks.b2frame inside one), or an older-format file. The Reader keeps
// the file open until Close.
func Open(path string, opts ...ReaderOption) (*Reader, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return openSparse(path, opts)
	}
	if filepath.Base(path) == frame.SparseIndexName {
		if r, err := openSparse(filepath.Dir(path), opts); err == nil {
			return r, nil
		}
	}
	return OpenAt(path, 0, opts...)
}

// OpenAt opens the contiguous frame that starts offset bytes into the
// file at path. Bytes after the frame's end are ignored, as C-Blosc2's
// blosc2_schunk_open_offset ignores them.
func OpenAt(path string, offset int64, opts ...ReaderOption) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if offset < 0 || offset > st.Size() {
		f.Close()
		return nil, fmt.Errorf("%w: offset %d outside the %d-byte file %s", blosc2.ErrInvalidOption, offset, st.Size(), path)
	}
	r, err := NewReader(io.NewSectionReader(f, offset, st.Size()-offset), st.Size()-offset, opts...)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.closer = f
	return r, nil
}

// NewReaderBytes reads the frame at the start of b. The Reader keeps b.
// Its chunks are decoded from b where they lie, not copied.
func NewReaderBytes(b []byte, opts ...ReaderOption) (*Reader, error) {
	return NewReader(frame.Memory(b), int64(len(b)), opts...)
}

// NewReadersBytes opens every frame of the concatenation in b, as
// NewReaders does. The Readers keep b and decode its chunks where they lie.
func NewReadersBytes(b []byte, opts ...ReaderOption) ([]*Reader, error) {
	return NewReaders(frame.Memory(b), int64(len(b)), opts...)
}

// NewReader reads the frame that starts at offset 0 of ra, which holds
// size bytes. The frame may end before size: what follows it is not read
// (NewReaders opens every frame of a concatenation). A frame whose header
// sizes were never patched (written to a pipe, see framewriter) ends with
// the trailer that follows its index, found by walking its chunk headers.
func NewReader(ra io.ReaderAt, size int64, opts ...ReaderOption) (*Reader, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	first := make([]byte, min(size, 128))
	if _, err := ra.ReadAt(first, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	r := &Reader{dp: o.dp}
	switch f := detect(first, size); f {
	case Contiguous:
		err = r.openContiguous(ra, size)
	case Beta:
		err = r.openBeta(ra, size)
	case Packed:
		err = r.openPacked(ra, size)
	case Sparse:
		return nil, fmt.Errorf("%w: this is the index file of a sparse frame; open its directory", blosc2.ErrInvalidOption)
	default:
		return nil, unknownFormat(f, first)
	}
	if err != nil {
		return nil, err
	}
	r.dp = withGeometry(r.dp, &r.h)
	return r, nil
}

// Geometry returns the block shape chunks of this frame are decoded with:
// the caller's DParams.Geometry, else that of the frame's b2nd metalayer,
// else nil.
func (r *Reader) Geometry() *blosc2.Geometry { return r.dp.Geometry }

// withGeometry returns dp with the block shape of the frame's b2nd
// metalayer (ndmeta.FrameGeometry), unless dp has one.
func withGeometry(dp blosc2.DParams, h *frame.Header) blosc2.DParams {
	if dp.Geometry == nil {
		dp.Geometry = ndmeta.FrameGeometry(h.Metalayers)
	}
	return dp
}

// NewReaders opens every contiguous frame concatenated in the size bytes
// of ra (cat a.b2frame b.b2frame, appends with >>): the frames are found
// by hopping from header to header, reading a few bytes per frame (per
// chunk for frames whose header sizes were never patched), never the
// chunks. Bytes after the last frame that start none are an error.
func NewReaders(ra io.ReaderAt, size int64, opts ...ReaderOption) ([]*Reader, error) {
	spans, err := frame.Spans(ra, size)
	if err != nil {
		return nil, err // whole frames before the damage are not enough
	}
	rs := make([]*Reader, len(spans))
	for i, sp := range spans {
		var fra io.ReaderAt = io.NewSectionReader(ra, sp.Offset, sp.Len)
		if m, ok := ra.(frame.Memory); ok {
			fra = m[sp.Offset : sp.Offset+sp.Len]
		}
		r, err := NewReader(fra, sp.Len, opts...)
		if err != nil {
			return nil, fmt.Errorf("frame %d (input offset %d): %w", i, sp.Offset, err)
		}
		r.offset = sp.Offset
		rs[i] = r
	}
	return rs, nil
}

// Offset is where the frame starts in the input NewReaders read; 0 for
// the other constructors.
func (r *Reader) Offset() int64 { return r.offset }

func (r *Reader) openContiguous(ra io.ReaderAt, size int64) error {
	l, err := frame.LoadContiguous(ra, size, r.dp.MaxMemory)
	if err != nil {
		return err
	}
	r.use(l, Contiguous)
	r.src = &contiguousSource{ra: ra, base: int64(l.Header.HeaderLen), cbytes: l.Header.Cbytes}
	return r.checkSizes()
}

// checkSizes makes Size a size the chunks agree with before anything is
// read: in a frame of one chunk size the last chunk must hold what nbytes
// leaves for it (the others are checked as they are read, against the
// chunk size); in a variable-size frame every chunk header is read once and
// the sizes must add up to nbytes.
func (r *Reader) checkSizes() error {
	if r.nchunks == 0 {
		if r.h.Nbytes != 0 {
			return fmt.Errorf("%w: no chunks, the header says nbytes %d", blosc2.ErrCorrupt, r.h.Nbytes)
		}
		return nil
	}
	if r.h.ChunkSize <= 0 {
		r.layoutOnce.Do(r.buildLayout)
		return r.layoutErr
	}
	last := r.nchunks - 1
	_, n, err := r.chunkRange(last)
	if err != nil {
		return err
	}
	if e := r.idx.At(last); e >= 0 {
		hb, err := r.src.header(e)
		if err != nil {
			return fmt.Errorf("chunk %d: %w", last, err)
		}
		p, err := blosc2.ParsePrefix(hb)
		if err != nil {
			return fmt.Errorf("chunk %d: %w", last, err)
		}
		if p.Nbytes != n {
			return fmt.Errorf("%w: the last chunk (%d) holds %d bytes; nbytes %d and chunksize %d leave it %d", blosc2.ErrCorrupt, last, p.Nbytes, r.h.Nbytes, r.h.ChunkSize, n)
		}
	}
	return nil
}

// use takes the parts of a loaded layout.
func (r *Reader) use(l *frame.Layout, f Format) {
	r.format = f
	r.h = l.Header
	r.idx = l.Index
	r.nchunks = l.NChunks
	r.vl = userVL(l.VL)
	r.unpatched = l.Unpatched
	r.sums, r.sumsState = l.Sums, l.SumsState
}

// userVL is vl without the checksum record, which is the format's own.
func userVL(vl []frame.VLMeta) []frame.VLMeta {
	return slices.DeleteFunc(slices.Clone(vl), func(m frame.VLMeta) bool { return m.Name == frame.ChecksumsName })
}

// contiguousSource reads chunks from the chunks section of a frame.
type contiguousSource struct {
	ra     io.ReaderAt
	base   int64 // frame position of the chunks section
	cbytes int64 // its length
}

func (s *contiguousSource) header(e int64) ([]byte, error) { return s.headerTo(nil, e) }

// headerTo reads chunk e's header into buf's capacity (allocating only if
// it has too little): chunk reads it into the spare room of the buffer the
// chunk goes to, so reading chunk after chunk allocates nothing.
func (s *contiguousSource) headerTo(buf []byte, e int64) ([]byte, error) {
	if e < 0 || e+blosc2.MinHeaderLen > s.cbytes {
		return nil, fmt.Errorf("%w: chunk at %d: header past the chunks section (cbytes %d)", blosc2.ErrCorrupt, e, s.cbytes)
	}
	n := min(int64(blosc2.ExtendedHeaderLen), s.cbytes-e)
	// A header is only parsed: read in place when the frame is in memory.
	if hb, ok, err := frame.InPlace(s.ra, s.base+e, n, s.base+s.cbytes, "chunk header"); ok {
		return hb, err
	}
	return frame.ReadAppend(buf[:0], s.ra, s.base+e, n, s.base+s.cbytes, "chunk header")
}

func (s *contiguousSource) chunk(dst []byte, e int64, sum, inPlace bool) ([]byte, uint32, error) {
	hb, err := s.headerTo(dst[len(dst):], e)
	if err != nil {
		return nil, 0, err
	}
	return sizedChunk(dst, hb, e, s.cbytes-e, "the chunks section", s.ra, s.base+e, s.base+s.cbytes, sum, inPlace)
}

// sizedChunk reads the chunk at entry e whose first bytes are hb: the
// cbytes they declare must fit in the room bytes before the end of
// bound; the chunk is then read at off of ra, which ends at end (with its
// checksum if sum).
func sizedChunk(dst, hb []byte, e, room int64, bound string, ra io.ReaderAt, off, end int64, sum, inPlace bool) ([]byte, uint32, error) {
	p, err := blosc2.ParsePrefix(hb)
	if err != nil {
		return nil, 0, fmt.Errorf("chunk at %d: %w", e, err)
	}
	cb := int64(p.Cbytes)
	if cb > room {
		return nil, 0, fmt.Errorf("%w: chunk at %d declares %d bytes; %s ends %d bytes later", blosc2.ErrCorrupt, e, cb, bound, room)
	}
	return readChunk(dst, ra, off, cb, end, "chunk", sum, inPlace)
}

// readChunk reads n bytes at off, with their checksum if sum; in place
// (frame.InPlace) if inPlace and ra allows it.
func readChunk(dst []byte, ra io.ReaderAt, off, n, size int64, what string, sum, inPlace bool) ([]byte, uint32, error) {
	if inPlace {
		if c, ok, err := frame.InPlace(ra, off, n, size, what); ok {
			if err != nil || !sum {
				return c, 0, err
			}
			return c, frame.ChunkCRC(c), nil
		}
	}
	if sum {
		return frame.ReadAppendSum(dst, ra, off, n, size, what)
	}
	c, err := frame.ReadAppend(dst, ra, off, n, size, what)
	return c, 0, err
}

// Format is the container format of the frame.
func (r *Reader) Format() Format { return r.format }

// Close releases the file Open or OpenAt opened; for other readers it does
// nothing. It is safe to call more than once.
func (r *Reader) Close() error {
	if r.closer == nil {
		return nil
	}
	c := r.closer
	r.closer = nil
	return c.Close()
}

// NumChunks is the number of chunks, special ones included.
func (r *Reader) NumChunks() int { return r.nchunks }

// Size is the total uncompressed size: the header's nbytes.
func (r *Reader) Size() int64 { return r.h.Nbytes }

// ChunkInfo describes one chunk of a frame.
type ChunkInfo struct {
	// Entry is the raw index entry: the chunk's offset from the end of the
	// header (contiguous frames), its file number (sparse frames), its
	// position in the buffer (packed super-chunks), or a negative special
	// value.
	Entry int64
	// Special is the kind of an implied chunk (zeros, NaN, uninit) that the
	// index records instead of storing it, or SpecialNone.
	Special blosc2.Special
	// Nbytes is the chunk's uncompressed size.
	Nbytes int
	// Cbytes is its stored size: 0 for an implied chunk.
	Cbytes int
	// Start is the position of its first byte in the uncompressed data.
	Start int64
	// Header is the chunk header (for an implied chunk, that of the chunk
	// C-Blosc2 would synthesize).
	Header blosc2.Header
}

// ChunkOffset is where chunk i's bytes start in a contiguous frame, from
// the index alone (nothing is read); false for a chunk the index records
// without storing it, and in other formats.
func (r *Reader) ChunkOffset(i int) (int64, bool) {
	if r.format != Contiguous || i < 0 || i >= r.nchunks {
		return 0, false
	}
	e := r.idx.At(i)
	return int64(r.h.HeaderLen) + e, e >= 0
}

// SpecialRun is how many chunks from chunk i on, i included, are the same
// chunk implied by the index: the same special entry (zeros, NaN,
// uninitialized) of the same size, as blosc2_schunk_fill_special writes
// them by the million. It is 1 for a stored chunk. A caller that reads
// chunk i through AppendChunk can produce the run's bytes at once instead
// of chunk after chunk; their checksums, if the frame has them, are
// verified here.
func (r *Reader) SpecialRun(i int) (int, error) {
	if err := r.checkIndex(i); err != nil {
		return 0, err
	}
	e := r.idx.At(i)
	if e >= 0 || (r.format != Contiguous && r.format != Sparse) {
		return 1, nil
	}
	_, n, err := r.chunkRange(i)
	if err != nil {
		return 0, err
	}
	j := i + 1
	if r.idx.Repeated() {
		j = r.nchunks
	} else {
		for j < r.nchunks && r.idx.At(j) == e {
			j++
		}
	}
	if j > i+1 && j == r.nchunks { // the last chunk may be shorter
		if _, last, err := r.chunkRange(j - 1); err != nil || last != n {
			j--
		}
	}
	if r.sums != nil {
		for k := i + 1; k < j; k++ {
			if err := r.sums.Verify(k, e, nil); err != nil {
				return 0, err
			}
		}
	}
	return j - i, nil
}

// ChunkInfo returns what the index and the chunk header say of chunk i.
func (r *Reader) ChunkInfo(i int) (ChunkInfo, error) {
	if err := r.checkIndex(i); err != nil {
		return ChunkInfo{}, err
	}
	start, n, err := r.chunkRange(i)
	if err != nil {
		return ChunkInfo{}, err
	}
	ci := ChunkInfo{Entry: r.idx.At(i), Nbytes: n, Start: start}
	if ci.Entry < 0 {
		ci.Special = frame.EntryKind(ci.Entry)
		c, err := r.Chunk(i)
		if err != nil {
			return ci, err
		}
		ci.Header, err = blosc2.ParseHeader(c)
		return ci, err
	}
	hb, err := r.src.header(ci.Entry)
	if err != nil {
		return ci, fmt.Errorf("chunk %d: %w", i, err)
	}
	p, err := blosc2.ParsePrefix(hb)
	if err != nil {
		return ci, fmt.Errorf("chunk %d: %w", i, err)
	}
	cb := p.Cbytes
	if cb <= 4096 || p.Special == blosc2.SpecialValue {
		// Small chunks (and repeated-value ones, whose value follows the
		// header) are read whole.
		if hb, _, err = r.src.chunk(nil, ci.Entry, false, false); err != nil {
			return ci, fmt.Errorf("chunk %d: %w", i, err)
		}
	}
	ci.Header, err = blosc2.ParseHeaderPrefix(hb)
	ci.Cbytes = ci.Header.Cbytes
	if err != nil {
		return ci, fmt.Errorf("chunk %d: %w", i, err)
	}
	return ci, nil
}

func (r *Reader) checkIndex(i int) error {
	if i < 0 || i >= r.nchunks {
		return fmt.Errorf("%w: chunk %d of a frame with %d chunks", blosc2.ErrInvalidOption, i, r.nchunks)
	}
	return nil
}

// Chunk returns the compressed bytes of chunk i. For an implied chunk it
// returns the 32-byte special chunk C-Blosc2 synthesizes (frame_special_chunk).
func (r *Reader) Chunk(i int) ([]byte, error) { return r.AppendChunk(nil, i) }

// AppendChunk appends the compressed bytes of chunk i (as Chunk returns
// them) to dst, reusing its spare capacity, and returns the extended
// slice: a loop over the chunks can recycle one buffer.
func (r *Reader) AppendChunk(dst []byte, i int) ([]byte, error) {
	return r.appendChunk(dst, i, false)
}

// appendChunk is AppendChunk; with inPlace, a stored chunk of a frame in
// memory is returned where it lies (frame.InPlace): for callers that only
// decode it.
func (r *Reader) appendChunk(dst []byte, i int, inPlace bool) ([]byte, error) {
	if err := r.checkIndex(i); err != nil {
		return dst, err
	}
	e := r.idx.At(i)
	if e < 0 {
		_, n, err := r.chunkRange(i)
		if err != nil {
			return dst, err
		}
		if r.sums != nil {
			if err := r.sums.Verify(i, e, nil); err != nil {
				return dst, err
			}
		}
		c, err := blosc2.AppendSpecial(dst, frame.EntryKind(e), n, int(r.h.TypeSize), int(r.h.BlockSize), nil)
		if err != nil {
			return dst, fmt.Errorf("chunk %d (special %v, %d bytes, typesize %d): %w", i, frame.EntryKind(e), n, r.h.TypeSize, err)
		}
		return c, nil
	}
	c, crc, err := r.src.chunk(dst, e, r.sums != nil, inPlace)
	if err != nil {
		return dst, fmt.Errorf("chunk %d: %w", i, err)
	}
	if r.format == Contiguous || r.format == Sparse {
		// Every chunk holds what the frame's layout gives it, so a reader
		// that decodes chunk after chunk gets exactly Size bytes.
		_, n, err := r.chunkRange(i)
		if err != nil {
			return dst, err
		}
		if p, err := blosc2.ParsePrefix(c[len(dst):]); err != nil || p.Nbytes != n {
			return dst, fmt.Errorf("%w: chunk %d holds %d bytes, the frame layout says %d", blosc2.ErrCorrupt, i, p.Nbytes, n)
		}
	}
	if r.sums != nil {
		if err := r.sums.VerifyCRC(i, crc); err != nil {
			return dst, fmt.Errorf("%w (stored at %d)", err, e)
		}
	}
	return c, nil
}

// Checksums says whether the frame carries chunk checksums: "crc32c"
// (every chunk read is verified, ReadAt's partial reads included, since
// they read the whole compressed chunk), "none" (frames C-Blosc2 writes)
// or "stale" (a writer that does not keep them changed the frame).
func (r *Reader) Checksums() string { return r.sumsState.String() }

// checkedChunk returns chunk i checked against the size the frame
// implies, ready for the chunk decoder (see packedDelta).
func (r *Reader) checkedChunk(i int) (checked, error) {
	var ck checked
	start, n, err := r.chunkRange(i)
	if err != nil {
		return ck, err
	}
	// The chunk is only decoded (packedDelta clones before it changes a
	// byte): it may be read in place.
	c, err := r.appendChunk(nil, i, true)
	if err != nil {
		return ck, err
	}
	if c, ck.delta, err = r.packedDelta(c); err != nil {
		return ck, fmt.Errorf("chunk %d: %w", i, err)
	}
	h, err := blosc2.ParseHeader(c)
	if err != nil {
		return ck, fmt.Errorf("chunk %d: %w", i, err)
	}
	if h.Nbytes != n {
		return ck, fmt.Errorf("%w: chunk %d holds %d bytes, the frame layout says %d", blosc2.ErrCorrupt, i, h.Nbytes, n)
	}
	ck.c, ck.start, ck.n, ck.h = c, start, n, h
	return ck, nil
}

// checked is a chunk ready to decode.
type checked struct {
	c     []byte
	h     blosc2.Header
	start int64 // uncompressed position in the frame
	n     int   // uncompressed size
	delta bool  // add the packed super-chunk's reference after decoding
}

// DecodeChunk decodes chunk i and appends its bytes to dst. Implied
// uninitialized chunks decode to zeros.
func (r *Reader) DecodeChunk(dst []byte, i int) ([]byte, error) {
	ck, err := r.checkedChunk(i)
	if err != nil {
		return dst, err
	}
	out, err := blosc2.Decompress(dst, ck.c, &r.dp)
	if err != nil {
		return dst, fmt.Errorf("chunk %d: %w", i, err)
	}
	r.addRef(ck.delta, out[len(dst):], 0)
	return out, nil
}

// WriteTo decodes every chunk in order and writes the data to w
// (io.WriterTo): the whole frame, whatever was read before.
func (r *Reader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	var buf []byte
	var err error
	for i := range r.nchunks {
		if buf, err = r.DecodeChunk(buf[:0], i); err != nil {
			return total, err
		}
		n, err := w.Write(buf)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// DecodeChunkItems decodes items [start, start+n) of chunk i, an item
// being the chunk header's typesize, and appends them to dst. Only the
// blocks holding them are decoded.
func (r *Reader) DecodeChunkItems(dst []byte, i, start, n int) ([]byte, error) {
	ck, err := r.checkedChunk(i)
	if err != nil {
		return dst, err
	}
	out, err := blosc2.GetItems(dst, ck.c, start, n, nil)
	if err != nil {
		return dst, fmt.Errorf("chunk %d: %w", i, err)
	}
	r.addRef(ck.delta, out[len(dst):], start*ck.h.TypeSize)
	return out, nil
}

// ChunkSpan returns the uncompressed bytes chunk i holds: n bytes from
// start in the frame's data (ReadAt's offsets). ReadAt of exactly that
// span decodes the chunk straight into its buffer.
func (r *Reader) ChunkSpan(i int) (start int64, n int, err error) {
	if err := r.checkIndex(i); err != nil {
		return 0, 0, err
	}
	return r.chunkRange(i)
}

// chunkRange returns the uncompressed start and size of chunk i.
func (r *Reader) chunkRange(i int) (int64, int, error) {
	if cs := int64(r.h.ChunkSize); cs > 0 {
		start := int64(i) * cs
		n := min(cs, r.h.Nbytes-start)
		if n <= 0 {
			return 0, 0, fmt.Errorf("%w: chunk %d starts at %d, past nbytes %d", blosc2.ErrCorrupt, i, start, r.h.Nbytes)
		}
		return start, int(n), nil
	}
	r.layoutOnce.Do(r.buildLayout)
	if r.layoutErr != nil {
		return 0, 0, r.layoutErr
	}
	return r.starts[i], int(r.starts[i+1] - r.starts[i]), nil
}

// buildLayout reads the size of every stored chunk of a variable-size
// frame (one chunk header each) and derives the size of the one implied
// chunk it may have.
func (r *Reader) buildLayout() {
	// The layout takes 8 bytes a chunk: within the memory cap, as the
	// index is (a repeated-value index of millions of entries takes none).
	if need := 8 * (int64(r.nchunks) + 1); r.dp.MaxMemory > 0 && need > int64(r.dp.MaxMemory) {
		r.layoutErr = fmt.Errorf("%w: the sizes of %d variable-size chunks take %d bytes, more than the %d allowed", blosc2.ErrTooLarge, r.nchunks, need, r.dp.MaxMemory)
		return
	}
	starts := make([]int64, r.nchunks+1)
	special := -1
	var total int64
	// Entries that repeat one stored chunk (a looping index) read its
	// header once.
	lastEntry, lastN := int64(-1), int64(0)
	for i := range r.nchunks {
		e := r.idx.At(i)
		if e >= 0 && e == lastEntry {
			starts[i+1] = lastN
			total += lastN
			continue
		}
		if e < 0 {
			if special >= 0 {
				r.layoutErr = fmt.Errorf("%w: variable-size frame with implied chunks %d and %d: their sizes are unknowable", blosc2.ErrCorrupt, special, i)
				return
			}
			special = i
			continue
		}
		hb, err := r.src.header(e)
		if err != nil {
			r.layoutErr = fmt.Errorf("chunk %d: %w", i, err)
			return
		}
		p, err := blosc2.ParsePrefix(hb)
		if err != nil {
			r.layoutErr = fmt.Errorf("chunk %d: %w", i, err)
			return
		}
		n := int64(p.Nbytes)
		starts[i+1] = n
		total += n
		lastEntry, lastN = e, n
	}
	if special >= 0 {
		n := r.h.Nbytes - total
		if n <= 0 || n > blosc2.MaxBufferSize {
			r.layoutErr = fmt.Errorf("%w: the implied chunk %d of a variable-size frame would hold %d bytes", blosc2.ErrCorrupt, special, n)
			return
		}
		starts[special+1] = n
		total += n
	}
	if total != r.h.Nbytes {
		r.layoutErr = fmt.Errorf("%w: chunks hold %d bytes, the header says nbytes %d", blosc2.ErrCorrupt, total, r.h.Nbytes)
		return
	}
	for i := range r.nchunks {
		starts[i+1] += starts[i]
	}
	r.starts = starts
}

// ChunkAt returns the chunk holding uncompressed byte off and the offset
// where that chunk starts; off ≥ Size gives NumChunks.
func (r *Reader) ChunkAt(off int64) (int, int64, error) {
	if off < 0 {
		return 0, 0, fmt.Errorf("%w: negative offset %d", blosc2.ErrInvalidOption, off)
	}
	if off >= r.h.Nbytes {
		return r.nchunks, r.h.Nbytes, nil
	}
	i, err := r.chunkAt(off)
	if err != nil {
		return 0, 0, err
	}
	start, _, err := r.chunkRange(i)
	return i, start, err
}

// chunkAt returns the chunk holding uncompressed byte off.
func (r *Reader) chunkAt(off int64) (int, error) {
	if cs := int64(r.h.ChunkSize); cs > 0 {
		return int(off / cs), nil
	}
	r.layoutOnce.Do(r.buildLayout)
	if r.layoutErr != nil {
		return 0, r.layoutErr
	}
	return sort.Search(r.nchunks, func(i int) bool { return r.starts[i+1] > off }), nil
}

// ReadAt reads len(p) uncompressed bytes starting at off (io.ReaderAt).
// Every chunk it touches is read whole and, when the frame carries
// checksums (Checksums), verified before any of it is decoded, also when
// only a few of its blocks are: a damaged chunk is an error wrapping
// blosc2.ErrChecksum, never wrong bytes. It
// decodes only the chunks, and within them only the blocks, that hold the
// range.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) { return r.readAt(p, off, &r.dp) }

// ReadAtConcurrency is [Reader.ReadAt] with the blocks of each chunk
// decoded on n goroutines (n ≤ 1: the caller's alone), whatever
// [WithConcurrency] set: a caller that spreads chunks over its own
// goroutines chooses, chunk by chunk, whether one chunk's blocks should be
// spread too (the last chunks of a frame, when the others are done).
func (r *Reader) ReadAtConcurrency(p []byte, off int64, n int) (int, error) {
	dp := r.dp
	dp.Concurrency = n
	return r.readAt(p, off, &dp)
}

func (r *Reader) readAt(p []byte, off int64, dp *blosc2.DParams) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%w: negative offset %d", blosc2.ErrInvalidOption, off)
	}
	if off >= r.h.Nbytes {
		return 0, io.EOF
	}
	want := len(p)
	if int64(want) > r.h.Nbytes-off {
		p = p[:r.h.Nbytes-off]
	}
	done := 0
	i, err := r.chunkAt(off)
	if err != nil {
		return 0, err
	}
	for done < len(p) {
		ck, err := r.checkedChunk(i)
		if err != nil {
			return done, err
		}
		c, start, n := ck.c, ck.start, ck.n
		lo := int(off + int64(done) - start)
		m := min(n-lo, len(p)-done)
		if lo == 0 && m == n {
			if _, err := blosc2.DecompressTo(p[done:done+n], c, dp); err != nil {
				return done, fmt.Errorf("chunk %d: %w", i, err)
			}
			if ck.h.Special() == blosc2.SpecialUninit {
				clear(p[done : done+n])
			}
		} else if err := decodeRange(p[done:done+m], c, lo, dp); err != nil {
			return done, fmt.Errorf("chunk %d: %w", i, err)
		}
		r.addRef(ck.delta, p[done:done+m], lo)
		done += m
		i++
	}
	if done < want {
		return done, io.EOF
	}
	return done, nil
}

// decodeRange decodes bytes [off, off+len(out)) of chunk into out,
// decoding only the blocks that hold them when the items line up.
func decodeRange(out, chunk []byte, off int, dp *blosc2.DParams) error {
	buf, err := blosc2.DecompressRange(out[:0], chunk, off, len(out), dp)
	if err != nil {
		return err
	}
	if len(buf) > 0 && &buf[0] != &out[0] {
		copy(out, buf)
	}
	return nil
}

// Metalayer is a fixed metalayer of the header: a name and raw bytes.
type Metalayer struct {
	Name    string
	Content []byte
}

// Metalayers returns the fixed metalayers in header order. The contents
// are copies.
func (r *Reader) Metalayers() []Metalayer { return metalayersOf(&r.h) }

// Metalayer returns a copy of the content of the named metalayer.
func (r *Reader) Metalayer(name string) ([]byte, bool) { return r.h.Metalayer(name) }

func metalayersOf(h *frame.Header) []Metalayer {
	out := make([]Metalayer, len(h.Metalayers))
	for i, m := range h.Metalayers {
		out[i] = Metalayer{Name: m.Name, Content: bytes.Clone(m.Content)}
	}
	return out
}

// MetalayerValue decodes the named metalayer as msgpack (as b2nd and
// python-blosc2 store them), which must hold exactly one value, into Go
// values: nil, bool, int64 (uint64 above MaxInt64), float32, float64,
// string, []byte, []any, map[string]any (map[any]any when some key is not
// a string) and [Ext] for extension types.
func (r *Reader) MetalayerValue(name string) (any, error) {
	b, ok := r.Metalayer(name)
	if !ok {
		return nil, fmt.Errorf("%w: no metalayer %q", blosc2.ErrInvalidOption, name)
	}
	return frame.DecodeMsgpack(b)
}

// VLMetalayerNames returns the names of the variable-length metalayers
// in trailer order.
func (r *Reader) VLMetalayerNames() []string { return vlNames(r.vl) }

// VLMetalayerChunk returns the stored form of the named vlmetalayer: a
// Blosc2 chunk (copied).
func (r *Reader) VLMetalayerChunk(name string) ([]byte, bool) { return vlChunk(r.vl, name) }

// VLMetalayer returns the decompressed content of the named vlmetalayer.
// As blosc2_vlmeta_get, it requires the chunk's cbytes to equal the stored
// length.
func (r *Reader) VLMetalayer(name string) ([]byte, error) { return vlValue(r.vl, name, &r.dp) }

func vlNames(vl []frame.VLMeta) []string {
	out := make([]string, len(vl))
	for i, m := range vl {
		out[i] = m.Name
	}
	return out
}

func vlChunk(vl []frame.VLMeta, name string) ([]byte, bool) {
	for _, m := range vl {
		if m.Name == name {
			return bytes.Clone(m.Chunk), true
		}
	}
	return nil, false
}

func vlValue(vl []frame.VLMeta, name string, dp *blosc2.DParams) ([]byte, error) {
	c, ok := vlChunk(vl, name)
	if !ok {
		return nil, fmt.Errorf("%w: no vlmetalayer %q", blosc2.ErrInvalidOption, name)
	}
	return decodeVLMeta(name, c, dp)
}

func decodeVLMeta(name string, c []byte, dp *blosc2.DParams) ([]byte, error) {
	h, err := blosc2.ParseHeader(c)
	if err != nil {
		return nil, fmt.Errorf("vlmetalayer %q: %w", name, err)
	}
	if h.Cbytes != len(c) {
		return nil, fmt.Errorf("%w: vlmetalayer %q: chunk of %d bytes stored in %d", blosc2.ErrCorrupt, name, h.Cbytes, len(c))
	}
	out, err := blosc2.Decompress(nil, c, dp)
	if err != nil {
		return nil, fmt.Errorf("vlmetalayer %q: %w", name, err)
	}
	return out, nil
}

// VLMetalayerValue decodes the named vlmetalayer's content as msgpack,
// which is how python-blosc2 stores vlmeta values, into the Go values of
// [Reader.MetalayerValue].
func (r *Reader) VLMetalayerValue(name string) (any, error) {
	b, err := r.VLMetalayer(name)
	if err != nil {
		return nil, err
	}
	return frame.DecodeMsgpack(b)
}

// Ext is a msgpack extension value, as [Reader.MetalayerValue] and
// [Reader.VLMetalayerValue] return them: a type byte and its payload.
type Ext = frame.Ext

// Info is the frame header, decoded.
type Info struct {
	Format       Format
	Version      int   // frame format version (general_flags bits 0-3)
	GeneralFlags uint8 // the raw byte
	HeaderLen    int
	FrameLen     int64
	Nbytes       int64
	Cbytes       int64
	TypeSize     int
	BlockSize    int // requested block size, 0 = automatic
	ChunkSize    int // -1 none yet, 0 variable, >0 fixed
	Codec        codec.ID
	CodecMeta    uint8
	Clevel       int
	SplitMode    blosc2.SplitMode
	UseDict      bool
	Filters      [blosc2.MaxFilters]blosc2.Filter
	TComp        int
	TDecomp      int
	HasVLMeta    bool // the header's flag; VLMetalayerNames is authoritative
	VLBlocks     bool // general_flags bit 7
	// Unpatched reports a frame whose writer never patched the header's
	// sizes (a pipe, or a writer that died); the other fields then hold what
	// the reader derived from the chunks, index and trailer.
	Unpatched bool
}

// Info returns the decoded frame header.
func (r *Reader) Info() Info { return infoOf(&r.h, r.format, r.unpatched) }

func infoOf(h *frame.Header, f Format, unpatched bool) Info {
	in := Info{
		Format: f, Version: h.Version(), GeneralFlags: h.GeneralFlags,
		HeaderLen: h.HeaderLen, FrameLen: h.FrameLen, Nbytes: h.Nbytes, Cbytes: h.Cbytes,
		TypeSize: int(h.TypeSize), BlockSize: int(h.BlockSize), ChunkSize: int(h.ChunkSize),
		Codec: codec.ID(h.Compcode()), CodecMeta: h.CodecMeta, Clevel: h.Clevel(),
		SplitMode: blosc2.SplitMode(h.SplitMode()), UseDict: h.UseDict(),
		TComp: int(h.TComp), TDecomp: int(h.TDecomp), HasVLMeta: h.HasVLMeta,
		VLBlocks: h.GeneralFlags&frame.FlagVLBlocks != 0, Unpatched: unpatched,
	}
	for i := range in.Filters {
		in.Filters[i] = blosc2.Filter{ID: blosc2.FilterID(h.Filters[i]), Meta: h.FiltersMeta[i]}
	}
	return in
}
