package frame

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/blosc2go/blosc2"
)

// ItemKind says what a Scanner found.
type ItemKind uint8

// The parts of a contiguous frame, in the order they are stored.
const (
	ItemHeader  ItemKind = iota + 1 // a frame's header; a new frame starts
	ItemChunk                       // a data chunk
	ItemIndex                       // the chunk of chunk offsets before a trailer
	ItemTrailer                     // the trailer; the frame ends with it (unless Stale)
)

var itemNames = [...]string{"", "frame header", "chunk", "index chunk", "trailer"}

func (k ItemKind) String() string { return itemNames[k] }

// Item is one part of a frame found by a Scanner.
type Item struct {
	Kind ItemKind
	// Frame is the number of the frame in the input, from 0; FrameStart
	// the input offset of its first byte.
	Frame      int
	FrameStart int64
	// Pos is the item's offset inside its frame; Len its length.
	Pos, Len int64
	// Data is the item's bytes; nil for chunks and indexes when the
	// Scanner skips them (ScanOptions.SkipChunks).
	Data []byte
	// Prefix is what a chunk or an index declares in its header.
	Prefix blosc2.Prefix
	// Header is the frame header with its metalayers (ItemHeader).
	Header *Header
	// Stale marks an index or a trailer inside a patched frame's chunks
	// section: what the frame ended with before an append wrote past it.
	Stale bool
	// CRC is the checksum of a chunk's Data (Scanner.SumChunks).
	CRC uint32
}

// ScanOptions configures a Scanner.
type ScanOptions struct {
	// Single stops after the first frame, leaving the rest of the input
	// unread (gzip's Multistream(false)); by default every frame of a
	// concatenation is scanned, and bytes after a frame that do not start
	// another are an error.
	Single bool
	// SkipChunks steps over chunk contents without returning them (from an
	// io.ReaderAt they are not even read). Index chunks are still read.
	SkipChunks bool
	// Salvage walks one frame whose writer may have died: the header's
	// sizes are ignored, trailers do not end the frame, and a chunk is
	// still yielded when what follows it is unreadable (the error comes
	// with the next call).
	Salvage bool
}

// Scanner walks contiguous frames front to back, hopping from chunk header
// to chunk header, and yields their parts with their positions: the one
// walker of frame layouts (a frame's chunks, the index that is the last
// chunk before the trailer, stale indexes left by appends, unpatched
// headers, concatenated frames).
//
// The index of a frame whose header was never patched is recognised by
// what follows it, a trailer, so the Scanner reads the first byte after
// each chunk before yielding it: over a socket, a chunk is yielded once
// the next item has started to arrive.
type Scanner struct {
	// SumChunks makes the Scanner compute each data chunk's checksum
	// (Item.CRC) while it reads it, a piece at a time while the piece is
	// in the cache: a third of the cost of a pass over a chunk read whole.
	SumChunks bool

	src  scanSource
	opts ScanOptions

	pos     int64 // input offset of the next byte
	frame   int   // number of the current (or last) frame; -1 before the first
	start   int64 // input offset of the current frame
	h       Header
	inFrame bool
	patched bool  // the current frame's header sizes are to be trusted
	end     int64 // input offset of the end of its chunks section (patched)
	hasIdx  bool  // the index was yielded: the trailer comes next
	err     error // reported by the next call
}

// NewScanner scans r from its current position. A *bufio.Reader is used
// as it is (bytes after a single frame then stay in it); an io.ReaderAt
// with a known size is better served by NewScannerAt.
func NewScanner(r io.Reader, opts ScanOptions) *Scanner {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	return &Scanner{src: &bufSource{br: br}, opts: opts, frame: -1}
}

// NewScannerAt scans the size bytes of ra from offset 0. Chunks skipped
// (SkipChunks) are not read, so locating the frames of a file reads a few
// bytes per chunk of unpatched frames and nothing of patched ones but
// their headers (SkipFrame).
func NewScannerAt(ra io.ReaderAt, size int64, opts ScanOptions) *Scanner {
	return &Scanner{src: &atSource{ra: ra, size: size}, opts: opts, frame: -1}
}

// Offset is the input offset of the next byte the Scanner reads.
func (s *Scanner) Offset() int64 { return s.pos }

// where names the position of an error.
func (s *Scanner) where(pos int64) string {
	return fmt.Sprintf("frame %d (input offset %d), frame offset %d", s.frame, s.start, pos-s.start)
}

// Next returns the next item, or io.EOF at the end of the input (after the
// first frame with ScanOptions.Single). reuse is a buffer the caller is
// done with, which may receive the next chunk.
func (s *Scanner) Next(reuse []byte) (Item, error) {
	if s.err != nil {
		return Item{}, s.err
	}
	it, err := s.next(reuse)
	if err != nil && err != io.EOF {
		s.err = err
	}
	return it, err
}

