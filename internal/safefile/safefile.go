// Package safefile opens and writes the files of a sparse frame directory
// without following links and without blocking on special files: a chunk
// file that is a symlink (to /dev/zero, to a file outside the directory,
// to a victim the writer would overwrite) or a FIFO is refused with a
// clear error, checked on the opened descriptor rather than by a racy
// stat of the name.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2/internal/errs"
)

// Open opens path for reading if it is a regular file, not a link.
func Open(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow|nonBlock, 0)
	if err != nil {
		if isLinkErr(err) {
			return nil, nil, fmt.Errorf("%w: %s is a symbolic link: sparse frames are read without following links", errs.ErrUnsupported, path)
		}
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %s is not a regular file (%v)", errs.ErrUnsupported, path, st.Mode().Type())
	}
	return f, st, nil
}

// ReadFile reads the regular file at path (see Open).
func ReadFile(path string) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, st.Size())
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// WriteFile writes b as the new file path: whatever had that name (a
// leftover of a dead writer, a planted link) is removed first, and the
// file is created exclusively and never through a link, then synced when
// asked. Callers rename it into place where a reader must never see it
// torn.
func WriteFile(path string, b []byte, sync bool) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o666)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil && sync {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}
