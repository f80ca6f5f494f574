package framewriter

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
)

// streamFrame writes n chunks of the given sizes (0 = zero special) to a
// plain stream and returns the frame, the end of each chunk in it, and the
// data.
func streamFrame(t testing.TB, sizes []int, opts ...WriterOption) (frameBytes []byte, ends []int64, data [][]byte) {
	var buf bytes.Buffer
	cw := &countWriter{w: &buf}
	w, err := NewWriter(cw, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range sizes {
		var raw []byte
		if n < 0 {
			raw = make([]byte, -n)
			err = w.WriteSpecial(blosc2.SpecialZero, -n, nil)
		} else {
			raw = testData(n, uint64(i))
			err = w.WriteChunk(raw)
		}
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, raw)
		ends = append(ends, cw.n)
	}
	if err := w.SetVLMetalayer("v", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), ends, data
}

type countWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// checkRecovered recovers b[:cut] and checks that it holds exactly the
// chunks that ended before cut.
func checkRecovered(t *testing.T, b []byte, cut int64, ends []int64, data [][]byte) RecoverReport {
	t.Helper()
	var out bytes.Buffer
	rep, err := Recover(&out, bytes.NewReader(b[:cut]), cut)
	if err != nil {
		t.Fatalf("cut %d: %v", cut, err)
	}
	whole := 0
	for whole < len(ends) && ends[whole] <= cut {
		whole++
	}
	r, err := framereader.NewReaderBytes(out.Bytes())
	if err != nil {
		t.Fatalf("cut %d: recovered frame: %v", cut, err)
	}
	if r.Info().Unpatched {
		t.Fatalf("cut %d: recovered frame unpatched", cut)
	}
	if r.NumChunks() != whole || rep.Chunks != whole {
		t.Fatalf("cut %d: %d chunks (report %d), %d whole ones were written", cut, r.NumChunks(), rep.Chunks, whole)
	}
	for i := range whole {
		if whole > 20 && i != 0 && i != whole/2 && i < whole-2 {
			continue
		}
		got, err := r.DecodeChunk(nil, i)
		if err != nil || !bytes.Equal(got, data[i]) {
			t.Fatalf("cut %d: chunk %d: %v", cut, i, err)
		}
	}
	return rep
}

// TestRecoverEveryByte tears a small frame written to a stream (header
// never patched, as when the writer dies) at every byte: the recovered
// frame holds every whole chunk and nothing else.
func TestRecoverEveryByte(t *testing.T) {
	for _, mode := range []SpecialMode{SpecialsInline, SpecialsIndex} {
		sizes := []int{3000, 5000, -4000, 700, 5000, 4000}
		if mode == SpecialsIndex {
			// Fixed sizes: the zero chunk stays in the index only.
			sizes = []int{5000, 5000, -5000, 5000, 5000, 700}
		}
		b, ends, data := streamFrame(t, sizes, WithSpecials(mode))
		hl := int64(len(b)) - 1
		if h, err := framereader.NewReaderBytes(b); err == nil {
			hl = int64(h.Info().HeaderLen)
		}
		for cut := hl; cut <= int64(len(b)); cut++ {
			if mode == SpecialsIndex && cut < int64(len(b))-1 {
				// Torn before the index is whole: the zero chunk exists only
				// in it. Checked below.
				continue
			}
			checkRecovered(t, b, cut, ends, data)
		}
		if mode == SpecialsIndex {
			var out bytes.Buffer
			rep, err := Recover(&out, bytes.NewReader(b[:ends[3]]), ends[3])
			if err != nil || rep.IndexFound || rep.Chunks != 3 {
				t.Fatalf("index-layout tear: %+v %v", rep, err)
			}
		}
	}
}

// TestRecoverPatchedEveryByte tears a finished (patched) frame file at
// every byte.
func TestRecoverPatchedEveryByte(t *testing.T) {
	sizes := []int{3000, 5000, 700, 5000}
	_, ends, data := streamFrame(t, sizes, WithSpecials(SpecialsInline))
	m := &memFile{}
	w, err := NewWriterAt(m, 0, WithSpecials(SpecialsInline))
	if err != nil {
		t.Fatal(err)
	}
	for i := range sizes {
		if err := w.WriteChunk(data[i]); err != nil {
			t.Fatal(err)
		}
	}
	w.SetVLMetalayer("v", []byte("kept"))
	w.Close()
	for cut := int64(97); cut <= int64(len(m.b)); cut++ {
		rep := checkRecovered(t, m.b, cut, ends, data)
		if cut == int64(len(m.b)) && !rep.Intact {
			t.Fatal("whole frame not reported intact")
		}
	}
}

