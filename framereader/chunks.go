package framereader

import (
	"fmt"
	"io"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
)

// ChunkReader reads contiguous frames front to back from a plain
// io.Reader, without seeking, and yields their compressed chunks in order
// with Next, holding one chunk at a time (plus 8 bytes per chunk of the
// current frame to check its index at the end).
//
// Like gzip.Reader, it reads a concatenation of frames (cat a.b2frame
// b.b2frame, appends with >>) as one stream of chunks, patched and
// unpatched frames alike, unless WithMultistream(false) stops it after the
// first. Bytes after a frame that do not start another are an error that
// says where.
//
// A frame's index, which says where each chunk belongs, comes last, so
// chunks are yielded in the order they are stored and the index is
// checked against that order at the frame's end: chunks, like a gzip
// stream's data, are tentative until Next returns io.EOF. Every frame
// written by appending chunks (C-Blosc2's and framewriter's, also after
// framewriter.Append) is in order. What cannot be read in one pass is
// reported at the end of its frame as an error wrapping
// blosc2.ErrUnsupported: zero/NaN/uninit chunks that C-Blosc2's layout
// records only in the index, between stored chunks (such chunks after the
// last stored one are fine: they are yielded at the end), and frames whose
// chunks were inserted, updated or reordered. Read those with Reader over
// an io.ReaderAt.
type ChunkReader struct {
	sc *frame.Scanner
	dp blosc2.DParams
	// userDP is the caller's DParams; dp adds the block shape of the
	// frame being read (withGeometry).
	userDP blosc2.DParams
	frame  frame.Item // the header item of the current frame

	emitted []int64  // chunks-section offsets of the current frame's chunks
	crcs    []uint32 // and their checksums
	// sumCRCs: compute them, the header announcing vlmetalayers (our
	// checksum record is one; frames without any skip the work).
	sumCRCs bool
	fNbytes int64       // their total uncompressed size
	idx     []byte      // the current frame's index chunk, once read
	tail    specialTail // index-only chunks after the last stored one, made one at a time
	nbytes  int64       // uncompressed size of every chunk yielded
	// last is where the chunk last yielded lies: its number in its frame
	// and its frame offset (-1 for one the index implies).
	lastChunk int
	lastPos   int64
	nchunks   int
	vl        []frame.VLMeta // of the last frame read to its end
	done      bool
	err       error
}

// NewChunkReader reads the first frame header from r. r is read through
// a bufio.Reader (r itself when it is one), so with WithMultistream(false)
// bytes after the frame may be buffered: pass a *bufio.Reader to go on
// reading after the frame.
func NewChunkReader(r io.Reader, opts ...ReaderOption) (*ChunkReader, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	s := &ChunkReader{sc: frame.NewScanner(r, frame.ScanOptions{Single: o.single}), dp: o.dp, userDP: o.dp}
	it, err := s.sc.Next(nil)
	if err != nil {
		if err == io.EOF {
			err = fmt.Errorf("%w: empty input, no frame header", blosc2.ErrTruncated)
		}
		return nil, err
	}
	s.frame, s.sumCRCs = it, it.Header.HasVLMeta
	s.sc.SumChunks = s.sumCRCs
	return s, nil
}

// Frame is the number of the frame being read, from 0.
func (s *ChunkReader) Frame() int { return s.frame.Frame }

// FrameOffset is the input offset where the frame being read starts.
func (s *ChunkReader) FrameOffset() int64 { return s.frame.FrameStart }

// Info returns the header of the frame being read. For a frame with an
// unpatched header the sizes are only known at its end (see Nbytes).
func (s *ChunkReader) Info() Info {
	return infoOf(s.frame.Header, Contiguous, s.frame.Header.Unpatched())
}

// Geometry returns the block shape the chunks of the frame being read are
// decoded with: the caller's DParams.Geometry, else that of the frame's
// b2nd metalayer, else nil (see [Reader.Geometry]).
func (s *ChunkReader) Geometry() *blosc2.Geometry { return s.dp.Geometry }

// Metalayers returns the fixed metalayers of the frame being read.
func (s *ChunkReader) Metalayers() []Metalayer { return metalayersOf(s.frame.Header) }

// Metalayer returns the content of the named metalayer of the frame being
// read.
func (s *ChunkReader) Metalayer(name string) ([]byte, bool) {
	return s.frame.Header.Metalayer(name)
}

