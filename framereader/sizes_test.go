package framereader_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/framewriter"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/stream"
)

// TestSizesThatDisagree: a header whose nbytes disagrees with what its
// chunks hold (2^62 for 1 MiB; a few bytes more or less than the last
// chunk) is refused with ErrCorrupt naming both numbers, by NewReader
// (so Size never reports it), DecodeAll and the front-to-back reader;
// a stored chunk whose size disagrees with the layout, too.
func TestSizesThatDisagree(t *testing.T) {
	for _, variable := range []bool{false, true} {
		var buf bytes.Buffer
		w, err := framewriter.NewWriter(&seekBuffer{buf: &buf}, framewriter.WithoutChecksums())
		if err != nil {
			t.Fatal(err)
		}
		sizes := []int{1 << 20, 1 << 20, 300000}
		if variable {
			sizes = []int{1 << 20, 200000, 1 << 20}
		}
		for _, n := range sizes {
			c := make([]byte, n)
			for j := range c {
				c[j] = byte(j*31 + j>>9)
			}
			if err := w.WriteChunk(c); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		good := buf.Bytes()
		total := int64(0)
		for _, n := range sizes {
			total += int64(n)
		}
		for _, lie := range []int64{1 << 62, total + 5, total - 5} {
			b := bytes.Clone(good)
			binary.BigEndian.PutUint64(b[frame.PosNbytes:], uint64(lie))
			r, err := framereader.NewReaderBytes(b)
			if err == nil {
				t.Fatalf("variable %v, nbytes %d: opened, Size %d", variable, lie, r.Size())
			}
			if !errors.Is(err, blosc2.ErrCorrupt) && !errors.Is(err, blosc2.ErrHeader) {
				t.Fatalf("variable %v, nbytes %d: %v", variable, lie, err)
			}
			if _, err := stream.DecodeAll(b, nil); err == nil {
				t.Fatalf("variable %v, nbytes %d: DecodeAll succeeded", variable, lie)
			}
			sr, err := stream.NewReader(struct{ io.Reader }{bytes.NewReader(b)})
			if err == nil {
				_, err = io.Copy(io.Discard, sr)
			}
			if !errors.Is(err, blosc2.ErrCorrupt) && !errors.Is(err, blosc2.ErrHeader) {
				t.Fatalf("variable %v, nbytes %d: front to back: %v", variable, lie, err)
			}
		}
	}
}

// seekBuffer is an in-memory io.WriteSeeker, so the header gets patched.
type seekBuffer struct {
	buf *bytes.Buffer
	pos int64
}

func (s *seekBuffer) Write(p []byte) (int, error) {
	b := s.buf.Bytes()
	if end := s.pos + int64(len(p)); end > int64(len(b)) {
		s.buf.Write(make([]byte, end-int64(len(b))))
		b = s.buf.Bytes()
	}
	copy(b[s.pos:], p)
	s.pos += int64(len(p))
	return len(p), nil
}

func (s *seekBuffer) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		s.pos = off
	case io.SeekCurrent:
		s.pos += off
	case io.SeekEnd:
		s.pos = int64(s.buf.Len()) + off
	}
	return s.pos, nil
}

// TestManySpecialChunksStreamLazily: a frame of a few hundred bytes whose
// index records millions of zero chunks (blosc2_schunk_fill_special's
// layout) is read front to back one chunk at a time: reading the first
// thousand allocates kilobytes, not a chunk header for each of them.
func TestManySpecialChunksStreamLazily(t *testing.T) {
	var buf bytes.Buffer
	cp := blosc2.DefaultCParams()
	cp.TypeSize = 8
	w, err := framewriter.NewWriter(&seekBuffer{buf: &buf}, framewriter.WithCParams(cp), framewriter.WithoutChecksums())
	if err != nil {
		t.Fatal(err)
	}
	const n = 4_000_000
	if err := w.FillSpecial(n, blosc2.SpecialZero, 8); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 1024 {
		t.Fatalf("frame of %d bytes", buf.Len())
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	cr, err := framereader.NewChunkReader(struct{ io.Reader }{bytes.NewReader(buf.Bytes())})
	if err != nil {
		t.Fatal(err)
	}
	var c []byte
	for range 1000 {
		if c, err = cr.NextAppend(c); err != nil {
			t.Fatal(err)
		}
		if h, err := blosc2.ParseHeader(c); err != nil || h.Nbytes != 8 || h.Special() != blosc2.SpecialZero {
			t.Fatalf("chunk %+v %v", h, err)
		}
	}
	runtime.ReadMemStats(&ms)
	if alloc := ms.TotalAlloc - before; alloc > 1<<20 {
		t.Fatalf("reading 1000 of %d special chunks allocated %d bytes", n, alloc)
	}
}