// TestRecoverLarge tears a 300-chunk frame at every chunk boundary and one
// byte either side, and checks a sample with C-Blosc2.
func TestRecoverLarge(t *testing.T) {
	sizes := make([]int, 300)
	for i := range sizes {
		sizes[i] = 2000 + 8*(i%7)
		if i%50 == 49 {
			sizes[i] = -2048
		}
	}
	b, ends, data := streamFrame(t, sizes)
	for i, e := range ends {
		for _, cut := range []int64{e - 1, e, e + 1} {
			if testing.Short() && i%10 != 0 {
				break
			}
			if cut > int64(len(b)) {
				continue
			}
			checkRecovered(t, b, cut, ends, data)
		}
		if i%100 == 0 {
			if _, err := os.Stat("/work/cref/bin/b2c"); err == nil {
				path := filepath.Join(t.TempDir(), "torn.b2frame")
				os.WriteFile(path, b[:e+3], 0o644)
				if _, err := RecoverFile(path, WithoutSync()); err != nil {
					t.Fatal(err)
				}
				var want []byte
				for _, d := range data[:i+1] {
					want = append(want, d...)
				}
				cCheck(t, path, want, false)
			}
		}
	}
}

// TestRecoverFileInPlace recovers a torn file in place and checks the
// vlmetalayers of a complete trailer survive a torn append session.
func TestRecoverFileInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.b2frame")
	w, err := Create(path, WithoutSync(), WithVLMetalayer("keep", []byte("me")))
	if err != nil {
		t.Fatal(err)
	}
	want := appendPieces(t, w, 1, 8000)
	w.Close()
	// A session that dies after two whole chunks and half a third.
	w, err = Append(path, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		raw := testData(8000, uint64(100+i))
		if err := w.WriteChunk(raw); err != nil {
			t.Fatal(err)
		}
		if i < 2 {
			want = append(want, raw...)
		}
	}
	fs := w.storage.(*contiguous).sink.(*fileSink)
	st, _ := fs.f.Stat()
	fs.f.Truncate(st.Size() - 100)
	fs.release()
	rep, err := RecoverFile(path, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.IndexFound || !rep.VLMetaFound || rep.Chunks != 5 {
		t.Fatalf("report %+v", rep)
	}
	got, r := readAll(t, path)
	if !bytes.Equal(got, want) {
		t.Fatalf("recovered %d bytes, want %d", len(got), len(want))
	}
	if v, err := r.VLMetalayer("keep"); err != nil || string(v) != "me" {
		t.Fatalf("vlmetalayer %q %v", v, err)
	}
	if _, err := os.Stat("/work/cref/bin/b2c"); err == nil {
		cCheck(t, path, want, false)
	}
	// Recovering again finds it intact.
	if rep, err := RecoverFile(path); err != nil || !rep.Intact {
		t.Fatalf("second recovery: %+v %v", rep, err)
	}
}

// TestRepair patches frames written to a stream, in place and by copy,
// and compares with what a seekable Writer writes.
func TestRepair(t *testing.T) {
	sizes := []int{3000, 5000, -4000, 700, 5000}
	b, _, _ := streamFrame(t, sizes, WithSpecials(SpecialsInline))
	m := &memFile{}
	w, _ := NewWriterAt(m, 0, WithSpecials(SpecialsInline))
	for i, n := range sizes {
		if n < 0 {
			w.WriteSpecial(blosc2.SpecialZero, -n, nil)
		} else {
			w.WriteChunk(testData(n, uint64(i)))
		}
	}
	w.SetVLMetalayer("v", []byte("kept"))
	w.Close()

	out := &memFile{}
	if err := Repair(&atWriter{m: out}, bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.b, m.b) {
		t.Fatalf("Repair differs from a patched frame at byte %d", firstDiff(out.b, m.b))
	}
	path := filepath.Join(t.TempDir(), "p.b2frame")
	os.WriteFile(path, b, 0o644)
	if err := RepairFile(path, WithoutSync()); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !bytes.Equal(got, m.b) {
		t.Fatalf("RepairFile differs at byte %d", firstDiff(got, m.b))
	}
	if _, err := os.Stat("/work/cref/bin/b2c"); err == nil {
		want, _ := readAll(t, path)
		cCheck(t, path, want, false)
	}
	// Repairing a patched frame copies it.
	out2 := &memFile{}
	if err := Repair(&atWriter{m: out2}, bytes.NewReader(m.b)); err != nil || !bytes.Equal(out2.b, m.b) {
		t.Fatalf("Repair of a patched frame: %v", err)
	}
	// A non-seekable destination is refused.
	var bb bytes.Buffer
	if err := Repair(&bb, bytes.NewReader(b)); err == nil {
		t.Fatal("Repair to a bytes.Buffer succeeded")
	}
}