// VLMetalayerNames returns the vlmetalayer names of the last frame read to
// its end; they are in its trailer, so only after its last chunk.
func (s *ChunkReader) VLMetalayerNames() []string { return vlNames(s.vl) }

// VLMetalayer returns the decompressed content of the named vlmetalayer of
// the last frame read to its end (after io.EOF for a single frame).
func (s *ChunkReader) VLMetalayer(name string) ([]byte, error) {
	if s.vl == nil && !s.done {
		return nil, fmt.Errorf("%w: vlmetalayers are in the trailer, read to io.EOF first", blosc2.ErrInvalidOption)
	}
	return vlValue(s.vl, name, &s.dp)
}

// NumChunks is the number of chunks yielded so far, over every frame (all
// of them at io.EOF).
func (s *ChunkReader) NumChunks() int { return s.nchunks }

// Position says where the chunk Next returned last lies: the number of its
// frame, its number in that frame, and its frame offset (-1 for a special
// chunk the index records without storing it).
func (s *ChunkReader) Position() (frame, chunk int, offset int64) {
	return s.frame.Frame, s.lastChunk, s.lastPos
}

// Nbytes is the uncompressed size of the chunks yielded so far.
func (s *ChunkReader) Nbytes() int64 { return s.nbytes }

// Next returns the next compressed chunk, in order, or io.EOF after the
// last one once every frame's index and trailer have been read and
// checked. The chunk is the caller's. A special chunk recorded in the
// index after the last stored one is yielded as the 32-byte chunk
// C-Blosc2 synthesizes.
func (s *ChunkReader) Next() ([]byte, error) { return s.NextAppend(nil) }

// NextAppend is Next, reading the chunk into reuse's memory when it is
// large enough (reuse is the caller's buffer it is done with).
func (s *ChunkReader) NextAppend(reuse []byte) ([]byte, error) {
	c, _, err := s.next(reuse, false)
	return c, err
}

// NextRun is NextAppend for a caller that can repeat a chunk: it returns
// the next chunk and how many chunks in a row it stands for, more than one
// for a run of identical special chunks recorded only in the index (as
// blosc2_schunk_fill_special writes them by the million), all of which it
// moves past. Position then names the run's first chunk.
func (s *ChunkReader) NextRun(reuse []byte) ([]byte, int, error) {
	return s.next(reuse, true)
}

func (s *ChunkReader) next(reuse []byte, runs bool) ([]byte, int, error) {
	for {
		if s.tail.next < s.tail.end {
			first := s.tail.next
			c, err := s.tail.chunk(reuse)
			if err != nil {
				s.err = err
				return nil, 0, err
			}
			n := 1
			if runs {
				n += s.tail.skipRepeats()
			}
			s.count(c, n)
			s.lastChunk, s.lastPos = first, -1
			return c, n, nil
		}
		if s.err != nil {
			return nil, 0, s.err
		}
		if s.done {
			return nil, 0, io.EOF
		}
		c, err := s.step(reuse)
		if err != nil {
			s.err = err
			continue
		}
		if c != nil {
			s.count(c, 1)
			return c, 1, nil
		}
	}
}

// count adds n chunks like c to the totals.
func (s *ChunkReader) count(c []byte, n int) {
	s.nchunks += n
	if p, err := blosc2.ParsePrefix(c); err == nil {
		s.nbytes += int64(n) * int64(p.Nbytes)
		s.fNbytes += int64(n) * int64(p.Nbytes)
	}
}

