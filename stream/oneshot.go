package stream

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/fanout"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/option"
)

// EncodeAll compresses src into one complete contiguous frame (header
// patched, index and trailer written), appends it to dst and returns the
// extended slice. The source comes first, as in klauspost/compress's
// zstd.Encoder.EncodeAll(src, dst). Every chunk of src, the last and
// shorter one too, is compressed where it lies, never copied (a
// Writer's Write copies what it leaves short of a chunk, but for a long
// one at the end of a frame's first Write); src is only
// read, and not kept once EncodeAll returns. Small buffers are
// compressed with one goroutine; the options are NewWriter's, so by
// default each chunk's parameters are the automatic mode's (WithTier).
// The frame is the one a Writer writes to a seekable destination.
func EncodeAll(src, dst []byte, opts ...WriterOption) ([]byte, error) {
	opts = append([]WriterOption{WithConcurrency(1)}, opts...)
	mw := &memWriter{buf: dst, base: len(dst), pos: len(dst)}
	w, err := NewWriter(mw, opts...)
	if err != nil {
		return dst, err
	}
	if err := w.closeWith(src); err != nil {
		return dst, err
	}
	return mw.buf, nil
}

// DecodeAll decompresses every chunk of the frames held in src, appends
// the data to dst and returns the extended slice; the source comes first,
// as in zstd.Decoder.DecodeAll(input, dst). Chunks are decoded from src
// where they lie straight into their place in dst, on the
// WithReaderConcurrency goroutines (1 by default): a chunk each, and the
// blocks of the last chunks spread over them all, so that none sits idle
// while the others finish.
//
// The output is allocated at once, at the size the frames declare, so
// WithMaxMemory (default 1 GiB) caps it as it caps what a Reader holds:
// frames declaring more decompressed bytes fail with an error wrapping
// blosc2.ErrTooLarge before anything is allocated or decoded. A frame of
// a few hundred bytes can declare gigabytes of zeros, as C-Blosc2's
// blosc2_schunk_fill_special writes them; raise the cap to decode one in
// memory, or read it through a Reader into a writer.
func DecodeAll(src, dst []byte, opts ...ReaderOption) ([]byte, error) {
	opts = append([]ReaderOption{WithReaderConcurrency(1)}, opts...)
	o := defaultReaderOptions()
	if err := option.Apply(&o, opts); err != nil {
		return dst, err
	}
	a, err := openFrames(frame.Memory(src), int64(len(src)), &o)
	if err != nil {
		return dst, err
	}
	start, size := len(dst), a.Size()
	if size > int64(o.maxMemory) || size > int64(math.MaxInt-start) {
		return dst, fmt.Errorf("%w: DecodeAll: the frames (%d in %d bytes) declare %d decompressed bytes, more than the %d allowed (WithMaxMemory)",
			blosc2.ErrTooLarge, len(a.frames), len(src), size, o.maxMemory)
	}
	out, err := a.appendDecoded(dst, o.concurrency, nil)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// appendDecoded appends the frames' Size bytes to dst, each chunk decoded
// into its place (decodeChunks); after an error it holds what precedes
// the failing chunk. Where dst has the room, the bytes are decoded in
// place.
func (a *randomAccess) appendDecoded(dst []byte, n int, stop <-chan struct{}) ([]byte, error) {
	start, size := len(dst), int(a.Size())
	dst = slices.Grow(dst, size)[:start+size]
	good, err := a.decodeChunks(dst[start:], n, stop)
	return dst[:start+int(good)], err
}

// decodeChunks decodes every chunk of the frames into its place
// in out (Size bytes) on n goroutines (the caller's among them), and
// returns the error of the first chunk in stream order that fails with
// the number of bytes before it: chunks are taken in order and none is
// taken after a failure, so every chunk before the failing one is decoded
// and checked. Once stop is closed (nil: never), no chunk is taken, and
// the first one not taken fails with errReaderClosed.
//
// Each goroutine decodes a chunk at a time on its own, except at the end:
// when the chunks do not divide evenly among n goroutines (a short last
// chunk, a count that is not a multiple of n, fewer chunks than
// goroutines), the first to finish would sit idle while the others end.
// So the last chunks (those after the last whole round of n chunks that
// still leaves at least one) have their blocks decoded on n goroutines
// each; while the other goroutines finish, the runtime shares the
// processors among them.
func (a *randomAccess) decodeChunks(out []byte, n int, stop <-chan struct{}) (int64, error) {
	type failure struct {
		frame, chunk int
		at           int64 // bytes of out before the chunk (its frame's start when unknown)
		err          error
	}
	var (
		next    atomic.Int64 // the next chunk to take, counted over all frames
		failed  atomic.Bool
		mu      sync.Mutex
		first   *failure
		offsets = make([]int, len(a.frames)+1) // chunks before each frame
	)
	for i, fr := range a.frames {
		offsets[i+1] = offsets[i] + fr.NumChunks()
	}
	nchunks := offsets[len(a.frames)]
	n = max(n, 1)
	tail := (nchunks - 1) / n * n // chunks from here on spread their blocks
	decode := func() {
		f := 0
		for !failed.Load() {
			k := int(next.Add(1) - 1)
			if k >= nchunks {
				return
			}
			for offsets[f+1] <= k {
				f++
			}
			fr, i := a.frames[f], k-offsets[f]
			blocks := 1
			if k >= tail {
				blocks = n
			}
			s, m, err := fr.ChunkSpan(i)
			at := a.starts[f]
			if err == nil {
				at += s
				select {
				case <-stop:
					err = errReaderClosed
				default:
					_, err = fr.ReadAtConcurrency(out[at:at+int64(m)], s, blocks)
				}
			}
			if err != nil {
				mu.Lock()
				if first == nil || f < first.frame || f == first.frame && i < first.chunk {
					first = &failure{f, i, at, err}
				}
				mu.Unlock()
				failed.Store(true)
			}
		}
	}
	fanout.Run(min(n, nchunks), decode) // one goroutine for an empty frame
	if first != nil {
		if first.err == errReaderClosed {
			return first.at, first.err
		}
		return first.at, fmt.Errorf("frame %d: %w", first.frame, first.err)
	}
	return int64(len(out)), nil
}

// memWriter is an in-memory io.WriteSeeker and io.WriterAt appending to a
// caller's slice, so that frames written to memory get their header patched.
// Offsets are relative to base, where the frame starts.
type memWriter struct {
	buf  []byte
	base int
	pos  int
}

func (m *memWriter) Write(p []byte) (int, error) {
	n, err := m.WriteAt(p, int64(m.pos-m.base))
	m.pos += n
	return n, err
}

func (m *memWriter) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("%w: negative offset", blosc2.ErrInvalidOption)
	}
	end := m.base + int(off) + len(p)
	if end > len(m.buf) {
		m.buf = append(m.buf, make([]byte, end-len(m.buf))...)
	}
	copy(m.buf[m.base+int(off):], p)
	return len(p), nil
}

func (m *memWriter) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = int64(m.pos-m.base) + offset
	case io.SeekEnd:
		abs = int64(len(m.buf)-m.base) + offset
	default:
		return 0, fmt.Errorf("%w: whence %d", blosc2.ErrInvalidOption, whence)
	}
	if abs < 0 {
		return 0, fmt.Errorf("%w: negative position", blosc2.ErrInvalidOption)
	}
	m.pos = m.base + int(abs)
	return abs, nil
}
