package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/flate"
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

// zlibWriter compresses into a bounded buffer; the zlib header and the
// Adler-32 trailer around flate's stream are written here (RFC 1950), as
// klauspost/compress/zlib writes them, so that the checksum is summed by
// adler32Update.
type zlibWriter struct {
	fw  *flate.Writer
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
		n, err = zlibCompress(dst, src, flate.HuffmanOnly)
	}
	return n, err
}

// zlibLevelFlag is the FLEVEL field of the header's second byte for a flate
// level: 0 fastest, 1 fast, 2 default, 3 best (RFC 1950; informative only).
func zlibLevelFlag(level int) byte {
	switch {
	case level <= 1:
		return 0
	case level <= 5:
		return 1
	case level == 6:
		return 2
	}
	return 3
}

// zlibCompress compresses src into dst at one flate level (1-9 or
// flate.HuffmanOnly); 0 means it does not fit.
func zlibCompress(dst, src []byte, level int) (int, error) {
	if len(dst) < 2+4 {
		return 0, nil
	}
	pool := &zlibHuffmanPool
	if level > 0 {
		pool = &zlibWriterPools[level]
	}
	w, _ := pool.Get().(*zlibWriter)
	if w == nil {
		w = new(zlibWriter)
		var err error
		if w.fw, err = flate.NewWriter(&w.out, level); err != nil {
			return 0, err
		}
	}
	defer pool.Put(w)
	// CMF: deflate with a 32 KiB window; FLG: the level, no dictionary,
	// and the check bits that make CMF·256+FLG a multiple of 31.
	dst[0] = 0x78
	dst[1] = zlibLevelFlag(level) << 6
	dst[1] += byte(31 - (uint(dst[0])<<8|uint(dst[1]))%31)
	w.out = boundedWriter{buf: dst[:len(dst)-4], n: 2}
	w.fw.Reset(&w.out)
	if _, err := w.fw.Write(src); err != nil {
		return 0, nil
	}
	if err := w.fw.Close(); err != nil {
		return 0, nil
	}
	n := w.out.n
	binary.BigEndian.PutUint32(dst[n:], adler32Update(1, src))
	return n + 4, nil
}

type zlibReader struct {
	src bytes.Reader
	fr  io.ReadCloser
}

var zlibReaderPool sync.Pool

func (zlibCodec) Decompress(dst, src []byte, _ uint8, _ []byte) (int, error) {
	// RFC 1950: CMF and FLG, flate's stream, the Adler-32 of the data.
	if len(src) < 2+4 {
		return 0, fmt.Errorf("%w: zlib stream of %d bytes", ErrCorrupt, len(src))
	}
	cmf, flg := src[0], src[1]
	switch {
	case cmf&0x0f != 8 || cmf>>4 > 7 || (uint(cmf)<<8|uint(flg))%31 != 0:
		return 0, fmt.Errorf("%w: zlib: invalid header %#02x %#02x", ErrCorrupt, cmf, flg)
	case flg&0x20 != 0:
		return 0, fmt.Errorf("%w: zlib: the stream needs a preset dictionary", ErrCorrupt)
	}
	r, _ := zlibReaderPool.Get().(*zlibReader)
	if r == nil {
		r = new(zlibReader)
	}
	defer zlibReaderPool.Put(r)
	// flate reads the bytes.Reader a byte at a time (it is an
	// io.ByteReader) and stops at the end of its stream: what is left is
	// the checksum.
	r.src.Reset(src[2:])
	if r.fr == nil {
		r.fr = flate.NewReader(&r.src)
	} else if err := r.fr.(flate.Resetter).Reset(&r.src, nil); err != nil {
		return 0, fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
	}
	n, err := io.ReadFull(r.fr, dst)
	if err != nil {
		return n, fmt.Errorf("%w: zlib stream decodes to %d bytes, want %d: %v", ErrCorrupt, n, len(dst), err)
	}
	// The stream must end exactly here.
	var one [1]byte
	if m, err := r.fr.Read(one[:]); m != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			return n, fmt.Errorf("%w: zlib stream holds more than %d bytes", ErrCorrupt, len(dst))
		}
		return n, fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
	}
	end := len(src) - r.src.Len()
	if len(src)-end < 4 {
		return n, fmt.Errorf("%w: zlib stream ends without its checksum", ErrCorrupt)
	}
	if got, want := adler32Update(1, dst), binary.BigEndian.Uint32(src[end:]); got != want {
		return n, fmt.Errorf("%w: zlib: Adler-32 %#08x, the stream says %#08x", ErrCorrupt, got, want)
	}
	return n, nil
}
