package framewriter

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// readAll decodes a frame file or directory with our reader.
func readAll(t *testing.T, path string) ([]byte, *framereader.Reader) {
	t.Helper()
	r, err := framereader.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	var out []byte
	for i := range r.NumChunks() {
		if out, err = r.DecodeChunk(out, i); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
	}
	r.Close()
	return out, r
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	os.MkdirAll(dst, 0o755)
	ents, _ := os.ReadDir(src)
	for _, e := range ents {
		copyFile(t, filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()))
	}
}

// appendPieces appends a fixed set of chunks and returns what they decode to.
func appendPieces(t *testing.T, w *Writer, seed uint64, chunk int) []byte {
	t.Helper()
	ts := w.CParams().TypeSize
	var want []byte
	raw := testData(chunk, seed)
	if err := w.WriteChunk(raw); err != nil {
		t.Fatal(err)
	}
	want = append(want, raw...)
	if err := w.WriteSpecial(blosc2.SpecialZero, chunk, nil); err != nil {
		t.Fatal(err)
	}
	want = append(want, make([]byte, chunk)...)
	raw = testData(chunk, seed+1)
	if err := w.WriteChunk(raw); err != nil {
		t.Fatal(err)
	}
	want = append(want, raw...)
	_ = ts
	return want
}

// TestAppendVectors appends chunks to copies of C-Blosc2's frames (fixed
// and variable sizes, metalayers, specials, filled, sparse) and checks
// that old and new data read back, metalayers and vlmetalayers survive,
// and C-Blosc2 opens the result when available.
func TestAppendVectors(t *testing.T) {
	names := map[string]bool{
		"frames/fr-blosclz-meta.b2frame": true, "frames/fr-lz4-16chunks-f64.b2frame": true,
		"frames/fr-varchunks-lz4.b2frame": true, "frames/fr-special-append-blosclz.b2frame": true,
		"frames/fr-fill-zeros-blosclz.b2frame": true, "frames/fr-lz4-empty.b2frame": true,
		"frames/fr-vlblocks-lz4.b2frame": false, "sframes/sf-special-blosclz.b2frame.d": true,
		"sframes/sf-lz4-meta.b2frame.d": true, "compat/vlblocks-lz4-variable-3.0.0.b2frame": false,
	}
	for _, v := range testvec.Load(t) {
		regular, ok := names[v.File]
		if !ok {
			continue
		}
		t.Run(v.File, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.b2frame")
			if v.Kind == "sframe" {
				copyDir(t, v.Path(), path)
			} else {
				copyFile(t, v.Path(), path)
			}
			old, r0 := readAll(t, path)
			w, err := Append(path, WithoutSync())
			if err != nil {
				t.Fatal(err)
			}
			if !regular {
				// VL-block frames take VL-block chunks only.
				if err := w.WriteChunk(testData(1000, 1)); err == nil {
					t.Fatal("regular chunk appended to a VL-block frame")
				}
				w.Close()
				return
			}
			chunk := 4000
			if cs := r0.Info().ChunkSize; cs > 0 {
				chunk = cs
			}
			want := append(old, appendPieces(t, w, 7, chunk)...)
			if err := w.SetVLMetalayer("added", []byte("day 2")); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got, r := readAll(t, path)
			if !bytes.Equal(got, want) {
				t.Fatalf("after append: %d bytes, want %d", len(got), len(want))
			}
			if len(r.Metalayers()) != len(r0.Metalayers()) {
				t.Fatal("metalayers lost")
			}
			names := r.VLMetalayerNames()
			if len(names) != len(r0.VLMetalayerNames())+1 || names[len(names)-1] != "added" {
				t.Fatalf("vlmetalayers %v", names)
			}
			if _, err := os.Stat("/work/cref/bin/b2c"); err == nil {
				cCheck(t, path, want, false)
			}
		})
	}
}

