package framereader

import (
	"fmt"
	"io"

	"github.com/blosc2go/blosc2"
)

func (r *Reader) openBeta(ra io.ReaderAt, size int64) error {
	return fmt.Errorf("%w: beta-era frames", blosc2.ErrUnsupported)
}

func (r *Reader) openPacked(ra io.ReaderAt, size int64) error {
	return fmt.Errorf("%w: packed super-chunks", blosc2.ErrUnsupported)
}
