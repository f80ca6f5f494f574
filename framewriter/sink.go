package framewriter

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2"
)

// sink is where the bytes of a contiguous frame go. Positions are relative
// to the frame's first byte.
type sink interface {
	// write appends p at the current end.
	write(p []byte) error
	// patch overwrites bytes at frame position off (seekable sinks only).
	patch(off int64, p []byte) error
	seekable() bool
	// finish is called once after the last write and patch.
	finish() error
	// release frees what the sink holds without writing more (a failed
	// or untouched session): it closes a file the package opened.
	release() error
}

// streamSink writes to a plain io.Writer.
type streamSink struct{ w io.Writer }

func (s *streamSink) write(p []byte) error {
	_, err := s.w.Write(p)
	return err
}

func (s *streamSink) patch(int64, []byte) error {
	return fmt.Errorf("%w: destination cannot seek", blosc2.ErrUnsupported)
}

func (s *streamSink) seekable() bool { return false }
func (s *streamSink) finish() error  { return nil }
func (s *streamSink) release() error { return nil }

// seekSink writes through an io.WriteSeeker, starting at the position it
// had when the writer was created, and leaves it at the frame's end.
type seekSink struct {
	w     io.WriteSeeker
	start int64
	pos   int64
}

func (s *seekSink) write(p []byte) error {
	n, err := s.w.Write(p)
	s.pos += int64(n)
	return err
}

func (s *seekSink) patch(off int64, p []byte) error {
	if _, err := s.w.Seek(s.start+off, io.SeekStart); err != nil {
		return err
	}
	_, werr := s.w.Write(p)
	_, serr := s.w.Seek(s.start+s.pos, io.SeekStart)
	return errors.Join(werr, serr)
}

func (s *seekSink) seekable() bool { return true }
func (s *seekSink) finish() error  { return nil }
func (s *seekSink) release() error { return nil }

// atSink writes through an io.WriterAt from a base offset.
type atSink struct {
	w    io.WriterAt
	base int64
	pos  int64
}

func (s *atSink) write(p []byte) error {
	n, err := s.w.WriteAt(p, s.base+s.pos)
	s.pos += int64(n)
	return err
}

func (s *atSink) patch(off int64, p []byte) error {
	_, err := s.w.WriteAt(p, s.base+off)
	return err
}

func (s *atSink) seekable() bool { return true }
func (s *atSink) finish() error  { return nil }
func (s *atSink) release() error { return nil }

// fileSink writes a file the package opened itself: it syncs before the
// header is patched (so the header never points at data a crash lost),
// truncates what lies past the frame, and closes the file.
type fileSink struct {
	atSink
	f      *os.File
	sync   bool
	closed bool
}

func (s *fileSink) patch(off int64, p []byte) error {
	if s.sync {
		if err := s.f.Sync(); err != nil {
			return err
		}
	}
	return s.atSink.patch(off, p)
}

func (s *fileSink) finish() error {
	if s.closed {
		return nil
	}
	s.closed = true
	err := s.f.Truncate(s.base + s.pos)
	if err == nil && s.sync {
		err = s.f.Sync()
	}
	return errors.Join(err, s.f.Close())
}

// release closes the file without further writes.
func (s *fileSink) release() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.f.Close()
}

// newSink picks the sink for w: seekable when w can seek (a Seek that
// fails, as on a pipe's *os.File, means it cannot), else through
// io.WriterAt from offset 0, else a plain stream. A file opened with
// O_APPEND gets a plain stream: its writes all go to its end, so the
// header cannot be patched, and the unpatched form is a valid frame after
// whatever the file held (a concatenation, which the readers read).
func newSink(w io.Writer) sink {
	if f, ok := w.(*os.File); ok && appendOnly(f) {
		return &streamSink{w: w}
	}
	if ws, ok := w.(io.WriteSeeker); ok {
		if pos, err := ws.Seek(0, io.SeekCurrent); err == nil {
			return &seekSink{w: ws, start: pos}
		}
	}
	if wa, ok := w.(io.WriterAt); ok {
		if _, isFile := w.(*os.File); !isFile {
			return &atSink{w: wa}
		}
	}
	return &streamSink{w: w}
}
