package b2nd

import (
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2"

	"github.com/blosc2go/blosc2/framewriter"
)

// Create creates the file (or, with WithSparse, the directory) at path and
// returns a Writer for an array of the given shape and NumPy dtype
// ("<f8", "|u1", a structured type...). A negative shape[0] makes an array
// that grows along its first axis as rows are written; its final extent is
// recorded by Close. The result is a frame with a "b2nd" metalayer that
// C-Blosc2 (b2nd_open) and python-blosc2 (blosc2.open) read.
func Create(path string, shape []int64, dtype string, opts ...WriterOption) (*Writer, error) {
	s, err := newSpec(shape, dtype, opts)
	if err != nil {
		return nil, err
	}
	fo, err := s.frameOptions()
	if err != nil {
		return nil, err
	}
	var fw *framewriter.Writer
	if s.opts.sparse {
		fw, err = framewriter.CreateSparse(path, fo...)
	} else {
		fw, err = framewriter.Create(path, fo...)
	}
	if err != nil {
		return nil, err
	}
	return newWriter(s, frameSink{fw}), nil
}

// NewWriter returns a Writer for an array written as a contiguous frame to
// w (see Create). When w can seek (an *os.File on a regular file, an
// io.WriteSeeker, an io.WriterAt) the frame is complete and patched at
// Close; on a pipe the header's sizes stay unpatched (framereader reads
// such frames, C-Blosc2 only after framewriter.Repair) and a growing
// array is refused, because its shape could not be recorded. Close does
// not close w.
func NewWriter(w io.Writer, shape []int64, dtype string, opts ...WriterOption) (*Writer, error) {
	s, err := newSpec(shape, dtype, opts)
	if err != nil {
		return nil, err
	}
	fo, err := s.frameOptions()
	if err != nil {
		return nil, err
	}
	if s.growing && !canSeek(w) {
		return nil, fmt.Errorf("%w: a growing array needs a destination that can seek, to record its final shape", blosc2.ErrInvalidOption)
	}
	fw, err := framewriter.NewWriter(w, fo...)
	if err != nil {
		return nil, err
	}
	return newWriter(s, frameSink{fw}), nil
}

// canSeek tells whether framewriter can patch w (its rule: a working
// Seek, or WriteAt on something other than an *os.File).
func canSeek(w io.Writer) bool {
	if ws, ok := w.(io.WriteSeeker); ok {
		if _, err := ws.Seek(0, io.SeekCurrent); err == nil {
			return true
		}
	}
	_, isFile := w.(*os.File)
	_, isAt := w.(io.WriterAt)
	return isAt && !isFile
}

// frameOptions are the framewriter options of the array: compression
// parameters with the b2nd block size (so that the frame header records
// blocknitems × typesize, as C-Blosc2 does), the "b2nd" metalayer first,
// then the user's.
func (s *arraySpec) frameOptions() ([]framewriter.WriterOption, error) {
	cp := s.cp
	cp.BlockSize = int(int64(s.dtype.Size) * int64(prod32(s.meta.BlockShape)))
	cp.Geometry = s.meta.Geometry()
	meta, err := s.meta.MarshalBinary()
	if err != nil {
		return nil, err
	}
	fo := []framewriter.WriterOption{framewriter.WithCParams(cp), framewriter.WithMetalayer(MetaName, meta)}
	for _, m := range s.opts.metalayers {
		fo = append(fo, framewriter.WithMetalayer(m.name, m.content))
	}
	if s.opts.noChecksums {
		fo = append(fo, framewriter.WithoutChecksums())
	}
	return fo, nil
}

func prod32(x []int32) int64 {
	p := int64(1)
	for _, v := range x {
		p *= int64(v)
	}
	return p
}

// frameSink stores an array's chunks in a frame.
type frameSink struct{ w *framewriter.Writer }

func (s frameSink) AppendChunk(c []byte) error { return s.w.WriteCompressedChunk(c) }

func (s frameSink) UpdateMeta(b []byte) error { return s.w.UpdateMetalayer(MetaName, b) }

func (s frameSink) TruncateChunks(n int64) error { return s.w.TruncateChunks(int(n)) }

func (s frameSink) Close() error { return s.w.Close() }

// Abort closes the frame after a failure; the frame is valid but holds
// only the chunks written so far.
func (s frameSink) Abort() error { return s.w.Close() }
