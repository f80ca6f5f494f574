package framereader

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
)

// StreamReader reads a contiguous frame front to back from a plain
// io.Reader, without seeking, and yields its compressed chunks in order
// with Next, holding one chunk at a time (plus 8 bytes per chunk to check
// the index at the end).
//
// The index that says where each chunk belongs comes last, so chunks are
// yielded in the order they are stored, and the index is checked against
// that order at the end: chunks, like a gzip stream's data, are tentative
// until Next returns io.EOF. Every frame written by appending chunks
// (C-Blosc2's and framewriter's, also after framewriter.Append) is in
// order. What cannot be read in one pass is reported at the end as an
// error wrapping blosc2.ErrUnsupported: zero/NaN/uninit chunks that
// C-Blosc2's layout records only in the index, between stored chunks (such
// chunks after the last stored one are fine: they are yielded at the end),
// and frames whose chunks were inserted, updated or reordered. Read those
// with Reader over an io.ReaderAt.
//
// Frames with unpatched headers (written to a pipe by framewriter) are
// read the same way: their end is the end of their trailer.
type StreamReader struct {
	r       *bufio.Reader
	h       frame.Header
	patched bool
	pos     int64 // bytes consumed from the frame start
	end     int64 // end of the chunks section (patched frames), else -1
	dp      blosc2.DParams

	held    []byte // last chunk read: emitted once we know it is no index
	heldPos int64
	emitted []int64 // chunks-section offsets of the chunks yielded
	nbytes  int64   // their total uncompressed size
	queue   [][]byte
	done    bool
	err     error
	vl      []frame.VLMeta
	nchunks int
}

// NewStreamReader reads the frame header from r. r is read through a
// bufio.Reader (r itself when it is one), so bytes after the frame may be
// buffered: pass a *bufio.Reader to go on reading after the frame.
func NewStreamReader(r io.Reader, opts ...Option) (*StreamReader, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReader(r)
	}
	s := &StreamReader{r: br, dp: o.dp, end: -1}
	fixed := make([]byte, frame.FixedHeaderLen)
	if err := s.readFull(fixed, "frame header"); err != nil {
		return nil, err
	}
	if f := Detect(fixed, -1); f != Contiguous {
		if f == Sparse {
			return nil, fmt.Errorf("%w: the index file of a sparse frame cannot be streamed", blosc2.ErrInvalidOption)
		}
		return nil, unknownFormat(f, fixed)
	}
	h, err := frame.ParseFixed(fixed)
	if err != nil {
		return nil, err
	}
	hdr, err := s.readGrowing(fixed, int64(h.HeaderLen-frame.FixedHeaderLen), "frame header")
	if err != nil {
		return nil, err
	}
	if err := frame.ParseMetalayers(&h, hdr); err != nil {
		return nil, err
	}
	s.h = h
	s.patched = !h.Unpatched()
	if s.patched {
		if h.Cbytes < 0 || h.Nbytes < 0 || h.FrameLen < int64(h.HeaderLen)+frame.EmptyTrailerLen || h.Cbytes > h.FrameLen-int64(h.HeaderLen) {
			return nil, fmt.Errorf("%w: frame_len %d, cbytes %d, header_len %d are inconsistent", blosc2.ErrHeader, h.FrameLen, h.Cbytes, h.HeaderLen)
		}
		s.end = int64(h.HeaderLen) + h.Cbytes
	}
	return s, nil
}

// readFull reads exactly len(p) bytes (small, fixed-size reads only).
func (s *StreamReader) readFull(p []byte, what string) error {
	n, err := io.ReadFull(s.r, p)
	s.pos += int64(n)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%w: %s: stream ends at frame offset %d", blosc2.ErrTruncated, what, s.pos)
		}
		return err
	}
	return nil
}

// readGrowing appends n bytes read from the stream to prefix, growing the
// buffer as data arrives so that a corrupt length cannot force a large
// allocation ahead of the data.
func (s *StreamReader) readGrowing(prefix []byte, n int64, what string) ([]byte, error) {
	buf := bytes.NewBuffer(prefix)
	m, err := io.CopyN(buf, s.r, n)
	s.pos += m
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%w: %s: stream ends at frame offset %d", blosc2.ErrTruncated, what, s.pos)
		}
		return nil, err
	}
	return buf.Bytes(), nil
}

// Info returns the frame header as read. For a frame with an unpatched
// header the sizes are only known at io.EOF (see Nbytes).
func (s *StreamReader) Info() Info {
	r := Reader{format: Contiguous, h: s.h, unpatched: !s.patched}
	return r.Info()
}

// Metalayers returns the fixed metalayers of the header.
func (s *StreamReader) Metalayers() []Metalayer {
	r := Reader{h: s.h}
	return r.Metalayers()
}

// Metalayer returns the content of the named metalayer.
func (s *StreamReader) Metalayer(name string) ([]byte, bool) {
	r := Reader{h: s.h}
	return r.Metalayer(name)
}

