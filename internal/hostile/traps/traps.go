// Package traps makes the links and special files planted in sparse frame
// directories by the resource-bound tests (issue 14), shared by the
// library's and the command's tests.
package traps

import (
	"os"
	"path/filepath"

	"github.com/blosc2go/blosc2/internal/frame"
)

// Trap is a change to a sparse frame directory of three or more
// chunks that a reader must refuse at once, never follow or wait on.
type Trap struct {
	Name string
	// Plant makes the change in dir; outside is another sparse frame
	// directory, whose chunk 1 a link may point at.
	Plant func(dir, outside string) error
}

// Sparse is the links and special files planted in sparse frame
// directories: the index a link to /dev/zero (endless), a chunk a link to
// another directory's chunk (bytes from outside), a chunk a FIFO (a read
// that never returns).
func Sparse() []Trap {
	return []Trap{
		{"index-to-dev-zero", func(dir, _ string) error {
			return replace(filepath.Join(dir, frame.SparseIndexName), func(p string) error { return os.Symlink("/dev/zero", p) })
		}},
		{"chunk-to-outside", func(dir, outside string) error {
			return replace(filepath.Join(dir, frame.ChunkFileName(1)), func(p string) error {
				return os.Symlink(filepath.Join(outside, frame.ChunkFileName(1)), p)
			})
		}},
		{"chunk-fifo", func(dir, _ string) error {
			return replace(filepath.Join(dir, frame.ChunkFileName(2)), mkfifo)
		}},
	}
}

func replace(path string, make func(string) error) error {
	if err := os.Remove(path); err != nil {
		return err
	}
	return make(path)
}
