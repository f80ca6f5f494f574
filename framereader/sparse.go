package framereader

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"path/filepath"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/safefile"
)

// openSparse opens the sparse frame in directory dir (README_SFRAME_FORMAT.rst).
func openSparse(dir string, opts []ReaderOption) (*Reader, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	b, err := safefile.ReadFile(filepath.Join(dir, frame.SparseIndexName))
	if err != nil {
		return nil, err
	}
	r := &Reader{dp: o.dp, format: Sparse}
	if err := r.parseSparseIndex(b); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	r.src = sparseSource(dir)
	if err := r.checkSizes(); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	r.dp = withGeometry(r.dp, &r.h)
	return r, nil
}

// parseSparseIndex reads chunks.b2frame.
func (r *Reader) parseSparseIndex(b []byte) error {
	l, err := frame.LoadSparseIndex(b, r.dp.MaxMemory)
	if err != nil {
		return err
	}
	r.use(l, Sparse)
	return nil
}

// sparseSource reads chunk files of a sparse frame directory.
type sparseSource string

func (s sparseSource) path(e int64) (string, error) {
	if e < 0 || e > 0xFFFFFFFF {
		return "", fmt.Errorf("%w: chunk file number %d", blosc2.ErrCorrupt, e)
	}
	return filepath.Join(string(s), frame.ChunkFileName(e)), nil
}

func (s sparseSource) chunk(dst []byte, e int64, sum, _ bool) ([]byte, uint32, error) {
	p, err := s.path(e)
	if err != nil {
		return dst, 0, err
	}
	f, st, err := safefile.Open(p)
	if err != nil {
		return dst, 0, err
	}
	defer f.Close()
	if st.Size() < blosc2.MinHeaderLen {
		return dst, 0, fmt.Errorf("%w: chunk file %s has %d bytes", blosc2.ErrTruncated, p, st.Size())
	}
	if st.Size() > math.MaxInt32 {
		return dst, 0, fmt.Errorf("%w: chunk file %s has %d bytes, more than a chunk can hold", blosc2.ErrCorrupt, p, st.Size())
	}
	return readChunk(dst, f, 0, st.Size(), st.Size(), "chunk file "+p, sum, false)
}

func (s sparseSource) header(e int64) ([]byte, error) {
	p, err := s.path(e)
	if err != nil {
		return nil, err
	}
	f, _, err := safefile.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, blosc2.ExtendedHeaderLen)
	n, err := io.ReadFull(f, b)
	if n < blosc2.MinHeaderLen {
		return nil, fmt.Errorf("%w: chunk file %s has %d bytes: %v", blosc2.ErrTruncated, p, n, err)
	}
	return bytes.Clone(b[:n]), nil
}