// VLMetalayerNames returns the vlmetalayer names; they are in the trailer,
// so only after Next returned io.EOF.
func (s *StreamReader) VLMetalayerNames() []string {
	r := Reader{vl: s.vl}
	return r.VLMetalayerNames()
}

// VLMetalayer returns the decompressed content of the named vlmetalayer
// (after io.EOF).
func (s *StreamReader) VLMetalayer(name string) ([]byte, error) {
	if !s.done {
		return nil, fmt.Errorf("%w: vlmetalayers are in the trailer, read to io.EOF first", blosc2.ErrInvalidOption)
	}
	r := Reader{vl: s.vl, dp: s.dp}
	return r.VLMetalayer(name)
}

// NumChunks is the number of chunks yielded so far (all of them at io.EOF).
func (s *StreamReader) NumChunks() int { return s.nchunks }

// Nbytes is the uncompressed size of the chunks yielded so far.
func (s *StreamReader) Nbytes() int64 { return s.nbytes }

// Next returns the next compressed chunk, in order, or io.EOF after the
// last one once the index and the trailer have been read and checked. The
// chunk is the caller's. A special chunk recorded in the index after the
// last stored one is yielded as the 32-byte chunk C-Blosc2 synthesizes.
func (s *StreamReader) Next() ([]byte, error) {
	for {
		if len(s.queue) > 0 {
			c := s.queue[0]
			s.queue[0] = nil
			s.queue = s.queue[1:]
			s.nchunks++
			if h, err := blosc2.ParseHeader(c); err == nil {
				s.nbytes += int64(h.Nbytes)
			}
			return c, nil
		}
		if s.err != nil {
			return nil, s.err
		}
		if s.done {
			return nil, io.EOF
		}
		s.err = s.step()
	}
}

// release moves the held chunk to the output: something other than a
// trailer follows it, so it is no index.
func (s *StreamReader) release() {
	if s.held != nil {
		s.emitted = append(s.emitted, s.heldPos-int64(s.h.HeaderLen))
		s.queue = append(s.queue, s.held)
		s.held = nil
	}
}

// step reads the next item of the frame: a chunk, or (at the end of the
// chunks section) the index and the trailer.
func (s *StreamReader) step() error {
	if s.patched && s.pos == s.end {
		s.release()
		var idx []byte
		if s.h.Nbytes > 0 {
			c, err := s.readChunk(s.h.FrameLen - s.pos)
			if err != nil {
				return fmt.Errorf("index chunk: %w", err)
			}
			idx = c
		}
		t, err := frame.ReadTrailer(s.r, s.h.FrameLen-s.pos)
		s.pos += int64(len(t))
		if err != nil {
			return err
		}
		if s.pos != s.h.FrameLen {
			return fmt.Errorf("%w: trailer ends at %d, frame_len says %d", blosc2.ErrCorrupt, s.pos, s.h.FrameLen)
		}
		return s.finish(idx, t)
	}
	b, err := s.r.Peek(1)
	if err != nil {
		return fmt.Errorf("%w: stream ends at frame offset %d, before the trailer", blosc2.ErrTruncated, s.pos)
	}
	if b[0] == 0x94 {
		// A trailer: the chunk before it was an index.
		limit := int64(-1)
		if s.patched {
			limit = s.end - s.pos
		}
		t, err := frame.ReadTrailer(s.r, limit)
		s.pos += int64(len(t))
		if err != nil {
			return err
		}
		if !s.patched {
			held := s.held
			s.held = nil
			return s.finish(held, t)
		}
		// A stale index and trailer inside the chunks section, left by an
		// append (framewriter.Append writes after the old frame's end).
		s.held = nil
		return nil
	}
	limit := int64(1<<31 - 1)
	if s.patched {
		limit = s.end - s.pos
	}
	at := s.pos
	c, err := s.readChunk(limit)
	if err != nil {
		return err
	}
	s.release()
	s.held, s.heldPos = c, at
	return nil
}

// exactAlloc is the largest chunk readChunk allocates at once from its
// declared size.
const exactAlloc = 8 << 20