func (s *Scanner) next(reuse []byte) (Item, error) {
	if !s.inFrame {
		return s.nextFrame()
	}
	if s.hasIdx {
		return s.trailer(false)
	}
	if s.patched && s.pos == s.end {
		if s.h.Nbytes > 0 {
			return s.chunk(reuse, s.start+s.h.FrameLen-s.pos, ItemIndex)
		}
		return s.trailer(false)
	}
	b, err := s.src.peek(1)
	if err != nil {
		return Item{}, s.truncated(err, "before the trailer")
	}
	if b[0] == trailerMarker {
		// A trailer right after the header (an empty frame) or, inside a
		// patched frame's chunks section, the stale trailer of an append.
		return s.trailer(s.patched)
	}
	limit := s.src.left()
	if s.patched {
		limit = s.end - s.pos
	}
	return s.chunk(reuse, limit, ItemChunk)
}

// trailerMarker is the first byte of a trailer (a 4-element msgpack
// array); a chunk starts with its version, 1 to 6, a frame header with
// 0x9E.
const trailerMarker = 0x94

// nextFrame reads the header of the next frame, or reports the end.
func (s *Scanner) nextFrame() (Item, error) {
	if s.frame >= 0 && s.opts.Single {
		return Item{}, io.EOF
	}
	b, err := s.src.peek(FixedHeaderLen)
	if len(b) == 0 && errors.Is(err, io.EOF) && s.frame >= 0 {
		return Item{}, io.EOF
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return Item{}, fmt.Errorf("input offset %d, reading a frame header: %w", s.pos, err)
	}
	if s.frame >= 0 && !IsFrame(b) {
		return Item{}, fmt.Errorf("%w: the bytes after frame %d, at input offset %d, are not a frame (they start % x)",
			blosc2.ErrCorrupt, s.frame, s.pos, b[:min(len(b), 8)])
	}
	s.frame++
	s.start = s.pos
	if err != nil && len(b) < FixedHeaderLen {
		return Item{}, s.truncated(err, "in the frame header")
	}
	if Detect(b, -1) != KindContiguous {
		if Detect(b, -1) == KindSparseIndex {
			return Item{}, fmt.Errorf("%w: %s: the index file of a sparse frame cannot be scanned; open its directory", blosc2.ErrInvalidOption, s.where(s.pos))
		}
		return Item{}, fmt.Errorf("%w: %s: not a contiguous Blosc2 frame (starts % x)", blosc2.ErrHeader, s.where(s.pos), b[:min(len(b), 10)])
	}
	h, err := ParseFixed(b)
	if err != nil {
		return Item{}, fmt.Errorf("%s: %w", s.where(s.pos), err)
	}
	hdr, _, err := s.src.read(nil, int64(h.HeaderLen), false)
	if err != nil {
		return Item{}, s.truncated(err, fmt.Sprintf("in the %d-byte frame header", h.HeaderLen))
	}
	s.pos += int64(h.HeaderLen)
	if err := ParseMetalayers(&h, hdr); err != nil {
		return Item{}, fmt.Errorf("%s: %w", s.where(s.start), err)
	}
	s.h = h
	s.inFrame, s.hasIdx = true, false
	s.patched = !h.Unpatched() && !s.opts.Salvage
	if s.patched {
		if h.Nbytes < 0 || h.FrameLen < int64(h.HeaderLen)+EmptyTrailerLen || h.Cbytes < 0 || h.Cbytes > h.FrameLen-int64(h.HeaderLen) {
			return Item{}, fmt.Errorf("%w: %s: frame_len %d, cbytes %d, header_len %d are inconsistent", blosc2.ErrHeader, s.where(s.start), h.FrameLen, h.Cbytes, h.HeaderLen)
		}
		if left := s.src.left(); left >= 0 && h.FrameLen-int64(h.HeaderLen) > left {
			return Item{}, fmt.Errorf("%w: %s: frame_len %d, the input has %d bytes from the frame start", blosc2.ErrTruncated, s.where(s.start), h.FrameLen, left+int64(h.HeaderLen))
		}
		s.end = s.start + int64(h.HeaderLen) + h.Cbytes
	}
	hc := h
	return Item{Kind: ItemHeader, Frame: s.frame, FrameStart: s.start, Len: int64(h.HeaderLen), Data: hdr, Header: &hc}, nil
}

