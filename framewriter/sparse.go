package framewriter

import (
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
	w, err := newWriter(nil, dir, opts)
	if err != nil {
		return nil, err
	}
	w.specials = resolveSparse(opts)
	if err := w.writeSparseIndex(); err != nil {
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

func (w *Writer) chunkPath(id int64) string {
	return filepath.Join(w.dir, frame.ChunkFileName(id))
}

// writeFileSync writes a whole file, syncing it when asked.
// It never writes through a link planted at path (safefile.WriteFile).
func writeFileSync(path string, b []byte, sync bool) error {
	return safefile.WriteFile(path, b, sync)
}

// writeSparseIndex replaces chunks.b2frame with the current state: written
// to a temporary file, synced, then renamed over the old one.
func (w *Writer) writeSparseIndex() error {
	idx, trailer, err := w.tail()
	if err != nil {
		return err
	}
	h := w.h
	h.ComputeLen()
	hdr := w.finalHeader(int64(h.HeaderLen) + int64(len(idx)) + int64(len(trailer)))
	b := append(append(hdr, idx...), trailer...)
	tmp := filepath.Join(w.dir, frame.SparseIndexName+".tmp")
	if err := writeFileSync(tmp, b, !w.noSync); err != nil {
		return err
	}
	if testHookBeforePatch != nil {
		if err := testHookBeforePatch(); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, filepath.Join(w.dir, frame.SparseIndexName)); err != nil {
		return err
	}
	if !w.noSync {
		syncDir(w.dir)
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

func (w *Writer) finishSparse() error {
	if !w.dirty {
		return nil
	}
	if err := w.relocate(); err != nil {
		return err
	}
	return w.writeSparseIndex()
}