// atWriter is an io.Writer + io.WriterAt over a memFile.
type atWriter struct {
	m   *memFile
	pos int64
}

func (a *atWriter) Write(p []byte) (int, error) {
	n, err := a.m.WriteAt(p, a.pos)
	a.pos += int64(n)
	return n, err
}

func (a *atWriter) WriteAt(p []byte, off int64) (int, error) { return a.m.WriteAt(p, off) }

// TestRecoverNeverDiscards: recovery keeps whole frames before a torn one
// (appends with >>) byte for byte, saves what it cuts to a side file, and
// leaves alone a file of complete frames and a complete frame followed by
// bytes it does not understand.
func TestRecoverNeverDiscards(t *testing.T) {
	dir := t.TempDir()
	d1, d2, d3 := sine(20000, 0), sine(15000, 2), sine(30000, 3)
	var f1, f2, f3 bytes.Buffer
	for _, c := range []struct {
		buf  *bytes.Buffer
		data []byte
	}{{&f1, d1}, {&f2, d2}, {&f3, d3}} {
		w, err := NewWriter(struct{ *bytes.Buffer }{c.buf}) // the pipe form, as >> writes
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(c.data); i += 40000 {
			w.WriteChunk(c.data[i:min(i+40000, len(c.data))])
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	whole := append(append([]byte(nil), f1.Bytes()...), f2.Bytes()...)

	// Two whole frames, then the third torn in its last chunk.
	torn := append(append([]byte(nil), whole...), f3.Bytes()[:f3.Len()-500]...)
	path := filepath.Join(dir, "appended.b2frame")
	os.WriteFile(path, torn, 0o644)
	rep, err := RecoverFile(path, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if rep.Frames != 2 || rep.Offset != int64(len(whole)) || !bytes.Equal(got[:len(whole)], whole) {
		t.Fatalf("report %+v; the whole frames changed: %v", rep, !bytes.Equal(got[:len(whole)], whole))
	}
	frs, err := framereader.NewReaders(bytes.NewReader(got), int64(len(got)))
	if err != nil || len(frs) != 3 {
		t.Fatalf("%d frames after recovery: %v", len(frs), err)
	}
	back := make([]byte, frs[2].Size())
	if _, err := frs[2].ReadAt(back, 0); err != nil || !bytes.Equal(back, d3[:len(back)]) || len(back) != len(d3)-40000 {
		t.Fatalf("third frame recovered to %d bytes: %v", len(back), err)
	}
	side, err := os.ReadFile(rep.DroppedFile)
	if err != nil || rep.Dropped == 0 || !bytes.Equal(side, torn[int64(len(torn))-rep.Dropped:]) {
		t.Fatalf("side file %q: %d bytes, %v; want the %d bytes cut", rep.DroppedFile, len(side), err, rep.Dropped)
	}

	// Complete frames: untouched.
	os.WriteFile(path, whole, 0o644)
	if rep, err := RecoverFile(path); err != nil || !rep.Intact || rep.Frames != 2 {
		t.Fatalf("complete concatenation: %+v %v", rep, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, whole) {
		t.Fatal("a complete concatenation was changed")
	}
	// A complete (patched) frame followed by 1 MB it does not understand.
	var patched bytes.Buffer
	pf, _ := os.CreateTemp(dir, "p")
	w, _ := NewWriter(pf)
	w.WriteChunk(d1)
	w.Close()
	pf.Close()
	pb, _ := os.ReadFile(pf.Name())
	patched.Write(pb)
	junk := bytes.Repeat([]byte("not blosc "), 100000)
	withJunk := append(patched.Bytes(), junk...)
	os.WriteFile(path, withJunk, 0o644)
	if _, err := RecoverFile(path); !errors.Is(err, blosc2.ErrUnsupported) {
		t.Fatalf("complete frame + junk: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, withJunk) {
		t.Fatal("recover changed a complete frame followed by junk")
	}
}