// SkipFrame steps over the rest of the current frame: at once for a
// patched frame, by walking its chunk headers otherwise. The next call of
// Next reads the following frame's header.
func (s *Scanner) SkipFrame() error {
	if s.err != nil {
		return s.err
	}
	if !s.inFrame {
		return nil
	}
	if s.patched {
		n := s.start + s.h.FrameLen - s.pos
		if err := s.src.skip(n); err != nil {
			s.err = s.truncated(err, "before the frame's end")
			return s.err
		}
		s.pos += n
		s.inFrame = false
		return nil
	}
	skip := s.opts.SkipChunks
	s.opts.SkipChunks = true
	defer func() { s.opts.SkipChunks = skip }()
	for s.inFrame {
		if _, err := s.Next(nil); err != nil {
			return err
		}
	}
	return nil
}

// chunk reads the chunk at the current position (at most limit bytes)
// and classifies it by what follows.
func (s *Scanner) chunk(reuse []byte, limit int64, kind ItemKind) (Item, error) {
	at := s.pos
	hb, err := s.src.peek(blosc2.ExtendedHeaderLen)
	if len(hb) < blosc2.MinHeaderLen {
		return Item{}, s.truncated(err, "in a chunk header")
	}
	p, err := blosc2.ParsePrefix(hb)
	if err != nil {
		return Item{}, fmt.Errorf("%s: chunk: %w", s.where(at), err)
	}
	if int64(p.Cbytes) > limit {
		return Item{}, fmt.Errorf("%w: %s: chunk declares %d bytes, at most %d fit", blosc2.ErrCorrupt, s.where(at), p.Cbytes, limit)
	}
	it := Item{Kind: kind, Frame: s.frame, FrameStart: s.start, Pos: at - s.start, Len: int64(p.Cbytes), Prefix: p}
	// Chunks are skipped unread only where they can be read again should
	// they turn out to be an index (an io.ReaderAt).
	at2, rereadable := s.src.(*atSource)
	skip := kind == ItemChunk && s.opts.SkipChunks && rereadable
	if skip {
		err = s.src.skip(int64(p.Cbytes))
	} else {
		it.Data, it.CRC, err = s.src.read(reuse[:0], int64(p.Cbytes), s.SumChunks && kind == ItemChunk)
	}
	if err != nil {
		return Item{}, s.truncated(err, fmt.Sprintf("in the %d-byte chunk at frame offset %d", p.Cbytes, at-s.start))
	}
	s.pos += int64(p.Cbytes)
	if kind == ItemIndex {
		s.hasIdx = true
		return it, nil
	}
	// An unpatched frame's index, or a stale one, is the chunk a trailer
	// follows; in a patched frame the index is at the section end.
	if !s.patched || s.pos < s.end {
		b, err := s.src.peek(1)
		if err != nil {
			err = s.truncated(err, "before the trailer")
			if !s.opts.Salvage {
				return Item{}, err
			}
			s.err = err
		} else if b[0] == trailerMarker {
			it.Kind = ItemIndex
			it.Stale = s.patched
			s.hasIdx = !s.patched && !s.opts.Salvage
		}
	}
	switch {
	case it.Kind == ItemIndex && skip:
		if it.Data, err = frameReadAt(at2, at, int64(p.Cbytes)); err != nil {
			return Item{}, fmt.Errorf("%s: index chunk: %w", s.where(at), err)
		}
	case it.Kind == ItemChunk && s.opts.SkipChunks:
		it.Data = nil
	}
	return it, nil
}

// frameReadAt reads n bytes at input offset off of a.
func frameReadAt(a *atSource, off, n int64) ([]byte, error) {
	return ReadFull(a.ra, off, n, a.size, "chunk")
}

// trailer reads a trailer; unless stale or salvaging, the frame ends.
func (s *Scanner) trailer(stale bool) (Item, error) {
	at := s.pos
	limit := int64(-1) // the input's end is the limit: truncation
	if s.patched {
		limit = s.start + s.h.FrameLen - s.pos
		if stale {
			limit = s.end - s.pos
		}
	}
	t, err := ReadTrailer(s.src.reader(), limit)
	s.src.consumed(int64(len(t)))
	if err != nil {
		return Item{}, fmt.Errorf("%s: %w", s.where(at), err)
	}
	s.pos += int64(len(t))
	s.hasIdx = false
	it := Item{Kind: ItemTrailer, Frame: s.frame, FrameStart: s.start, Pos: at - s.start, Len: int64(len(t)), Data: t, Stale: stale}
	if stale || s.opts.Salvage {
		return it, nil
	}
	if s.patched && s.pos != s.start+s.h.FrameLen {
		return Item{}, fmt.Errorf("%w: %s: trailer ends at frame offset %d, frame_len says %d", blosc2.ErrCorrupt, s.where(at), s.pos-s.start, s.h.FrameLen)
	}
	s.inFrame = false
	return it, nil
}

