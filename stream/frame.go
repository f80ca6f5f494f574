package stream

import (
	"fmt"
	"io"
	"sync"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/framewriter"
)

// newSink starts a frame on dst with the Writer's options.
func newSink(dst io.Writer, o *writerOptions) (chunkSink, error) {
	opts := []framewriter.Option{framewriter.WithCParams(o.cparams)}
	for _, m := range o.metalayers {
		opts = append(opts, framewriter.WithMetalayer(m.name, m.content))
	}
	for _, m := range o.vlmeta {
		opts = append(opts, framewriter.WithVLMetalayer(m.name, m.content))
	}
	return framewriter.New(dst, opts...)
}

// sequentialSource reads a frame front to back from a plain io.Reader.
func newSequentialSource(src io.Reader, maxMemory int) (chunkSource, error) {
	sr, err := framereader.NewChunkReader(src, framereader.WithDParams(blosc2.DParams{MaxNbytes: maxMemory}))
	if err != nil {
		return nil, err
	}
	return streamSource{sr}, nil
}

// streamSource yields the chunks of a frame read front to back. It does
// not reuse buffers: the frame stream reader sizes each chunk's exactly,
// to bound memory on hostile input.
type streamSource struct{ sr *framereader.ChunkReader }

func (s streamSource) Next([]byte) ([]byte, error) { return s.sr.Next() }

// randomAccess serves Seek and ReadAt through the frame's index.
type randomAccess struct {
	fr *framereader.Reader
}

// newRandomAccess opens src for random access when it allows it: an
// io.ReaderAt whose size is known (Size() int64, or io.Seeker), or an
// io.ReadSeeker. The frame starts at the source's current position. It
// returns nil, nil for sources that only stream.
func newRandomAccess(src io.Reader, maxMemory int) (*randomAccess, error) {
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
	fr, err := framereader.NewReader(io.NewSectionReader(ra, start, size-start), size-start,
		framereader.WithDParams(blosc2.DParams{MaxNbytes: maxMemory}))
	if err != nil {
		return nil, err
	}
	return &randomAccess{fr: fr}, nil
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

func (ra *randomAccess) ReadAt(p []byte, off int64) (int, error) { return ra.fr.ReadAt(p, off) }

func (ra *randomAccess) Size() int64 { return ra.fr.Size() }

// source yields every chunk from the first.
func (ra *randomAccess) source() chunkSource { return &indexSource{fr: ra.fr} }

// sourceFrom yields the chunks from the one holding off, and how many of
// its bytes to skip.
func (ra *randomAccess) sourceFrom(off int64) (chunkSource, int, error) {
	i, start, err := ra.fr.ChunkAt(off)
	if err != nil {
		return nil, 0, err
	}
	return &indexSource{fr: ra.fr, next: i}, int(off - start), nil
}

// indexSource yields chunks through the index, in order.
type indexSource struct {
	fr   *framereader.Reader
	next int
}

func (s *indexSource) Next(reuse []byte) ([]byte, error) {
	if s.next >= s.fr.NumChunks() {
		return nil, io.EOF
	}
	c, err := s.fr.AppendChunk(reuse[:0], s.next)
	if err != nil {
		return nil, fmt.Errorf("chunk %d: %w", s.next, err)
	}
	s.next++
	return c, nil
}
