package framewriter

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/safefile"
)

// CreateSparse creates a sparse frame in directory dir (created if needed;
// it must be empty): each chunk goes to its own file NNNNNNNN.chunk, and
// chunks.b2frame holds the header, the index and the trailer (README_SFRAME_FORMAT.rst).
// chunks.b2frame is written at once for the empty frame, as C-Blosc2 does,
// and replaced atomically by Close, so the directory always holds a valid
// frame: the one before the session, until Close succeeds.
func CreateSparse(dir string, opts ...WriterOption) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(ents) > 0 {
		return nil, fmt.Errorf("%w: sparse frame directory %s is not empty", blosc2.ErrInvalidOption, dir)
	}
	sd := &sparseDir{dir: dir}
	w, err := newWriter(sd, opts)
	if err != nil {
		return nil, err
	}
	w.specials = resolveSparse(opts)
	if err := sd.writeIndex(w); err != nil {
		return nil, err
	}
	return w, nil
}

// resolveSparse: a directory can always be rewritten, so SpecialsAuto
// means C's layout.
func resolveSparse(opts []WriterOption) SpecialMode {
	o, _ := newOptions(opts)
	if o.specials == SpecialsInline {
		return SpecialsInline
	}
	return SpecialsIndex
}

// sparseDir stores a sparse frame: each chunk in its own file of dir,
// the header, index and trailer in chunks.b2frame, rewritten at Close.
type sparseDir struct {
	dir    string
	nextID int64  // next chunk file number
	adopt  []byte // recovery: the bytes chunk file nextID already holds
	joined []byte // a chunk in pieces, copied together for its file
}

func (s *sparseDir) frameType() uint8 { return frame.TypeSparse }

// seekable: there is no header to patch in place; chunks.b2frame is
// replaced whole.
func (s *sparseDir) seekable() bool { return false }

// indexOnly: the index file is written after the chunks.
func (s *sparseDir) indexOnly() bool            { return true }
func (s *sparseDir) release() error             { return nil }
func (s *sparseDir) begin(*Writer, int32) error { return nil }
func (s *sparseDir) markLossy(*Writer) error    { return nil }
func (s *sparseDir) chunkPath(id int64) string  { return filepath.Join(s.dir, frame.ChunkFileName(id)) }
func (s *sparseDir) finish(w *Writer) error     { return s.finishIndex(w) }

func (s *sparseDir) store(w *Writer, pieces [][]byte) (int64, error) {
	// A chunk file is written whole, so a chunk in pieces is copied
	// together first, into a buffer kept for the next ones.
	chunk := joinPieces(s.joined, pieces)
	if len(pieces) > 1 {
		s.joined = chunk
	}
	id := s.nextID
	if id > 0xFFFFFFFF {
		return 0, fmt.Errorf("%w: sparse frame chunk number %d exceeds 8 hex digits", blosc2.ErrTooLarge, id)
	}
	if !bytes.Equal(chunk, s.adopt) {
		if err := w.fail(writeFileSync(s.chunkPath(id), chunk, !w.noSync)); err != nil {
			return 0, err
		}
	}
	s.nextID++
	return id, nil
}

// dropped: a sparse frame's cbytes is the sum of its chunk files.
func (s *sparseDir) dropped(entries []int64) (int64, error) {
	var n int64
	for _, e := range entries {
		if e < 0 {
			continue
		}
		st, err := os.Stat(s.chunkPath(e))
		if err != nil {
			return n, err
		}
		n += st.Size()
	}
	return n, nil
}

// writeFileSync writes a whole file, syncing it when asked.
// It never writes through a link planted at path (safefile.WriteFile).
func writeFileSync(path string, b []byte, sync bool) error {
	return safefile.WriteFile(path, b, sync)
}

// writeIndex replaces chunks.b2frame with w's current state: written to
// a temporary file, synced, then renamed over the old one.
func (s *sparseDir) writeIndex(w *Writer) error {
	idx, trailer, err := w.tail()
	if err != nil {
		return err
	}
	h := w.h
	h.ComputeLen()
	hdr := w.finalHeader(int64(h.HeaderLen) + int64(len(idx)) + int64(len(trailer)))
	b := append(append(hdr, idx...), trailer...)
	tmp := filepath.Join(s.dir, frame.SparseIndexName+".tmp")
	if err := writeFileSync(tmp, b, !w.noSync); err != nil {
		return err
	}
	if testHookBeforePatch != nil {
		if err := testHookBeforePatch(); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, filepath.Join(s.dir, frame.SparseIndexName)); err != nil {
		return err
	}
	if !w.noSync {
		syncDir(s.dir)
	}
	return nil
}

// syncDir makes the renames in dir durable, where the system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// finishIndex writes chunks.b2frame at Close when the session changed
// the frame.
func (s *sparseDir) finishIndex(w *Writer) error {
	if !w.dirty {
		return nil
	}
	if err := w.relocate(); err != nil {
		return err
	}
	return s.writeIndex(w)
}