// truncated wraps an input error met at the current position.
func (s *Scanner) truncated(err error, what string) error {
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: %s: input ends %s", blosc2.ErrTruncated, s.where(s.pos), what)
	}
	return fmt.Errorf("%s: %w", s.where(s.pos), err)
}

// scanSource is the input of a Scanner.
type scanSource interface {
	// peek returns the next n bytes without consuming them (fewer, with
	// an error, at the end of the input).
	peek(n int) ([]byte, error)
	// read consumes n bytes, appending them to dst, and returns their
	// checksum if sum.
	read(dst []byte, n int64, sum bool) ([]byte, uint32, error)
	// skip consumes n bytes.
	skip(n int64) error
	// left is how many bytes remain, or a large number when unknown.
	left() int64
	// reader reads from the current position; consumed then reports how
	// many bytes were taken through it.
	reader() io.Reader
	consumed(n int64)
}

// bufSource reads a stream.
type bufSource struct{ br *bufio.Reader }

func (b *bufSource) peek(n int) ([]byte, error) { return b.br.Peek(n) }

// exactAlloc is the largest buffer read allocates at once from a declared
// size; larger declared sizes grow with the data that actually arrives, so
// a corrupt size cannot force a large allocation.
const exactAlloc = 8 << 20

func (b *bufSource) read(dst []byte, n int64, sum bool) ([]byte, uint32, error) {
	var crc uint32
	if int64(cap(dst)) < n {
		// Up to exactAlloc bytes get a buffer of exactly their size (no
		// slack: the stream Reader's memory bound counts on it); larger
		// ones grow as the data arrives.
		dst = make([]byte, 0, min(n, exactAlloc))
	}
	dst = dst[:0]
	for int64(len(dst)) < n {
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, int(min(n, 2*int64(cap(dst)))-int64(len(dst))))
		}
		end := min(int64(cap(dst)), n)
		if sum {
			end = min(end, int64(len(dst))+sumPiece)
		}
		k, err := io.ReadFull(b.br, dst[len(dst):end])
		if sum {
			crc = updateCRC(crc, dst[len(dst):len(dst)+k])
		}
		dst = dst[:len(dst)+k]
		if err != nil {
			return dst, crc, err
		}
	}
	return dst, crc, nil
}

func (b *bufSource) skip(n int64) error {
	_, err := io.CopyN(io.Discard, b.br, n)
	return err
}

func (b *bufSource) left() int64               { return 1<<31 - 1 }
func (b *bufSource) reader() io.Reader         { return b.br }
func (b *bufSource) consumed(int64)            {}
func (a *atSource) reader() io.Reader          { return io.NewSectionReader(a.ra, a.pos, a.left()) }
func (a *atSource) consumed(n int64)           { a.pos += n }
func (a *atSource) left() int64                { return a.size - a.pos }
func (a *atSource) peek(n int) ([]byte, error) { return a.readAt(a.buf[:0], int64(n), false) }

// atSource reads size bytes of an io.ReaderAt.
type atSource struct {
	ra        io.ReaderAt
	size, pos int64
	buf       []byte
}

// readAt reads up to n bytes at pos into dst (all of them or an error).
func (a *atSource) readAt(dst []byte, n int64, consume bool) ([]byte, error) {
	var err error
	if n > a.left() {
		n, err = a.left(), io.ErrUnexpectedEOF
		if n == 0 {
			err = io.EOF
		}
	}
	l := len(dst)
	dst = growBy(dst, int(n))
	if n > 0 {
		// An io.ReaderAt may report io.EOF along with the last byte.
		if k, rerr := a.ra.ReadAt(dst[l:], a.pos); k < int(n) {
			if rerr == nil || rerr == io.EOF {
				rerr = io.ErrUnexpectedEOF
			}
			return dst[:l], rerr
		}
	}
	if consume {
		a.pos += n
	} else {
		a.buf = dst
	}
	return dst, err
}

func (a *atSource) read(dst []byte, n int64, sum bool) ([]byte, uint32, error) {
	if n > a.left() {
		return dst, 0, io.ErrUnexpectedEOF
	}
	if !sum {
		out, err := a.readAt(dst, n, true)
		return out, 0, err
	}
	out, crc, err := ReadAppendSum(dst, a.ra, a.pos, n, a.size, "chunk")
	if err == nil {
		a.pos += n
	}
	return out, crc, err
}

func (a *atSource) skip(n int64) error {
	if n > a.left() {
		return io.ErrUnexpectedEOF
	}
	a.pos += n
	return nil
}
