package framereader

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// TestStreamVectors reads every contiguous frame C-Blosc2 wrote front to
// back. Frames in append order decode to the manifest's digest; the others
// (special chunks between stored ones) must fail with ErrUnsupported, and
// only those.
func TestStreamVectors(t *testing.T) {
	ok, refused := 0, 0
	for _, v := range frameVectors(t) {
		if v.Params.Storage == "sframe" || v.Kind == "sframe" {
			continue
		}
		b := v.Read(t)
		for _, slow := range []bool{false, true} {
			var src io.Reader = bytes.NewReader(b)
			if slow {
				src = iotest.OneByteReader(src)
			}
			s, err := NewChunkReader(src)
			if err != nil {
				t.Fatalf("%s: %v", v.File, err)
			}
			var out bytes.Buffer
			_, err = s.WriteTo(&out)
			if err != nil {
				if !errors.Is(err, blosc2.ErrUnsupported) {
					t.Fatalf("%s: %v", v.File, err)
				}
				if !hasMidSpecial(t, b) {
					t.Fatalf("%s refused but in append order: %v", v.File, err)
				}
				if !slow {
					refused++
				}
				continue
			}
			if out.Len() != v.RawLen || testvec.SHA256(out.Bytes()) != v.RawSHA256 {
				t.Fatalf("%s: streamed %d bytes, digest differs", v.File, out.Len())
			}
			if len(v.Params.VLMetalayers) > 0 {
				c, err := s.VLMetalayer(v.Params.VLMetalayers[0].Name)
				if err != nil || string(c) != v.Params.VLMetalayers[0].Value {
					t.Fatalf("%s: vlmetalayer %q %v", v.File, c, err)
				}
			}
			if !slow {
				ok++
			}
		}
	}
	t.Logf("%d frames streamed, %d refused (special chunks between stored ones)", ok, refused)
}

// hasMidSpecial reports an index-only chunk before a stored one.
func hasMidSpecial(t *testing.T, b []byte) bool {
	r, err := NewReaderBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for i := range r.NumChunks() {
		ci, _ := r.ChunkInfo(i)
		if ci.Entry < 0 {
			seen = true
		} else if seen {
			return true
		}
	}
	return false
}

// TestStreamStopsAtFrameEnd checks that two concatenated frames can be
// read one after the other from one bufio.Reader.
func TestStreamStopsAtFrameEnd(t *testing.T) {
	var vs []testvec.Vector
	for _, v := range frameVectors(t) {
		if v.Kind == "cframe" && v.RawLen > 0 && len(vs) < 2 && !hasMidSpecial(t, v.Read(t)) {
			vs = append(vs, v)
		}
	}
	cat := append(vs[0].Read(t), vs[1].Read(t)...)
	br := bufio.NewReader(bytes.NewReader(cat))
	for _, v := range vs {
		s, err := NewChunkReader(br, WithMultistream(false))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if _, err := s.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if testvec.SHA256(out.Bytes()) != v.RawSHA256 {
			t.Fatalf("%s: digest differs", v.File)
		}
	}
}

// TestStreamTruncated cuts a frame at several points: every cut must give
// an error, never a short success.
func TestStreamTruncated(t *testing.T) {
	b := testvec.Kind(t, "cframe")[3].Read(t)
	for cut := 0; cut < len(b); cut += max(1, len(b)/200) {
		s, err := NewChunkReader(bytes.NewReader(b[:cut]))
		if err != nil {
			continue
		}
		if _, err := s.WriteTo(io.Discard); err == nil {
			t.Fatalf("cut at %d of %d: no error", cut, len(b))
		}
	}
}
