package codec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zlib"
)

// zlibCodec is zlib (id 4): one RFC 1950 stream per Blosc stream, at level
// clevel. Its bytes differ from C-Blosc2's (zlib-ng); any valid stream
// interoperates.
type zlibCodec struct{}

// boundedWriter is an io.Writer over a fixed buffer that fails once full, so
// an incompressible stream stops as soon as it cannot fit.
type boundedWriter struct {
	buf []byte
	n   int
}

var errFull = errors.New("output full")

func (w *boundedWriter) Write(p []byte) (int, error) {
	if len(p) > len(w.buf)-w.n {
		return 0, errFull
	}
	w.n += copy(w.buf[w.n:], p)
	return len(p), nil
}

type zlibWriter struct {
	zw  *zlib.Writer
	out boundedWriter
}

var zlibWriterPools [10]sync.Pool
var zlibHuffmanPool sync.Pool

func (zlibCodec) Compress(dst, src []byte, clevel int, _ uint8, _ []byte) (int, error) {
	clevel = min(max(clevel, 1), 9)
	n, err := zlibCompress(dst, src, clevel)
	if n == 0 && err == nil && clevel <= 6 {
		// klauspost's faster levels store data they judge incompressible
		// where zlib still gains a few percent with Huffman coding alone;
		// try that before giving up (C-Blosc2 would keep such a stream).
		n, err = zlibCompress(dst, src, zlib.HuffmanOnly)
	}
	return n, err
}

// zlibCompress compresses src into dst at one flate level (1-9 or
// zlib.HuffmanOnly); 0 means it does not fit.
func zlibCompress(dst, src []byte, level int) (int, error) {
	pool := &zlibHuffmanPool
	if level > 0 {
		pool = &zlibWriterPools[level]
	}
	w, _ := pool.Get().(*zlibWriter)
	if w == nil {
		w = new(zlibWriter)
		var err error
		if w.zw, err = zlib.NewWriterLevel(&w.out, level); err != nil {
			return 0, err
		}
	}
	defer pool.Put(w)
	w.out = boundedWriter{buf: dst}
	w.zw.Reset(&w.out)
	if _, err := w.zw.Write(src); err != nil {
		return 0, nil
	}
	if err := w.zw.Close(); err != nil {
		return 0, nil
	}
	return w.out.n, nil
}

type zlibReader struct {
	src bytes.Reader
	zr  io.ReadCloser
}

var zlibReaderPool sync.Pool

func (zlibCodec) Decompress(dst, src []byte, _ uint8, _ []byte) (int, error) {
	r, _ := zlibReaderPool.Get().(*zlibReader)
	if r == nil {
		r = new(zlibReader)
	}
	r.src.Reset(src)
	var err error
	if r.zr == nil {
		r.zr, err = zlib.NewReader(&r.src)
	} else {
		err = r.zr.(zlib.Resetter).Reset(&r.src, nil)
	}
	if err != nil {
		// A reader whose Reset failed is not reused.
		r.zr = nil
		zlibReaderPool.Put(r)
		return 0, fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
	}
	defer zlibReaderPool.Put(r)
	n, err := io.ReadFull(r.zr, dst)
	if err != nil {
		return n, fmt.Errorf("%w: zlib stream decodes to %d bytes, want %d: %v", ErrCorrupt, n, len(dst), err)
	}
	// The stream must end exactly here (this also verifies the Adler-32).
	var one [1]byte
	if m, err := r.zr.Read(one[:]); m != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			return n, fmt.Errorf("%w: zlib stream holds more than %d bytes", ErrCorrupt, len(dst))
		}
		return n, fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
	}
	return n, nil
}
