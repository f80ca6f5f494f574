package stream

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// member is one frame of a concatenation and the bytes it holds.
type member struct {
	name  string
	frame []byte
	data  []byte // nil for C vectors: checked by digest
	sha   string
	n     int
}

// unpatchedFrame writes data to a plain io.Writer (no Seek): the pipe form.
func unpatchedFrame(t *testing.T, data []byte, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(struct{ io.Writer }{&buf}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func digest(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// members builds frames of every kind a concatenation meets: patched and
// unpatched, empty, several codecs and typesizes, and frames C-Blosc2
// 3.3.2 wrote (checked against the digests of their manifest).
func members(t *testing.T) []member {
	data := testData(t)
	a, b, c := data[:60000], data[60000:150001], data[150001:]
	var ms []member
	add := func(name string, frame, raw []byte) {
		ms = append(ms, member{name: name, frame: frame, data: raw, sha: digest(raw), n: len(raw)})
	}
	f, err := EncodeAll(a, nil, WithCodec(blosc2.Zstd), WithChunkSize(30000))
	if err != nil {
		t.Fatal(err)
	}
	add("patched-zstd", f, a)
	add("unpatched-lz4-ts4", unpatchedFrame(t, b, WithCodec(blosc2.LZ4), WithTypeSize(4), WithChunkSize(40000)), b)
	e, err := EncodeAll(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	add("patched-empty", e, nil)
	add("unpatched-empty", unpatchedFrame(t, nil), nil)
	add("unpatched-blosclz-bitshuffle", unpatchedFrame(t, c, WithFilters(blosc2.Filter{ID: blosc2.BitShuffle}), WithChunkSize(65536)), c)
	// C-Blosc2's frames that can be read in one pass.
	nc := 0
	for _, v := range testvec.Kind(t, "cframe") {
		fb := v.Read(t)
		cr, err := framereader.NewChunkReader(bytes.NewReader(fb))
		if err != nil {
			continue
		}
		if _, err := cr.WriteTo(io.Discard); err != nil {
			continue // special chunks between stored ones: ReaderAt only
		}
		ms = append(ms, member{name: "c:" + v.File, frame: fb, sha: v.RawSHA256, n: v.RawLen})
		if nc++; nc == 3 {
			break
		}
	}
	if nc < 3 {
		t.Fatalf("only %d C-Blosc2 frame vectors", nc)
	}
	return ms
}

// checkOutput compares out with the members' data, frame by frame.
func checkOutput(t *testing.T, what string, out []byte, ms []member) {
	t.Helper()
	for _, m := range ms {
		if len(out) < m.n || digest(out[:m.n]) != m.sha {
			t.Fatalf("%s: frame %s: output differs (%d bytes left, want %d)", what, m.name, len(out), m.n)
		}
		out = out[m.n:]
	}
	if len(out) != 0 {
		t.Fatalf("%s: %d bytes too many", what, len(out))
	}
}

// TestConcatenation reads concatenations of 2 to 5 frames through every
// reader: Reader over a file, a pipe, a bytes.Reader and plain readers
// delivering one byte or half the asked bytes at a time, at concurrency 1
// and 3; DecodeAll; framereader's ChunkReader and NewReaders.
func TestConcatenation(t *testing.T) {
	all := members(t)
	dir := t.TempDir()
	for k := 2; k <= 5; k++ {
		for start := 0; start+k <= len(all); start += 2 {
			ms := all[start : start+k]
			var cat []byte
			var names []string
			for _, m := range ms {
				cat = append(cat, m.frame...)
				names = append(names, m.name)
			}
			label := strings.Join(names, "+")
			path := filepath.Join(dir, fmt.Sprintf("cat%d-%d.b2frame", k, start))
			if err := os.WriteFile(path, cat, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := DecodeAll(cat, nil)
			if err != nil {
				t.Fatalf("DecodeAll %s: %v", label, err)
			}
			checkOutput(t, "DecodeAll "+label, out, ms)

			cr, err := framereader.NewChunkReader(iotest.HalfReader(bytes.NewReader(cat)))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if _, err := cr.WriteTo(&buf); err != nil {
				t.Fatalf("ChunkReader %s: %v", label, err)
			}
			checkOutput(t, "ChunkReader "+label, buf.Bytes(), ms)

			frs, err := framereader.NewReaders(bytes.NewReader(cat), int64(len(cat)))
			if err != nil || len(frs) != k {
				t.Fatalf("NewReaders %s: %d frames, %v", label, len(frs), err)
			}
			var off int64
			for i, fr := range frs {
				if fr.Offset() != off {
					t.Fatalf("NewReaders %s: frame %d at %d, want %d", label, i, fr.Offset(), off)
				}
				off += int64(len(ms[i].frame))
			}

			for _, conc := range []int{1, 3} {
				sources := map[string]func() io.Reader{
					"bytes":   func() io.Reader { return bytes.NewReader(cat) },
					"onebyte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(cat)) },
					"half":    func() io.Reader { return iotest.HalfReader(bytes.NewReader(cat)) },
					"file": func() io.Reader {
						f, err := os.Open(path)
						if err != nil {
							t.Fatal(err)
						}
						t.Cleanup(func() { f.Close() })
						return f
					},
					"pipe": func() io.Reader {
						pr, pw, err := os.Pipe()
						if err != nil {
							t.Fatal(err)
						}
						go func() { pw.Write(cat); pw.Close() }()
						t.Cleanup(func() { pr.Close() })
						return pr
					},
				}
				for sname, src := range sources {
					r, err := NewReader(src(), WithReaderConcurrency(conc))
					if err != nil {
						t.Fatalf("%s %s: %v", sname, label, err)
					}
					got, err := io.ReadAll(r)
					if err != nil {
						t.Fatalf("%s conc %d %s: %v", sname, conc, label, err)
					}
					checkOutput(t, sname+" "+label, got, ms)
					r.Close()
				}
			}
		}
	}
}

// TestConcatenationRandomAccess seeks and reads at offsets across frame
// boundaries of a file holding four frames (one of them empty).
func TestConcatenationRandomAccess(t *testing.T) {
	ms := members(t)[:5]
	var cat, want []byte
	for _, m := range ms {
		cat = append(cat, m.frame...)
		want = append(want, m.data...)
	}
	path := filepath.Join(t.TempDir(), "cat.b2frame")
	os.WriteFile(path, cat, 0o644)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f, WithReaderConcurrency(2))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Size() != int64(len(want)) {
		t.Fatalf("Size %d, want %d", r.Size(), len(want))
	}
	for _, off := range []int{0, 59999, 60000, 60001, 149999, 150001, len(want) - 1} {
		for _, n := range []int{1, 17, 150001, 300000} {
			n = min(n, len(want)-off)
			p := make([]byte, n)
			k, err := r.ReadAt(p, int64(off))
			if k != n || (err != nil && err != io.EOF) || !bytes.Equal(p, want[off:off+n]) {
				t.Fatalf("ReadAt(%d, %d) = %d, %v", n, off, k, err)
			}
		}
		if _, err := r.Seek(int64(off), io.SeekStart); err != nil {
			t.Fatal(err)
		}
		rest, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(rest, want[off:]) {
			t.Fatalf("Seek(%d) then ReadAll: %d bytes, %v", off, len(rest), err)
		}
	}
}

// TestTrailingGarbage: bytes after the last frame that start no frame are
// an error naming their offset, from every kind of source; with
// WithMultistream(false) the first frame is read and the rest ignored.
func TestTrailingGarbage(t *testing.T) {
	ms := members(t)
	frame, raw := ms[0].frame, ms[0].data
	second := ms[1].frame
	for _, tail := range [][]byte{{0}, []byte("garbage after the frame"), bytes.Repeat([]byte{0}, 200), second[:50]} {
		cat := append(append([]byte(nil), frame...), tail...)
		for _, src := range []func() io.Reader{
			func() io.Reader { return bytes.NewReader(cat) },
			func() io.Reader { return iotest.HalfReader(bytes.NewReader(cat)) },
		} {
			r, err := NewReader(src(), WithReaderConcurrency(1))
			if err == nil {
				_, err = io.ReadAll(r)
			}
			if err == nil || !strings.Contains(err.Error(), fmt.Sprint(len(frame))) {
				t.Fatalf("%d trailing bytes: error %v, want one naming offset %d", len(tail), err, len(frame))
			}
			if !errors.Is(err, blosc2.ErrCorrupt) && !errors.Is(err, blosc2.ErrTruncated) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			r, err = NewReader(src(), WithMultistream(false))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, raw) {
				t.Fatalf("single frame: %d bytes, %v", len(got), err)
			}
		}
	}
	// A second frame cut short is truncation, not silence.
	cat := append(append([]byte(nil), frame...), second[:len(second)-1]...)
	if _, err := DecodeAll(cat, nil); !errors.Is(err, blosc2.ErrTruncated) {
		t.Fatalf("cut second frame: %v", err)
	}
}

// TestWriterAppendsToFile: a Writer on a file opened with O_APPEND (a
// shell's >>) that already holds a frame, and one on a file positioned
// after a frame, both leave a file that decodes to both streams; the
// second is patched in place when it can be.
func TestWriterAppendsToFile(t *testing.T) {
	data := testData(t)
	a, b := data[:70000], data[70000:200000]
	first, err := EncodeAll(a, nil, WithChunkSize(16384))
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"O_APPEND", "offset"} {
		path := filepath.Join(t.TempDir(), "log.b2frame")
		os.WriteFile(path, first, 0o644)
		var f *os.File
		if mode == "O_APPEND" {
			f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		} else {
			f, err = os.OpenFile(path, os.O_WRONLY, 0)
			if err == nil {
				_, err = f.Seek(0, io.SeekEnd)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, conc := range []int{1, 2} {
			w, err := NewWriter(f, WithChunkSize(16384), WithConcurrency(conc), WithCodec(blosc2.LZ4))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(b); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
		f.Close()
		cat, _ := os.ReadFile(path)
		got, err := DecodeAll(cat, nil)
		want := append(append(append([]byte(nil), a...), b...), b...)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: %d bytes, %v", mode, len(got), err)
		}
		if !bytes.Equal(cat[:len(first)], first) {
			t.Fatalf("%s: the first frame changed", mode)
		}
		frs, err := framereader.NewReaders(bytes.NewReader(cat), int64(len(cat)))
		if err != nil || len(frs) != 3 {
			t.Fatalf("%s: %d frames, %v", mode, len(frs), err)
		}
		if wantUnpatched := mode == "O_APPEND"; frs[1].Info().Unpatched != wantUnpatched || frs[2].Info().Unpatched != wantUnpatched {
			t.Fatalf("%s: appended frames unpatched %v %v, want %v", mode, frs[1].Info().Unpatched, frs[2].Info().Unpatched, wantUnpatched)
		}
	}
}

// failingPatch is a seekable destination whose seek back to the header
// fails.
type failingPatch struct {
	bytes.Buffer
	pos int64
}

func (f *failingPatch) Seek(off int64, whence int) (int64, error) {
	if whence == io.SeekCurrent && off == 0 {
		return f.pos, nil
	}
	return 0, errors.New("seek refused")
}

func (f *failingPatch) Write(p []byte) (int, error) {
	f.pos += int64(len(p))
	return f.Buffer.Write(p)
}

// TestClosePatchError: a patch that fails makes Close, and every later
// Close, fail.
func TestClosePatchError(t *testing.T) {
	var dst failingPatch
	w, err := NewWriter(&dst)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("some data"))
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "seek refused") {
		t.Fatalf("Close: %v", err)
	}
	if err := w.Close(); err == nil {
		t.Fatal("second Close forgot the error")
	}
}
