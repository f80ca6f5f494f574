package frame

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/blosc2go/blosc2"
)

// Layout is what opening a current-layout frame finds: the decoded header,
// the index, the vlmetalayers and where each part lies.
type Layout struct {
	Header  Header
	Index   Index
	NChunks int
	VL      []VLMeta
	// IndexStart is the frame position of the index chunk (0 when there is
	// none); TrailerStart that of the trailer; End the frame's length.
	IndexStart, TrailerStart, End int64
	// Unpatched reports a header whose sizes were never patched; Header
	// then holds the values derived from the chunks, index and trailer.
	Unpatched bool
	// Sums are the chunk checksums when SumsState is ChecksumsValid.
	Sums      *Checksums
	SumsState ChecksumState
}

// loadChecksums reads the checksum record of a loaded frame and checks it
// against the header.
func (l *Layout) loadChecksums(trailer []byte) error {
	state, sums, err := LoadChecksums(l.VL, trailer, l.NChunks, func(c *Checksums) error {
		return c.CheckHeader(&l.Header, l.NChunks)
	})
	if err != nil {
		return err
	}
	l.Sums, l.SumsState = sums, state
	return nil
}

// growBy returns dst extended by n bytes, reusing its capacity when it
// has room. A buffer being reused (cap > 0) that is too small grows by an
// eighth more than it needs: buffers recycled for chunks of varying sizes
// then settle after a few chunks, where growing them exactly replaced one
// at nearly every chunk.
func growBy(dst []byte, n int) []byte {
	l := len(dst)
	if cap(dst)-l >= n {
		return dst[:l+n]
	}
	if cap(dst) == 0 {
		return slices.Grow(dst, n)[:n]
	}
	return append(make([]byte, 0, l+n+n/8), dst...)[:l+n]
}

// Memory is an input held in memory (framereader.NewReaderBytes): what
// only needs looking at is read from it in place (InPlace), not copied.
type Memory []byte