// step reads the next item: it returns a data chunk, or nil after an item
// that yields none.
func (s *ChunkReader) step(reuse []byte) ([]byte, error) {
	it, err := s.sc.Next(reuse)
	if err == io.EOF {
		s.done = true
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	switch it.Kind {
	case frame.ItemHeader:
		s.frame = it
		s.dp = withGeometry(s.userDP, it.Header)
		s.emitted, s.crcs, s.fNbytes, s.idx = s.emitted[:0], s.crcs[:0], 0, nil
		s.sumCRCs = it.Header.HasVLMeta
		s.sc.SumChunks = s.sumCRCs
	case frame.ItemChunk:
		ch, err := blosc2.ParseHeader(it.Data)
		if err != nil {
			return nil, fmt.Errorf("frame %d, chunk %d at frame offset %d: %w", it.Frame, len(s.emitted), it.Pos, err)
		}
		// A patched header's chunk size bounds every chunk of the frame,
		// stale ones included: a chunk declaring more is damaged, and is
		// refused before its bytes go out rather than at the trailer.
		if h := s.frame.Header; !h.Unpatched() && h.ChunkSize > 0 && ch.Nbytes > int(h.ChunkSize) {
			return nil, fmt.Errorf("%w: frame %d, chunk %d at frame offset %d holds %d bytes, more than the frame's chunk size %d",
				blosc2.ErrCorrupt, it.Frame, len(s.emitted), it.Pos, ch.Nbytes, h.ChunkSize)
		}
		s.emitted = append(s.emitted, it.Pos-int64(s.frame.Header.HeaderLen))
		if s.sumCRCs {
			s.crcs = append(s.crcs, it.CRC)
		}
		s.lastChunk, s.lastPos = len(s.emitted)-1, it.Pos
		return it.Data, nil
	case frame.ItemIndex:
		if !it.Stale {
			s.idx = it.Data
		}
	case frame.ItemTrailer:
		if !it.Stale {
			if err := s.finish(it.Data); err != nil {
				return nil, fmt.Errorf("frame %d (input offset %d): %w", s.frame.Frame, s.frame.FrameStart, err)
			}
		}
	}
	return nil, nil
}

// specialTail yields the zero, NaN or uninitialized chunks that a frame's
// index records after its last stored chunk, one at a time: a frame of a
// few bytes may record hundreds of millions of them (C-Blosc2's
// blosc2_schunk_fill_special).
type specialTail struct {
	idx       frame.Index
	next, end int   // entries still to yield
	size      int64 // each one's uncompressed size
	last      int64 // the last one's
	typeSize  int
	blockSize int
}

// skipRepeats moves past the entries after the one chunk just made that
// make the same chunk, and returns how many.
func (t *specialTail) skipRepeats() int {
	i := t.next - 1
	if i == t.end-1 {
		return 0
	}
	e, j := t.idx.At(i), t.next
	if t.idx.Repeated() {
		j = t.end
	} else {
		for j < t.end && t.idx.At(j) == e {
			j++
		}
	}
	if j == t.end && t.last != t.size {
		j-- // the last one is shorter
	}
	k := j - t.next
	t.next = j
	return k
}

func (t *specialTail) chunk(reuse []byte) ([]byte, error) {
	i := t.next
	n := t.size
	if i == t.end-1 {
		n = t.last
	}
	t.next++
	c, err := blosc2.AppendSpecial(reuse[:0], frame.EntryKind(t.idx.At(i)), int(n), t.typeSize, t.blockSize, nil)
	if err != nil {
		return nil, fmt.Errorf("special chunk %d: %w", i, err)
	}
	return c, nil
}

// finish checks the frame's index against the chunks yielded and sets up
// the special chunks that follow the last stored one.
func (s *ChunkReader) finish(trailer []byte) error {
	h := s.frame.Header
	patched := !h.Unpatched()
	vl, err := frame.ParseTrailer(trailer)
	if err != nil {
		return err
	}
	s.vl = userVL(vl)
	if s.idx == nil {
		if len(s.emitted) > 0 {
			return fmt.Errorf("%w: %d chunks but no index", blosc2.ErrCorrupt, len(s.emitted))
		}
		sizes, err := s.verify(vl, trailer, frame.Index{})
		if err != nil {
			return err
		}
		return s.checkTotal(sizes)
	}
	want := -1
	if patched && h.ChunkSize > 0 {
		want = int((h.Nbytes + int64(h.ChunkSize) - 1) / int64(h.ChunkSize))
	}
	idx, err := frame.DecodeIndex(s.idx, want, s.dp.MaxMemory)
	if err != nil {
		return err
	}
	j := 0
	first := -1 // the first index-only chunk
	for i := range idx.Len() {
		e := idx.At(i)
		if e < 0 {
			if first < 0 {
				first = i
			}
			if idx.Repeated() {
				break // every entry is this one
			}
			continue
		}
		if first >= 0 {
			return fmt.Errorf("%w: chunk %d is recorded only in the index, before stored chunk %d: read this frame with a Reader", blosc2.ErrUnsupported, first, i)
		}
		if j >= len(s.emitted) || s.emitted[j] != e {
			return fmt.Errorf("%w: index entry %d (offset %d) is not the next stored chunk: the frame is not in append order; read it with a Reader", blosc2.ErrUnsupported, i, e)
		}
		j++
	}
	if j != len(s.emitted) {
		return fmt.Errorf("%w: %d stored chunks, the index references %d", blosc2.ErrCorrupt, len(s.emitted), j)
	}
	sizes, err := s.verify(vl, trailer, idx)
	if err != nil {
		return err
	}
	if first < 0 {
		return s.checkTotal(sizes)
	}
	// Every one holds the chunk size but the last, which holds what nbytes
	// leaves (when nbytes is known; else it has the chunk size too).
	count := int64(idx.Len() - first)
	cs := int64(sizes.ChunkSize)
	if cs <= 0 {
		return fmt.Errorf("%w: special chunks %d… of a variable-size frame: their sizes are unknowable in one pass", blosc2.ErrUnsupported, first)
	}
	last := cs
	if sizes.Nbytes >= 0 {
		last = sizes.Nbytes - s.fNbytes - (count-1)*cs
	}
	if last <= 0 || last > cs {
		return fmt.Errorf("%w: %d special chunks of %d bytes after %d bytes of stored ones cannot make nbytes %d", blosc2.ErrCorrupt, count, cs, s.fNbytes, sizes.Nbytes)
	}
	s.tail = specialTail{idx: idx, next: first, end: idx.Len(), size: cs, last: last, typeSize: int(h.TypeSize), blockSize: int(h.BlockSize)}
	return nil
}

// frameSizes are the frame's uncompressed total and chunk size, as far as
// they are known: Nbytes is -1 when neither the header (unpatched) nor a
// checksum record says it.
type frameSizes struct {
	Nbytes    int64
	ChunkSize int32
}

// verify checks the frame's chunks, read and yielded already, against its
// checksum record, when it has a current one: as gzip checks its CRC at
// the end of a member, before io.EOF. It returns the frame's sizes: the
// header's, or the record's where the header was not patched, so that a
// header that only looks unpatched (damaged) cannot make the caller guess
// them when the record knows them.
func (s *ChunkReader) verify(vl []frame.VLMeta, trailer []byte, idx frame.Index) (frameSizes, error) {
	sizes := frameSizes{Nbytes: s.frame.Header.Nbytes, ChunkSize: s.frame.Header.ChunkSize}
	if s.frame.Header.Unpatched() {
		sizes.Nbytes = -1
	}
	state, sums, err := frame.LoadChecksums(vl, trailer, idx.Len(), func(c *frame.Checksums) error {
		h := *s.frame.Header
		if h.Unpatched() {
			// Sizes not patched: only those the writer knew at the start.
			h.Nbytes, h.ChunkSize = c.Nbytes, c.ChunkSize
		}
		return c.CheckHeader(&h, idx.Len())
	})
	if err != nil || state != frame.ChecksumsValid {
		return sizes, err
	}
	sizes = frameSizes{Nbytes: sums.Nbytes, ChunkSize: sums.ChunkSize}
	if !s.sumCRCs {
		return sizes, fmt.Errorf("%w: the header says the frame has no vlmetalayers, but its trailer holds a checksum record", blosc2.ErrChecksum)
	}
	j := 0
	for i := range idx.Len() {
		e := idx.At(i)
		if e < 0 {
			if err := sums.Verify(i, e, nil); err != nil {
				return sizes, err
			}
			continue
		}
		if err := sums.VerifyCRC(i, s.crcs[j]); err != nil {
			return sizes, fmt.Errorf("%w (stored at frame offset %d)", err, e+int64(s.frame.Header.HeaderLen))
		}
		j++
	}
	return sizes, nil
}

// checkTotal compares the frame's uncompressed total with the one its
// patched header or checksum record gives (sizes, from verify).
func (s *ChunkReader) checkTotal(sizes frameSizes) error {
	if sizes.Nbytes < 0 || s.fNbytes == sizes.Nbytes {
		return nil
	}
	return fmt.Errorf("%w: chunks hold %d bytes, the frame says nbytes %d", blosc2.ErrCorrupt, s.fNbytes, sizes.Nbytes)
}

// WriteTo decodes every remaining chunk in order and writes the data to w
// (io.WriterTo). Uninitialized chunks decode to zeros.
func (s *ChunkReader) WriteTo(w io.Writer) (int64, error) {
	var total int64
	var buf, c []byte
	for {
		var err error
		c, err = s.NextAppend(c)
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
		buf, err = blosc2.Decompress(buf[:0], c, &s.dp)
		if err != nil {
			return total, fmt.Errorf("frame %d, chunk %d: %w", s.Frame(), s.nchunks-1, err)
		}
		n, err := w.Write(buf)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
}
