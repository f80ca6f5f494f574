package stream

import (
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
)

// chunkSource yields the chunks of a stream's frames in order, each a
// self-contained Blosc2 chunk (special entries of an index materialised as
// special chunks); io.EOF after the last. reuse is a chunk buffer the
// caller is done with, which the source may fill instead of allocating one.
type chunkSource interface {
	Next(reuse []byte) ([]byte, chunkPos, error)
}

// chunkPos is where a chunk comes from, for error messages, and how many
// chunks in a row it stands for.
type chunkPos struct {
	frame, chunk int
	offset       int64 // in its frame; -1 when it has none (implied by the index, a sparse frame's file)
	// run is the number of identical chunks from this one on that the
	// index implies (special chunks); 1 (or 0) for one chunk.
	run int
	// geom is the block shape of the chunk's frame (b2nd arrays), for
	// the codecs and filters that need it.
	geom *blosc2.Geometry
	// after is how many decoded bytes the stream holds past this chunk
	// (or its run), when the indexes say; -1 when unknown (a stream read
	// front to back).
	after int64
}

// wrap names the chunk in a decoding error.
func (p chunkPos) wrap(err error) error {
	if p.offset < 0 {
		return fmt.Errorf("frame %d, chunk %d: %w", p.frame, p.chunk, err)
	}
	return fmt.Errorf("frame %d, chunk %d at frame offset %d: %w", p.frame, p.chunk, p.offset, err)
}

// newSequentialSource reads frames front to back from a plain io.Reader.
func newSequentialSource(src io.Reader, o *readerOptions) (chunkSource, error) {
	cr, err := framereader.NewChunkReader(src, framereader.WithMaxMemory(o.maxMemory),
		framereader.WithMultistream(!o.single))
	if err != nil {
		return nil, err
	}
	return sequentialSource{cr}, nil
}

// sequentialSource yields the chunks of frames read front to back. A
// buffer to reuse receives a chunk only when it is large enough, so
// memory still follows the chunks that actually arrive.
type sequentialSource struct{ cr *framereader.ChunkReader }

func (s sequentialSource) Next(reuse []byte) ([]byte, chunkPos, error) {
	c, run, err := s.cr.NextRun(reuse)
	f, i, off := s.cr.Position()
	return c, chunkPos{f, i, off, run, s.cr.Geometry(), -1}, err
}

// randomAccess serves Seek and ReadAt through the frames' indexes: the
// frames of a concatenation, one after the other.
type randomAccess struct {
	frames []*framereader.Reader
	starts []int64 // uncompressed offset of each frame's first byte, and the total
	// from and to are where the frames lie in the source (newRandomAccess).
	from, to int64
}

// newRandomAccess opens src for random access when it allows it: an
// io.ReaderAt whose size is known (Size() int64, or io.Seeker), or an
// io.ReadSeeker. The first frame starts at the source's current position.
// It returns nil, nil for sources that only stream.
func newRandomAccess(src io.Reader, o *readerOptions) (*randomAccess, error) {
	var ra io.ReaderAt
	var start, size int64 = 0, -1
	seeker, isSeeker := src.(io.Seeker)
	if isSeeker {
		cur, err := seeker.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil, nil // a Seek that fails (a pipe as *os.File): stream it
		}
		end, err := seeker.Seek(0, io.SeekEnd)
		if err != nil {
			return nil, nil
		}
		if _, err := seeker.Seek(cur, io.SeekStart); err != nil {
			return nil, err
		}
		start, size = cur, end
	}
	switch s := src.(type) {
	case io.ReaderAt:
		ra = s
		if sz, ok := src.(interface{ Size() int64 }); ok && size < 0 {
			size = sz.Size()
		}
	case io.ReadSeeker:
		ra = &seekReaderAt{rs: s}
	}
	if ra == nil || size < 0 {
		return nil, nil
	}
	a, err := openFrames(io.NewSectionReader(ra, start, size-start), size-start, o)
	if err != nil {
		return nil, err
	}
	a.from, a.to = start, size
	return a, nil
}

