package framereader

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
)

// Format is a Blosc2 container format.
type Format int

// The formats Detect recognises. Reader reads Contiguous, Sparse, Beta and
// Packed.
const (
	Unknown    Format = iota
	Chunk             // a bare Blosc chunk (use blosc2.Decompress)
	Contiguous        // contiguous frame (cframe), frame format 2 or 3
	Sparse            // sparse frame: a directory of chunk files and chunks.b2frame
	Beta              // beta-era frame of C-Blosc2 v2.0.0-beta.2 … beta.5 (13-element header)
	PreTrailer        // development frame up to v2.0.0-beta.1 (no trailer); not readable
	Packed            // "packed" super-chunk of C-Blosc2 2.0.0a2 … a4 (96-byte header)
)

var formatNames = [...]string{"unknown", "chunk", "cframe", "sframe", "beta-frame", "pre-trailer-frame", "packed-schunk"}

// String returns the format's short name ("cframe", "sframe", …).
func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("format-%d", int(f))
}

// Detect tells the format of an input of size bytes from b, its first
// bytes (96 suffice for every format). A sparse frame's chunks.b2frame is
// reported as Sparse.
func Detect(b []byte, size int64) Format {
	switch frame.Detect(b, size) {
	case frame.KindChunk:
		return Chunk
	case frame.KindContiguous:
		return Contiguous
	case frame.KindSparseIndex:
		return Sparse
	case frame.KindBeta:
		return Beta
	case frame.KindPreTrailer:
		return PreTrailer
	case frame.KindPacked:
		return Packed
	}
	return Unknown
}

func detect(b []byte, size int64) Format { return Detect(b, size) }

// DetectFile tells the format of the file or directory at path: a
// directory holding chunks.b2frame is Sparse.
func DetectFile(path string) (Format, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Unknown, err
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(path, frame.SparseIndexName)); err != nil {
			return Unknown, fmt.Errorf("%w: directory %s has no %s: not a sparse frame", blosc2.ErrHeader, path, frame.SparseIndexName)
		}
		return Sparse, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Unknown, err
	}
	defer f.Close()
	b := make([]byte, 128)
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Unknown, err
	}
	return Detect(b[:n], st.Size()), nil
}

// unknownFormat is the error for inputs no reader handles.
func unknownFormat(f Format, first []byte) error {
	switch f {
	case Chunk:
		return fmt.Errorf("%w: input is a bare Blosc chunk, not a frame (use blosc2.Decompress)", blosc2.ErrInvalidOption)
	case PreTrailer:
		return fmt.Errorf("%w: development frame without trailer (C-Blosc2 ≤ v2.0.0-beta.1, general_flags %#02x); no released reader reads it", blosc2.ErrUnsupported, byteAt(first, frame.PosFlags))
	}
	n := min(len(first), 16)
	return fmt.Errorf("%w: not a Blosc2 frame, sparse frame, beta frame or packed super-chunk (starts % x)", blosc2.ErrHeader, first[:n])
}

func byteAt(b []byte, i int) byte {
	if i < len(b) {
		return b[i]
	}
	return 0
}
