package framewriter

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/frame"
)

// sparseSession writes raw chunks (nil = a zero special chunk of 5000
// bytes) with w and returns what each decodes to. It does not close w: the
// writer dies.
func sparseSession(t *testing.T, w *Writer, sizes []int, seed uint64) [][]byte {
	t.Helper()
	var data [][]byte
	for i, n := range sizes {
		var raw []byte
		var err error
		if n == 0 {
			raw = make([]byte, 5000)
			err = w.WriteSpecial(blosc2.SpecialZero, len(raw), nil)
		} else {
			raw = testData(n, seed+uint64(i))
			err = w.WriteChunk(raw)
		}
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, raw)
	}
	return data
}

// checkSparse opens dir with framereader and checks its chunks decode to
// data and its metalayer "m" and vlmetalayer "v" (when wantVL is not nil).
func checkSparse(t *testing.T, dir string, data [][]byte, wantVL []byte) {
	t.Helper()
	r, err := framereader.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.NumChunks() != len(data) {
		t.Fatalf("%d chunks, want %d", r.NumChunks(), len(data))
	}
	for i, want := range data {
		got, err := r.DecodeChunk(nil, i)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("chunk %d: %v, equal %v", i, err, bytes.Equal(got, want))
		}
	}
	if m, ok := r.Metalayer("m"); !ok || string(m) != "meta" {
		t.Fatalf("metalayer m = %q, %v", m, ok)
	}
	if wantVL != nil {
		if v, err := r.VLMetalayer("v"); err != nil || !bytes.Equal(v, wantVL) {
			t.Fatalf("vlmetalayer v = %q, %v", v, err)
		}
	}
}

// TestRecoverSparseDeadSession: a writer dies after 6 whole chunks and a
// torn seventh; every whole chunk comes back, with the frame's metalayer.
func TestRecoverSparseDeadSession(t *testing.T) {
	for name, mode := range map[string]SpecialMode{"index": SpecialsIndex, "inline": SpecialsInline} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "f.b2frame")
			w, err := CreateSparse(dir, WithMetalayer("m", []byte("meta")), WithSpecials(mode), WithoutSync())
			if err != nil {
				t.Fatal(err)
			}
			sizes := []int{8000, 8000, 8000, 8000, 8000, 8000, 8000}
			if mode == SpecialsInline {
				sizes[2] = 0 // stored as a file, so a crash keeps it
			}
			data := sparseSession(t, w, sizes, 1)
			last := filepath.Join(dir, frame.ChunkFileName(6))
			st, err := os.Stat(last)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(last, st.Size()/2); err != nil {
				t.Fatal(err)
			}
			// Before recovery the directory holds the empty frame.
			checkSparse(t, dir, nil, nil)

			rep, err := RecoverSparse(dir)
			if err != nil {
				t.Fatal(err)
			}
			var nbytes int64
			for _, d := range data[:6] {
				nbytes += int64(len(d))
			}
			if rep.Intact || rep.Chunks != 6 || rep.Dropped != st.Size()/2 || rep.Nbytes != nbytes {
				t.Fatalf("report %+v", rep)
			}
			checkSparse(t, dir, data[:6], nil)

			// Recovering again finds nothing more to do.
			rep, err = RecoverSparse(dir)
			if err != nil || !(rep.Chunks == 6 && !rep.Intact && rep.Dropped > 0) {
				t.Fatalf("second recovery: %+v, %v", rep, err)
			}
			// An append overwrites the torn file and continues.
			a, err := Append(dir, WithoutSync())
			if err != nil {
				t.Fatal(err)
			}
			more := sparseSession(t, a, []int{3000}, 99)
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			checkSparse(t, dir, append(data[:6:6], more...), nil)
		})
	}
}

// TestRecoverSparseDeadAppend: a complete frame, then an append session
// that dies; both sessions' chunks and the first session's vlmetalayer are
// kept. A gap in the chunk files ends the scan.
func TestRecoverSparseDeadAppend(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "f.b2frame")
	w, err := CreateSparse(dir, WithMetalayer("m", []byte("meta")), WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	data := sparseSession(t, w, []int{4096, 4096, 4096}, 1)
	if err := w.SetVLMetalayer("v", []byte("first")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := Append(dir, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, sparseSession(t, a, []int{4096, 4096, 4096, 1000}, 10)...)
	if err := a.SetVLMetalayer("v", []byte("lost with the session")); err != nil {
		t.Fatal(err)
	}
	// Chunk files 3..6 exist; remove 5: recovery keeps 0..4.
	gone := filepath.Join(dir, frame.ChunkFileName(5))
	st, _ := os.Stat(filepath.Join(dir, frame.ChunkFileName(6)))
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	rep, err := RecoverSparse(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Chunks != 5 || rep.Dropped != st.Size() || rep.Nbytes != 5*4096 {
		t.Fatalf("report %+v", rep)
	}
	checkSparse(t, dir, data[:5], []byte("first"))
}

// TestRecoverSparseInterruptedClose: Close wrote its new index to the
// temporary file and died before the rename; recovery finishes it, so the
// session's vlmetalayer survives too.
func TestRecoverSparseInterruptedClose(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "f.b2frame")
	w, err := CreateSparse(dir, WithMetalayer("m", []byte("meta")), WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	data := sparseSession(t, w, []int{2000, 2000}, 5)
	if err := w.SetVLMetalayer("v", []byte("session")); err != nil {
		t.Fatal(err)
	}
	died := errors.New("died before the rename")
	testHookBeforePatch = func() error { return died }
	err = w.Close()
	testHookBeforePatch = nil
	if !errors.Is(err, died) {
		t.Fatalf("Close: %v", err)
	}
	rep, err := RecoverSparse(dir)
	if err != nil || rep.Intact || rep.Chunks != 2 {
		t.Fatalf("report %+v, %v", rep, err)
	}
	checkSparse(t, dir, data, []byte("session"))
	if _, err := os.Stat(filepath.Join(dir, frame.SparseIndexName+".tmp")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("temporary index left: %v", err)
	}

	// A torn temporary index is removed and the frame recovered from the
	// chunk files.
	dir2 := filepath.Join(t.TempDir(), "g.b2frame")
	w2, err := CreateSparse(dir2, WithMetalayer("m", []byte("meta")), WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	data2 := sparseSession(t, w2, []int{2000, 2000, 2000}, 7)
	if err := os.WriteFile(filepath.Join(dir2, frame.SparseIndexName+".tmp"), []byte("b2frame torn"), 0o666); err != nil {
		t.Fatal(err)
	}
	rep, err = RecoverSparse(dir2)
	if err != nil || rep.Chunks != 3 {
		t.Fatalf("report %+v, %v", rep, err)
	}
	checkSparse(t, dir2, data2, nil)
}

// TestRecoverSparseIntact: a closed frame is left byte for byte as it is.
func TestRecoverSparseIntact(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "f.b2frame")
	w, err := CreateSparse(dir, WithMetalayer("m", []byte("meta")), WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	data := sparseSession(t, w, []int{3000, 0, 3000}, 3)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(dir, frame.SparseIndexName)
	before, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := RecoverSparse(dir)
	if err != nil || !rep.Intact || rep.Chunks != 3 || rep.Nbytes != 11000 {
		t.Fatalf("report %+v, %v", rep, err)
	}
	after, _ := os.ReadFile(idx)
	if !bytes.Equal(before, after) {
		t.Fatal("chunks.b2frame rewritten")
	}
	checkSparse(t, dir, data, nil)

	if _, err := RecoverSparse(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("recovered a directory that does not exist")
	}
}