// ReadAt is io.ReaderAt.
func (m Memory) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%w: offset %d of %d bytes in memory", blosc2.ErrInvalidOption, off, len(m))
	}
	if off >= int64(len(m)) {
		return 0, io.EOF // as bytes.Reader
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// InPlace returns the n bytes at off of ra, all of which must lie below
// size, without copying them when ra is Memory: then ok is true, and the
// slice is the caller's memory, whose capacity ends with it. Whoever
// takes it may only read it: never write to it, append to it or pass it
// to a buffer pool. For other inputs, ok is false and nothing is read.
func InPlace(ra io.ReaderAt, off, n, size int64, what string) (b []byte, ok bool, err error) {
	m, ok := ra.(Memory)
	if !ok {
		return nil, false, nil
	}
	if off < 0 || n < 0 || off > size || n > size-off || size > int64(len(m)) {
		return nil, true, fmt.Errorf("%w: %s: %d bytes at offset %d, input has %d", blosc2.ErrTruncated, what, n, off, min(size, int64(len(m))))
	}
	return m[off : off+n : off+n], true, nil
}

// ReadFull reads n bytes at off from ra, all of which must lie below size.
func ReadFull(ra io.ReaderAt, off, n, size int64, what string) ([]byte, error) {
	return ReadAppend(nil, ra, off, n, size, what)
}

// ReadAppend is ReadFull appending to dst, whose spare capacity it reuses.
func ReadAppend(dst []byte, ra io.ReaderAt, off, n, size int64, what string) ([]byte, error) {
	if off < 0 || n < 0 || off > size || n > size-off {
		return dst, fmt.Errorf("%w: %s: %d bytes at offset %d, input has %d", blosc2.ErrTruncated, what, n, off, size)
	}
	l := len(dst)
	dst = growBy(dst, int(n))
	if n == 0 {
		return dst, nil
	}
	if _, err := ra.ReadAt(dst[l:], off); err != nil {
		if errors.Is(err, io.EOF) {
			return dst[:l], fmt.Errorf("%w: %s: %d bytes at offset %d: %v", blosc2.ErrTruncated, what, n, off, err)
		}
		return dst[:l], err
	}
	return dst, nil
}

// LoadContiguous opens the contiguous frame at the start of ra (size bytes
// available; limit caps the decoded index, see DecodeIndex) as C-Blosc2's frame_from_file_offset and get_header_info do,
// with their checks. A frame whose header sizes were never patched must
// end at size; it is located by walking its chunks (README_CFRAME_FORMAT.rst).
func LoadContiguous(ra io.ReaderAt, size int64, limit int) (*Layout, error) {
	fixed, err := ReadFull(ra, 0, FixedHeaderLen, size, "frame header")
	if err != nil {
		return nil, err
	}
	h, err := ParseFixed(fixed)
	if err != nil {
		return nil, err
	}
	if h.FrameType != TypeContiguous {
		return nil, fmt.Errorf("%w: frame type %d is a sparse frame's index; open its directory", blosc2.ErrInvalidOption, h.FrameType)
	}
	if h.Unpatched() {
		return loadUnpatched(ra, size, limit)
	}
	if h.FrameLen < MinFrameLen || h.FrameLen > size {
		return nil, fmt.Errorf("%w: frame_len %d outside [%d, %d] (the input's size)", blosc2.ErrHeader, h.FrameLen, MinFrameLen, size)
	}
	if int64(h.HeaderLen) > h.FrameLen {
		return nil, fmt.Errorf("%w: header_len %d beyond frame_len %d", blosc2.ErrHeader, h.HeaderLen, h.FrameLen)
	}
	hdr, err := ReadFull(ra, 0, int64(h.HeaderLen), size, "frame header")
	if err != nil {
		return nil, err
	}
	if err := ParseMetalayers(&h, hdr); err != nil {
		return nil, err
	}
	tail, err := ReadFull(ra, h.FrameLen-TrailerMinLen, TrailerMinLen, size, "trailer")
	if err != nil {
		return nil, err
	}
	tl, err := TrailerLenAt(tail)
	if err != nil {
		return nil, err
	}
	if tl < TrailerMinLen || tl > h.FrameLen-FixedHeaderLen {
		return nil, fmt.Errorf("%w: trailer_len %d outside [%d, frame_len-%d = %d]", blosc2.ErrHeader, tl, TrailerMinLen, FixedHeaderLen, h.FrameLen-FixedHeaderLen)
	}
	l := &Layout{End: h.FrameLen, TrailerStart: h.FrameLen - tl}
	if h.Nbytes == 0 {
		l.TrailerStart = int64(h.HeaderLen)
	}
	if l.TrailerStart < int64(h.HeaderLen) {
		return nil, fmt.Errorf("%w: trailer at %d, inside the %d-byte header", blosc2.ErrHeader, l.TrailerStart, h.HeaderLen)
	}
	if h.Cbytes < 0 || h.Cbytes > l.TrailerStart-int64(h.HeaderLen) {
		return nil, fmt.Errorf("%w: cbytes %d: the index would start past the trailer at %d", blosc2.ErrHeader, h.Cbytes, l.TrailerStart)
	}
	var idx []byte
	if h.Nbytes > 0 {
		l.IndexStart = int64(h.HeaderLen) + h.Cbytes
		idx, err = ReadFull(ra, l.IndexStart, l.TrailerStart-l.IndexStart, size, "index chunk")
		if err != nil {
			return nil, err
		}
	}
	trailer, err := ReadFull(ra, l.TrailerStart, h.FrameLen-l.TrailerStart, size, "trailer")
	if err != nil {
		return nil, err
	}
	if err := l.setup(h, idx, trailer, limit); err != nil {
		return nil, err
	}
	if err := l.CheckEntries(h.Cbytes - blosc2.ExtendedHeaderLen); err != nil {
		return nil, err
	}
	return l, l.loadChecksums(trailer)
}

// LoadSparseIndex opens chunks.b2frame, the index file of a sparse frame:
// a frame whose chunks section is empty and whose index, at header_len,
// holds chunk file numbers (README_SFRAME_FORMAT.rst).
func LoadSparseIndex(b []byte, limit int) (*Layout, error) {
	h, err := ParseFixed(b)
	if err != nil {
		return nil, err
	}
	if h.FrameType != TypeSparse {
		return nil, fmt.Errorf("%w: %s has frame type %d, want %d (sparse)", blosc2.ErrHeader, SparseIndexName, h.FrameType, TypeSparse)
	}
	size := int64(len(b))
	if h.FrameLen < MinFrameLen || h.FrameLen > size {
		return nil, fmt.Errorf("%w: frame_len %d outside [%d, %d] (the file's size)", blosc2.ErrHeader, h.FrameLen, MinFrameLen, size)
	}
	if int64(h.HeaderLen) > h.FrameLen {
		return nil, fmt.Errorf("%w: header_len %d beyond frame_len %d", blosc2.ErrHeader, h.HeaderLen, h.FrameLen)
	}
	b = b[:h.FrameLen]
	if err := ParseMetalayers(&h, b); err != nil {
		return nil, err
	}
	tl, err := TrailerLenAt(b)
	if err != nil {
		return nil, err
	}
	if tl < TrailerMinLen || tl > h.FrameLen-FixedHeaderLen {
		return nil, fmt.Errorf("%w: trailer_len %d", blosc2.ErrHeader, tl)
	}
	l := &Layout{End: h.FrameLen, TrailerStart: h.FrameLen - tl}
	if h.Nbytes == 0 {
		l.TrailerStart = int64(h.HeaderLen)
	}
	if l.TrailerStart < int64(h.HeaderLen) {
		return nil, fmt.Errorf("%w: trailer at %d, inside the %d-byte header", blosc2.ErrHeader, l.TrailerStart, h.HeaderLen)
	}
	var idx []byte
	if h.Nbytes > 0 {
		l.IndexStart = int64(h.HeaderLen)
		idx = b[h.HeaderLen:l.TrailerStart]
	}
	if err := l.setup(h, idx, b[l.TrailerStart:], limit); err != nil {
		return nil, err
	}
	if err := l.CheckEntries(0xFFFFFFFF); err != nil {
		return nil, err
	}
	return l, l.loadChecksums(b[l.TrailerStart:])
}

// setup parses the index and the trailer and derives the chunk count as
// get_header_info does.
func (l *Layout) setup(h Header, idxChunk, trailer []byte, limit int) error {
	l.Header = h
	if h.Nbytes < 0 {
		return fmt.Errorf("%w: nbytes %d", blosc2.ErrHeader, h.Nbytes)
	}
	want := -1
	switch {
	case h.Nbytes == 0:
	case h.ChunkSize > 0:
		n := (h.Nbytes + int64(h.ChunkSize) - 1) / int64(h.ChunkSize)
		if n > MaxChunks {
			return fmt.Errorf("%w: nbytes %d and chunksize %d make %d chunks, at most %d", blosc2.ErrHeader, h.Nbytes, h.ChunkSize, n, MaxChunks)
		}
		want = int(n)
	case h.ChunkSize == 0:
	default:
		return fmt.Errorf("%w: chunksize %d with nbytes %d", blosc2.ErrHeader, h.ChunkSize, h.Nbytes)
	}
	if h.Nbytes > 0 {
		idx, err := DecodeIndex(idxChunk, want, limit)
		if err != nil {
			return err
		}
		l.Index = idx
		l.NChunks = idx.Len()
		if int64(l.NChunks) > h.Nbytes {
			return fmt.Errorf("%w: %d chunks cannot hold nbytes %d", blosc2.ErrCorrupt, l.NChunks, h.Nbytes)
		}
	}
	vl, err := ParseTrailer(trailer)
	if err != nil {
		return err
	}
	l.VL = vl
	return nil
}

// CheckEntries validates every index entry: stored ones must not exceed
// limit (validate_offsets_chunk's cbytes-32 for contiguous frames; a
// negative limit checks nothing), special ones must name a kind.
func (l *Layout) CheckEntries(limit int64) error {
	n := l.NChunks
	if l.Index.Repeated() {
		n = min(n, 1)
	}
	for i := range n {
		e := l.Index.At(i)
		if e < 0 {
			if EntryKind(e) == blosc2.SpecialNone {
				return fmt.Errorf("%w: index entry %d (%#x) is negative but names no special kind", blosc2.ErrCorrupt, i, uint64(e))
			}
			continue
		}
		if limit >= 0 && e > limit {
			return fmt.Errorf("%w: index entry %d: chunk at %d, past the chunks section (limit %d)", blosc2.ErrCorrupt, i, e, limit)
		}
	}
	return nil
}

// loadUnpatched reads a complete frame whose header sizes were never
// patched: its chunk headers are walked from header_len (the Scanner,
// which reads 32 bytes per chunk), the index is the chunk a trailer
// follows, and the sizes come from the chunks. The frame ends with that
// trailer; what follows is not read.
func loadUnpatched(ra io.ReaderAt, size int64, limit int) (*Layout, error) {
	sc := NewScannerAt(ra, size, ScanOptions{Single: true, SkipChunks: true})
	hit, err := sc.Next(nil)
	if err != nil {
		return nil, err
	}
	h := *hit.Header
	l := &Layout{Unpatched: true}
	nb := map[int64]int32{} // chunk nbytes by position
	sizes := NewSizes()
	var idx, trailer []byte
	for trailer == nil {
		it, err := sc.Next(nil)
		if err != nil {
			if errors.Is(err, blosc2.ErrTruncated) {
				err = fmt.Errorf("unpatched frame without a trailer (did its writer die? recover it): %w", err)
			}
			return nil, err
		}
		switch it.Kind {
		case ItemChunk:
			if len(nb) == 0 {
				sizes.VLBlocks = it.Prefix.VLBlocks
			}
			nb[it.Pos-int64(h.HeaderLen)] = int32(it.Prefix.Nbytes)
		case ItemIndex:
			idx, l.IndexStart = it.Data, it.Pos
		case ItemTrailer:
			trailer, l.TrailerStart = it.Data, it.Pos
		}
	}
	l.End = sc.Offset()
	h.Cbytes = 0
	if idx != nil {
		h.Cbytes = l.IndexStart - int64(h.HeaderLen)
		if l.Index, err = DecodeIndex(idx, -1, limit); err != nil {
			return nil, err
		}
		l.NChunks = l.Index.Len()
	}
	if l.VL, err = ParseTrailer(trailer); err != nil {
		return nil, err
	}
	if idx != nil {
		if err := sizes.AddIndexed(&l.Index, nb, h.ChunkSize); err != nil {
			return nil, err
		}
	}
	h.FrameLen = l.End
	h.Nbytes = sizes.Nbytes
	h.ChunkSize = sizes.ChunkSize
	h.GeneralFlags = sizes.GeneralFlags()
	h.HasVLMeta = len(l.VL) > 0
	l.Header = h
	if err := l.CheckEntries(h.Cbytes - blosc2.ExtendedHeaderLen); err != nil {
		return nil, err
	}
	return l, l.loadChecksums(trailer)
}

// Span is where one frame of a concatenation lies in its input.
type Span struct {
	Offset, Len int64
}

// Spans locates the contiguous frames concatenated in the size bytes of
// ra by hopping from header to header: a patched frame is stepped over by
// its frame_len, an unpatched one by walking its chunk headers. It reads
// neither chunk contents nor the frames' indexes. A frame that is not
// whole, or bytes after the last frame that start none, are an error,
// returned with the frames found whole before them.
func Spans(ra io.ReaderAt, size int64) ([]Span, error) {
	sc := NewScannerAt(ra, size, ScanOptions{SkipChunks: true})
	var spans []Span
	for {
		it, err := sc.Next(nil)
		if err == io.EOF {
			return spans, nil
		}
		if err == nil {
			err = sc.SkipFrame()
		}
		if err != nil {
			return spans, err
		}
		spans = append(spans, Span{Offset: it.FrameStart, Len: sc.Offset() - it.FrameStart})
	}
}
