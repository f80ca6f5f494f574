package stream

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/option"
)

// EncodeAll compresses src into one complete contiguous frame (header
// patched, index and trailer written), appends it to dst and returns the
// extended slice. The source comes first, as in klauspost/compress's
// zstd.Encoder.EncodeAll(src, dst). Small buffers
// are compressed with one goroutine; the options are NewWriter's, so by
// default each chunk's parameters are the automatic mode's (WithTier).
func EncodeAll(src, dst []byte, opts ...WriterOption) ([]byte, error) {
	opts = append([]WriterOption{WithConcurrency(1)}, opts...)
	mw := &memWriter{buf: dst, base: len(dst), pos: len(dst)}
	w, err := NewWriter(mw, opts...)
	if err != nil {
		return dst, err
	}
	if _, err := w.Write(src); err != nil {
		return dst, err
	}
	if err := w.Close(); err != nil {
		return dst, err
	}
	return mw.buf, nil
}

// DecodeAll decompresses every chunk of the frames held in src, appends
// the data to dst and returns the extended slice; the source comes first,
// as in zstd.Decoder.DecodeAll(input, dst). Chunks are decoded from src
// where they lie straight into dst, one after the other, the blocks of each
// on the WithReaderConcurrency goroutines (1 by default). Frames holding
// more than WithMaxMemory bytes are decoded through a Reader, dst growing
// as the data arrives.
func DecodeAll(src, dst []byte, opts ...ReaderOption) ([]byte, error) {
	opts = append([]ReaderOption{WithReaderConcurrency(1)}, opts...)
	o := defaultReaderOptions()
	if err := option.Apply(&o, opts); err != nil {
		return dst, err
	}
	a, err := openFrames(frame.Memory(src), int64(len(src)), &o, framereader.WithConcurrency(o.concurrency))
	if err != nil {
		return dst, err
	}
	size := a.Size()
	if size > int64(o.maxMemory) {
		return decodeAllStreaming(src, dst, opts)
	}
	start := len(dst)
	dst = slices.Grow(dst, int(size))[:start+int(size)]
	for i, fr := range a.frames {
		out := dst[start+int(a.starts[i]) : start+int(a.starts[i+1])]
		if len(out) == 0 {
			continue
		}
		if _, err := fr.ReadAt(out, 0); err != nil {
			return dst[:start], fmt.Errorf("frame %d: %w", i, err)
		}
	}
	return dst, nil
}

// decodeAllStreaming is DecodeAll through a Reader.
func decodeAllStreaming(src, dst []byte, opts []ReaderOption) ([]byte, error) {
	r, err := NewReader(bytes.NewReader(src), opts...)
	if err != nil {
		return dst, err
	}
	defer r.Close()
	start := len(dst)
	buf := bytes.NewBuffer(dst)
	if _, err := r.WriteTo(buf); err != nil {
		return dst[:start], err
	}
	return buf.Bytes(), nil
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