// TestAppendDays grows an archive over several sessions, each a valid
// frame for our reader and for C-Blosc2, and checks that a session that
// fails before the header is rewritten, or dies (no Close), leaves the
// previous frame intact, and that the next session then succeeds.
func TestAppendDays(t *testing.T) {
	for _, sparse := range []bool{false, true} {
		name := map[bool]string{false: "cframe", true: "sframe"}[sparse]
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "archive.b2frame")
			cp := blosc2.DefaultCParams()
			cp.Codec = blosc2.LZ4
			var w *Writer
			var err error
			opts := []WriterOption{WithCParams(cp), WithMetalayer("layout", []byte{1, 2, 3, 4}), WithoutSync()}
			if sparse {
				w, err = CreateSparse(path, opts...)
			} else {
				w, err = Create(path, opts...)
			}
			if err != nil {
				t.Fatal(err)
			}
			want := appendPieces(t, w, 1, 16000)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			for day := 2; day <= 6; day++ {
				snapshot := func() []byte {
					got, _ := readAll(t, path)
					return got
				}
				w, err := Append(path, WithoutSync())
				if err != nil {
					t.Fatalf("day %d: %v", day, err)
				}
				more := appendPieces(t, w, uint64(10*day), 16000)
				if err := w.UpdateMetalayer("layout", []byte{byte(day)}); err != nil {
					t.Fatal(err)
				}
				switch day {
				case 3:
					// Fail after the index and trailer, before the header.
					testHookBeforePatch = func() error { return errors.New("simulated failure") }
					err := w.Close()
					testHookBeforePatch = nil
					if err == nil {
						t.Fatal("Close succeeded despite the failure")
					}
					if got := snapshot(); !bytes.Equal(got, want) {
						t.Fatalf("day %d: failed append changed the frame", day)
					}
					continue
				case 4:
					// Die without Close (chunks written, nothing else).
					if !sparse {
						w.storage.release()
					}
					if got := snapshot(); !bytes.Equal(got, want) {
						t.Fatalf("day %d: dead append changed the frame", day)
					}
					continue
				}
				if err := w.Close(); err != nil {
					t.Fatalf("day %d: %v", day, err)
				}
				want = append(want, more...)
				got, r := readAll(t, path)
				if !bytes.Equal(got, want) {
					t.Fatalf("day %d: %d bytes, want %d", day, len(got), len(want))
				}
				if m, _ := r.Metalayer("layout"); m[0] != byte(day) || m[1] != 2 {
					t.Fatalf("day %d: metalayer %v", day, m)
				}
				if _, err := os.Stat("/work/cref/bin/b2c"); err == nil {
					cCheck(t, path, want, false)
				}
			}
		})
	}
}

// TestAppendNoop checks that a session without changes leaves the file
// byte for byte as it was.
func TestAppendNoop(t *testing.T) {
	v := testvec.Kind(t, "cframe")[5]
	path := filepath.Join(t.TempDir(), "f")
	copyFile(t, v.Path(), path)
	w, err := Append(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(path)
	if !bytes.Equal(a, v.Read(t)) {
		t.Fatal("no-op append changed the file")
	}
}

// TestAppendUnpatched appends to a frame written to a pipe: the result
// is a standard frame.
func TestAppendUnpatched(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := appendPieces(t, w, 3, 10000)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pipe.b2frame")
	os.WriteFile(path, buf.Bytes(), 0o644)
	w, err = Append(path, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, appendPieces(t, w, 4, 10000)...)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, r := readAll(t, path)
	if !bytes.Equal(got, want) || r.Info().Unpatched {
		t.Fatalf("got %d bytes (unpatched %v), want %d", len(got), r.Info().Unpatched, len(want))
	}
	if _, err := os.Stat("/work/cref/bin/b2c"); err == nil {
		cCheck(t, path, want, false)
	}
}

// TestAppendBecomesVariable appends a short chunk and then another to a
// fixed-size frame with index-only zero chunks: the frame turns variable
// (format 3) and the zero chunks must be stored for C-Blosc2 to size them.
func TestAppendBecomesVariable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	w, err := Create(path, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	want := appendPieces(t, w, 5, 8000)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w, err = Append(path, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{3000, 8000} {
		raw := testData(n, uint64(n))
		if err := w.WriteChunk(raw); err != nil {
			t.Fatal(err)
		}
		want = append(want, raw...)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, r := readAll(t, path)
	if !bytes.Equal(got, want) || r.Info().ChunkSize != 0 || r.Info().Version != 3 {
		t.Fatalf("got %d bytes, chunksize %d, version %d", len(got), r.Info().ChunkSize, r.Info().Version)
	}
	if _, err := os.Stat("/work/cref/bin/b2c"); err == nil {
		cCheck(t, path, want, false)
	}
}