// readChunk reads one chunk of at most limit bytes, growing its buffer as
// data arrives so a corrupt size cannot force a large allocation.
func (s *StreamReader) readChunk(limit int64) ([]byte, error) {
	var hb [blosc2.MinHeaderLen]byte
	at := s.pos
	if err := s.readFull(hb[:], "chunk header"); err != nil {
		return nil, err
	}
	cb := int64(int32(binary.LittleEndian.Uint32(hb[12:])))
	if cb < blosc2.MinHeaderLen || cb > limit {
		return nil, fmt.Errorf("%w: chunk at frame offset %d declares %d bytes (at most %d fit)", blosc2.ErrCorrupt, at, cb, limit)
	}
	// Chunks up to exactAlloc bytes get a buffer of exactly their size (no
	// garbage, no slack: the stream Reader's memory bound counts on it);
	// larger declared sizes grow with the data that actually arrives.
	c := make([]byte, blosc2.MinHeaderLen, min(cb, exactAlloc))
	copy(c, hb[:])
	var n int64
	var err error
	for int64(len(c)) < cb && err == nil {
		if len(c) == cap(c) {
			c = slices.Grow(c, int(min(cb, 2*int64(cap(c)))-int64(len(c))))
		}
		var k int
		k, err = io.ReadFull(s.r, c[len(c):min(int64(cap(c)), cb)])
		c = c[:len(c)+k]
		n += int64(k)
	}
	s.pos += n
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: chunk at frame offset %d: %d of %d bytes", blosc2.ErrTruncated, at, n+blosc2.MinHeaderLen, cb)
		}
		return nil, err
	}
	if _, err := blosc2.ParseHeader(c); err != nil {
		return nil, fmt.Errorf("chunk at frame offset %d: %w", at, err)
	}
	return c, nil
}

// finish checks the index against the chunks yielded and queues the
// special chunks that follow the last stored one.
func (s *StreamReader) finish(idxChunk, trailer []byte) error {
	vl, err := frame.ParseTrailer(trailer)
	if err != nil {
		return err
	}
	s.vl = vl
	s.done = true
	if idxChunk == nil {
		if len(s.emitted) > 0 {
			return fmt.Errorf("%w: %d chunks but no index", blosc2.ErrCorrupt, len(s.emitted))
		}
		return nil
	}
	want := -1
	if s.patched && s.h.ChunkSize > 0 {
		want = int((s.h.Nbytes + int64(s.h.ChunkSize) - 1) / int64(s.h.ChunkSize))
	}
	idx, err := frame.DecodeIndex(idxChunk, want)
	if err != nil {
		return err
	}
	j := 0
	var specials []int
	for i := range idx.Len() {
		e := idx.At(i)
		if e < 0 {
			specials = append(specials, i)
			continue
		}
		if len(specials) > 0 {
			return fmt.Errorf("%w: chunk %d is recorded only in the index, before stored chunk %d: read this frame with a Reader", blosc2.ErrUnsupported, specials[0], i)
		}
		if j >= len(s.emitted) || s.emitted[j] != e {
			return fmt.Errorf("%w: index entry %d (offset %d) is not the next stored chunk: the frame is not in append order; read it with a Reader", blosc2.ErrUnsupported, i, e)
		}
		j++
	}
	if j != len(s.emitted) {
		return fmt.Errorf("%w: %d stored chunks, the index references %d", blosc2.ErrCorrupt, len(s.emitted), j)
	}
	if len(specials) == 0 {
		return s.checkTotal(0)
	}
	var rest int64
	if s.patched {
		rest = s.h.Nbytes - s.nbytes
		for _, c := range s.queue {
			h, _ := blosc2.ParseHeader(c)
			rest -= int64(h.Nbytes)
		}
	}
	cs := int64(s.h.ChunkSize)
	for k, i := range specials {
		var n int64
		switch {
		case s.patched && k == len(specials)-1:
			n = rest
		case cs > 0:
			n = cs
		default:
			return fmt.Errorf("%w: special chunks %d… of a variable-size frame: their sizes are unknowable in one pass", blosc2.ErrUnsupported, i)
		}
		rest -= n
		if n <= 0 || n > blosc2.MaxBufferSize {
			return fmt.Errorf("%w: special chunk %d would hold %d bytes", blosc2.ErrCorrupt, i, n)
		}
		c, err := blosc2.AppendSpecial(nil, frame.EntryKind(idx.At(i)), int(n), int(s.h.TypeSize), int(s.h.BlockSize), nil)
		if err != nil {
			return fmt.Errorf("special chunk %d: %w", i, err)
		}
		s.queue = append(s.queue, c)
	}
	return nil
}

// checkTotal compares the uncompressed total with a patched header.
func (s *StreamReader) checkTotal(extra int64) error {
	if !s.patched {
		return nil
	}
	total := s.nbytes + extra
	for _, c := range s.queue {
		h, _ := blosc2.ParseHeader(c)
		total += int64(h.Nbytes)
	}
	if total != s.h.Nbytes {
		return fmt.Errorf("%w: chunks hold %d bytes, the header says nbytes %d", blosc2.ErrCorrupt, total, s.h.Nbytes)
	}
	return nil
}

// WriteTo decodes every remaining chunk in order and writes the data to w
// (io.WriterTo). Uninitialized chunks decode to zeros.
func (s *StreamReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	var buf []byte
	for {
		c, err := s.Next()
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
		buf, err = blosc2.DecompressWith(buf[:0], c, &s.dp)
		if err != nil {
			return total, fmt.Errorf("chunk %d: %w", s.nchunks-1, err)
		}
		n, err := w.Write(buf)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
}
