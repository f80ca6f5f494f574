package framereader

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
)

// openSparse opens the sparse frame in directory dir (sframe.md).
func openSparse(dir string, opts []Option) (*Reader, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, frame.SparseIndexName))
	if err != nil {
		return nil, err
	}
	r := &Reader{dp: o.dp, format: Sparse}
	if err := r.parseSparseIndex(b); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	r.src = sparseSource(dir)
	return r, nil
}

// parseSparseIndex reads chunks.b2frame: a frame with an empty chunks
// section, whose index lies at header_len and holds chunk file numbers.
func (r *Reader) parseSparseIndex(b []byte) error {
	h, err := frame.ParseFixed(b)
	if err != nil {
		return err
	}
	if h.FrameType != frame.TypeSparse {
		return fmt.Errorf("%w: %s has frame type %d, want %d (sparse)", blosc2.ErrHeader, frame.SparseIndexName, h.FrameType, frame.TypeSparse)
	}
	size := int64(len(b))
	if h.FrameLen < frame.MinFrameLen || h.FrameLen > size {
		return fmt.Errorf("%w: frame_len %d outside [%d, %d] (the file's size)", blosc2.ErrHeader, h.FrameLen, frame.MinFrameLen, size)
	}
	if int64(h.HeaderLen) > h.FrameLen {
		return fmt.Errorf("%w: header_len %d beyond frame_len %d", blosc2.ErrHeader, h.HeaderLen, h.FrameLen)
	}
	b = b[:h.FrameLen]
	if err := frame.ParseMetalayers(&h, b); err != nil {
		return err
	}
	tl, err := frame.TrailerLenAt(b)
	if err != nil {
		return err
	}
	if tl < frame.TrailerMinLen || tl > h.FrameLen-frame.FixedHeaderLen {
		return fmt.Errorf("%w: trailer_len %d", blosc2.ErrHeader, tl)
	}
	ts := h.FrameLen - tl
	if h.Nbytes == 0 {
		ts = int64(h.HeaderLen)
	}
	if ts < int64(h.HeaderLen) {
		return fmt.Errorf("%w: trailer at %d, inside the %d-byte header", blosc2.ErrHeader, ts, h.HeaderLen)
	}
	var idx []byte
	if h.Nbytes > 0 {
		idx = b[h.HeaderLen:ts]
	}
	if err := r.setup(h, idx, b[ts:]); err != nil {
		return err
	}
	for i := range r.nchunks {
		e := r.idx.At(i)
		if e > 0xFFFFFFFF {
			return fmt.Errorf("%w: index entry %d: chunk file number %d exceeds 8 hex digits", blosc2.ErrCorrupt, i, e)
		}
		if r.idx.Repeated() {
			break
		}
	}
	return r.checkEntries()
}

// sparseSource reads chunk files of a sparse frame directory.
type sparseSource string

func (s sparseSource) path(e int64) (string, error) {
	if e < 0 || e > 0xFFFFFFFF {
		return "", fmt.Errorf("%w: chunk file number %d", blosc2.ErrCorrupt, e)
	}
	return filepath.Join(string(s), frame.ChunkFileName(e)), nil
}

func (s sparseSource) chunk(e int64) ([]byte, error) {
	p, err := s.path(e)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if len(b) < blosc2.MinHeaderLen {
		return nil, fmt.Errorf("%w: chunk file %s has %d bytes", blosc2.ErrTruncated, p, len(b))
	}
	return b, nil
}

func (s sparseSource) header(e int64) ([]byte, error) {
	p, err := s.path(e)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
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