// openFrames opens the frames that ra holds from its start (size bytes),
// or only the first with WithMultistream(false); extra options go to each
// frame's reader.
func openFrames(ra io.ReaderAt, size int64, o *readerOptions, extra ...framereader.ReaderOption) (*randomAccess, error) {
	fopts := append([]framereader.ReaderOption{framereader.WithMaxMemory(o.maxMemory)}, extra...)
	var frames []*framereader.Reader
	if o.single {
		fr, err := framereader.NewReader(ra, size, fopts...)
		if err != nil {
			return nil, err
		}
		frames = []*framereader.Reader{fr}
	} else {
		var err error
		if frames, err = framereader.NewReaders(ra, size, fopts...); err != nil {
			return nil, err
		}
	}
	a := &randomAccess{frames: frames, starts: make([]int64, len(frames)+1)}
	for i, f := range frames {
		a.starts[i+1] = a.starts[i] + f.Size()
	}
	return a, nil
}

// seekReaderAt turns an io.ReadSeeker into an io.ReaderAt, one call at a time.
type seekReaderAt struct {
	mu sync.Mutex
	rs io.ReadSeeker
}

func (s *seekReaderAt) ReadAt(p []byte, off int64) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.rs.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	return io.ReadFull(s.rs, p)
}

// frameAt is the frame holding uncompressed byte off (off < Size), past
// empty frames.
func (a *randomAccess) frameAt(off int64) int {
	return sort.Search(len(a.frames), func(i int) bool { return a.starts[i+1] > off })
}

func (a *randomAccess) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%w: negative offset %d", blosc2.ErrInvalidOption, off)
	}
	n := 0
	for n < len(p) {
		o := off + int64(n)
		if o >= a.Size() {
			return n, io.EOF
		}
		i := a.frameAt(o)
		want := min(int64(len(p)-n), a.starts[i+1]-o)
		k, err := a.frames[i].ReadAt(p[n:n+int(want)], o-a.starts[i])
		n += k
		if err != nil && !(err == io.EOF && int64(k) == want) {
			return n, err
		}
	}
	return n, nil
}

func (a *randomAccess) Size() int64 { return a.starts[len(a.frames)] }

// source yields every chunk from the first.
func (a *randomAccess) source() chunkSource { return &indexSource{a: a} }

// sourceFrom yields the chunks from the one holding off, and how many of
// its bytes to skip.
func (a *randomAccess) sourceFrom(off int64) (chunkSource, int, error) {
	if off >= a.Size() {
		return &indexSource{a: a, frame: len(a.frames)}, 0, nil
	}
	f := a.frameAt(off)
	i, start, err := a.frames[f].ChunkAt(off - a.starts[f])
	if err != nil {
		return nil, 0, err
	}
	return &indexSource{a: a, frame: f, next: i, done: a.starts[f] + start}, int(off - a.starts[f] - start), nil
}

// indexSource yields chunks through the indexes, in order.
type indexSource struct {
	a     *randomAccess
	frame int
	next  int
	done  int64 // decoded bytes before chunk next of frame
}

func (s *indexSource) Next(reuse []byte) ([]byte, chunkPos, error) {
	for s.frame < len(s.a.frames) && s.next >= s.a.frames[s.frame].NumChunks() {
		s.frame, s.next = s.frame+1, 0
	}
	if s.frame >= len(s.a.frames) {
		return nil, chunkPos{}, io.EOF
	}
	fr := s.a.frames[s.frame]
	pos := chunkPos{s.frame, s.next, -1, 1, fr.Geometry(), -1}
	if off, ok := fr.ChunkOffset(s.next); ok {
		pos.offset = off
	}
	c, err := fr.AppendChunk(reuse[:0], s.next)
	if err == nil {
		pos.run, err = fr.SpecialRun(s.next)
	}
	if err != nil {
		// framereader names the chunk already.
		return nil, pos, fmt.Errorf("frame %d: %w", s.frame, err)
	}
	s.next += pos.run
	if p, err := blosc2.ParsePrefix(c); err == nil {
		s.done += int64(p.Nbytes) * int64(max(pos.run, 1))
		pos.after = max(s.a.Size()-s.done, 0)
	}
	return c, pos, nil
}
