package framewriter

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
)

// TestVLMetaAndMetaUpdates adds, updates and deletes vlmetalayers and
// rewrites a metalayer in place, as C-Blosc2's API allows.
func TestVLMetaAndMetaUpdates(t *testing.T) {
	m := &memFile{}
	w, err := NewWriterAt(m, 0, WithMetalayer("fixed", []byte("12345678")), WithVLMetalayer("a", []byte("one")))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(testData(10000, 1)); err != nil {
		t.Fatal(err)
	}
	steps := []error{
		w.SetVLMetalayer("b", []byte("two")),
		w.SetVLMetalayer("a", []byte("uno")),
		w.SetVLMetalayer("c", bytes.Repeat([]byte("three"), 1000)),
		w.DeleteVLMetalayer("b"),
		w.UpdateMetalayer("fixed", []byte("abc")),
	}
	for i, err := range steps {
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if err := w.DeleteVLMetalayer("b"); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Fatalf("deleting a missing vlmetalayer: %v", err)
	}
	if err := w.UpdateMetalayer("fixed", []byte("123456789")); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Fatalf("growing a metalayer: %v", err)
	}
	if err := w.AddMetalayer("late", []byte{1}); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Fatalf("metalayer after a chunk: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := framereader.NewReaderBytes(m.b)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.VLMetalayerNames(); fmt.Sprint(got) != "[a c]" {
		t.Fatalf("vlmetalayers %v", got)
	}
	if v, _ := r.VLMetalayer("a"); string(v) != "uno" {
		t.Fatalf("a = %q", v)
	}
	if v, _ := r.Metalayer("fixed"); string(v) != "abc45678" {
		t.Fatalf("fixed = %q", v)
	}
	if err := w.SetVLMetalayer("x", nil); !errors.Is(err, blosc2.ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// TestWriterRefusals checks what C-Blosc2 could not read is refused.
func TestWriterRefusals(t *testing.T) {
	w, _ := NewWriterAt(&memFile{}, 0)
	if err := w.WriteChunk(nil); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Errorf("empty chunk: %v", err)
	}
	if err := w.WriteCompressedChunk([]byte{1, 2, 3}); err == nil {
		t.Error("garbage chunk accepted")
	}
	w.WriteChunk(testData(1000, 1))
	vl, _ := blosc2.CompressVL(nil, [][]byte{testData(100, 2)}, nil)
	if err := w.WriteCompressedChunk(vl); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Errorf("VL-block chunk after a regular one: %v", err)
	}
	for i := range 16 {
		if err := w.SetVLMetalayer(fmt.Sprint("v", i), []byte{1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.SetVLMetalayer("v16", []byte{1}); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Errorf("17th vlmetalayer: %v", err)
	}
	if err := w.FillSpecial(10, blosc2.SpecialZero, 100); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Errorf("FillSpecial on a non-empty frame: %v", err)
	}
	w.Close()
	for _, opt := range []WriterOption{
		WithMetalayer("", nil), WithMetalayer(string(make([]byte, 32)), nil), WithSpecials(7),
		WithCParams(blosc2.CParams{Level: 12}),
	} {
		if _, err := NewWriterAt(&memFile{}, 0, opt); err == nil {
			t.Error("bad option accepted")
		}
	}
	var many []WriterOption
	for i := range 17 {
		many = append(many, WithMetalayer(fmt.Sprint("m", i), nil))
	}
	if _, err := NewWriterAt(&memFile{}, 0, many...); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Errorf("17 metalayers: %v", err)
	}
}

// failWriter fails after n bytes.
type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		n := f.n
		f.n = 0
		return n, errors.New("disk full")
	}
	f.n -= len(p)
	return len(p), nil
}

// TestWriterFailingDestination checks that a write error sticks and
// Close reports it.
func TestWriterFailingDestination(t *testing.T) {
	for _, limit := range []int{0, 50, 200, 5000} {
		w, err := NewWriter(&failWriter{n: limit})
		if err != nil {
			t.Fatal(err)
		}
		var werr error
		for i := 0; i < 5 && werr == nil; i++ {
			werr = w.WriteChunk(testData(4000, uint64(i)))
		}
		cerr := w.Close()
		if werr == nil && cerr == nil {
			t.Fatalf("limit %d: no error", limit)
		}
		if err := w.Close(); err == nil && cerr != nil {
			t.Fatalf("limit %d: second Close forgot the error", limit)
		}
	}
}

// TestReaderConcurrent reads one frame from many goroutines at once
// (run with -race).
func TestReaderConcurrent(t *testing.T) {
	m := &memFile{}
	w, _ := NewWriterAt(m, 0)
	var want []byte
	for i, n := range []int{8000, 3000, 8000, 16000, 500} {
		raw := testData(n, uint64(i))
		want = append(want, raw...)
		w.WriteChunk(raw)
	}
	w.Close()
	r, err := framereader.NewReaderBytes(m.b)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				off := (g*997 + k*331) % len(want)
				p := make([]byte, min(3000, len(want)-off))
				if n, err := r.ReadAt(p, int64(off)); (err != nil && err != io.EOF) || !bytes.Equal(p[:n], want[off:off+n]) {
					t.Errorf("ReadAt(%d): %v", off, err)
					return
				}
				if _, err := r.DecodeChunk(nil, k%r.NumChunks()); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestTruncateChunks replaces the last chunks of a contiguous and a sparse
// frame in an Append session, with an index-only special among the
// removed ones: the frame reads as the kept chunks plus the new ones, with
// the right sizes, for framereader and (when its tool is at hand)
// C-Blosc2; variable-size frames are refused.
func TestTruncateChunks(t *testing.T) {
	const cs = 3000
	for _, sparse := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "t.b2frame")
		create := Create
		if sparse {
			create = CreateSparse
		}
		w, err := create(path, WithoutSync())
		if err != nil {
			t.Fatal(err)
		}
		var want [][]byte
		for i := range 5 {
			raw := testData(cs, uint64(i))
			if i == 3 {
				raw = make([]byte, cs)
				err = w.WriteSpecial(blosc2.SpecialZero, cs, nil)
			} else {
				err = w.WriteChunk(raw)
			}
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, raw)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		a, err := Append(path, WithoutSync())
		if err != nil {
			t.Fatal(err)
		}
		if err := a.TruncateChunks(6); !errors.Is(err, blosc2.ErrInvalidOption) {
			t.Fatalf("keeping more chunks than there are: %v", err)
		}
		if err := a.TruncateChunks(2); err != nil {
			t.Fatal(err)
		}
		if a.NumChunks() != 2 || a.Nbytes() != 2*cs {
			t.Fatalf("after truncation: %d chunks, %d bytes", a.NumChunks(), a.Nbytes())
		}
		want = want[:2]
		for i := range 2 {
			raw := testData(cs-i*1000, uint64(10+i)) // the last one shorter
			if err := a.WriteChunk(raw); err != nil {
				t.Fatal(err)
			}
			want = append(want, raw)
		}
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		r, err := framereader.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var got, all []byte
		for i := range r.NumChunks() {
			if got, err = r.DecodeChunk(got, i); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range want {
			all = append(all, c...)
		}
		info := r.Info()
		r.Close()
		if !bytes.Equal(got, all) || info.Nbytes != int64(len(all)) {
			t.Fatalf("sparse %v: %d bytes decoded, header nbytes %d, want %d", sparse, len(got), info.Nbytes, len(all))
		}
		if _, err := os.Stat("/work/cref/bin/b2c"); err == nil || os.Getenv("BLOSC2_B2C") != "" {
			cCheck(t, path, all, false)
		}
		if !sparse {
			// One pass over a plain reader meets the removed chunks and
			// says so at the end.
			b, _ := os.ReadFile(path)
			sr, err := framereader.NewChunkReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			for err == nil {
				_, err = sr.Next()
			}
			if !errors.Is(err, blosc2.ErrUnsupported) {
				t.Fatalf("streaming a frame with removed chunks: %v", err)
			}
		}

		// The last chunk is shorter now: the sizes vary.
		a, err = Append(path, WithoutSync())
		if err != nil {
			t.Fatal(err)
		}
		if err := a.WriteChunk(testData(cs, 99)); err != nil {
			t.Fatal(err)
		}
		if err := a.TruncateChunks(1); !errors.Is(err, blosc2.ErrUnsupported) {
			t.Fatalf("variable sizes: %v", err)
		}
		a.Close()
	}
}

// TestTruncateChunksWithoutChecksums: TruncateChunks on a frame that keeps
// no checksums (WithoutChecksums, or one written by C-Blosc2 and appended
// to) keeps the frame readable; it panicked after FillSpecial.
func TestTruncateChunksWithoutChecksums(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.b2frame")
	w, err := Create(path, WithoutChecksums(), WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.FillSpecial(1000, blosc2.SpecialZero, 80); err != nil {
		t.Fatal(err)
	}
	if err := w.TruncateChunks(5); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := Append(path, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	if err := a.TruncateChunks(3); err != nil {
		t.Fatal(err)
	}
	if err := a.WriteChunk(testData(80, 1)); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := framereader.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := make([]byte, r.Size())
	if _, err := r.ReadAt(got, 0); err != nil || r.NumChunks() != 4 || r.Checksums() != "none" ||
		!bytes.Equal(got, append(make([]byte, 240), testData(80, 1)...)) {
		t.Fatalf("%d chunks, checksums %s: %v", r.NumChunks(), r.Checksums(), err)
	}
}

// TestWriteCompressedPieces: chunks written in pieces (blosc2.Chunk, blocks
// compressed on several goroutines) give the frame, and the sparse frame's
// chunk files, that the same chunks in one slice give, checksums included;
// an empty Chunk, or one whose pieces do not hold its cbytes, is refused.
func TestWriteCompressedPieces(t *testing.T) {
	p := blosc2.CParams{Codec: blosc2.LZ4, Level: 5, TypeSize: 8, Filters: blosc2.Pipeline(blosc2.Filter{ID: blosc2.Shuffle}),
		BlockSize: 16 << 10, Concurrency: 4}
	var raws [][]byte
	for i := range 3 {
		raw := make([]byte, 200_000-i*30_000)
		for k := 0; k+8 <= len(raw); k += 8 {
			binary.LittleEndian.PutUint64(raw[k:], uint64(k*k/7+i))
		}
		raws = append(raws, raw)
	}
	write := func(w *Writer, pieces bool) {
		t.Helper()
		var c blosc2.Chunk
		defer c.Release()
		for _, raw := range raws {
			var err error
			if pieces {
				if err = c.Compress(nil, raw, &p); err == nil {
					if len(c.Pieces()) < 2 {
						t.Fatalf("a chunk of %d blocks in %d piece", len(raw)/p.BlockSize, len(c.Pieces()))
					}
					err = w.WriteCompressed(&c)
				}
			} else {
				var chunk []byte
				if chunk, err = blosc2.Compress(nil, raw, &p); err == nil {
					err = w.WriteCompressedChunk(chunk)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	var frames [2]bytes.Buffer
	var dirs [2]string
	for i, pieces := range []bool{false, true} {
		w, err := NewWriter(&frames[i], WithCParams(p))
		if err != nil {
			t.Fatal(err)
		}
		write(w, pieces)
		dirs[i] = filepath.Join(t.TempDir(), "s.b2frame")
		if w, err = CreateSparse(dirs[i], WithCParams(p)); err != nil {
			t.Fatal(err)
		}
		write(w, pieces)
	}
	if !bytes.Equal(frames[0].Bytes(), frames[1].Bytes()) {
		t.Fatalf("the frame written in pieces differs (%d and %d bytes)", frames[0].Len(), frames[1].Len())
	}
	r, err := framereader.NewReaderBytes(frames[1].Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if _, err := r.WriteTo(&got); err != nil || !bytes.Equal(got.Bytes(), bytes.Join(raws, nil)) {
		t.Fatalf("the frame written in pieces does not decode to the data (checksums checked): %v", err)
	}
	for _, name := range []string{"chunks.b2frame", "00000000.chunk", "00000001.chunk", "00000002.chunk"} {
		a, errA := os.ReadFile(filepath.Join(dirs[0], name))
		b, errB := os.ReadFile(filepath.Join(dirs[1], name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Fatalf("sparse frame's %s differs when written in pieces (%v, %v)", name, errA, errB)
		}
	}

	w, err := NewWriter(io.Discard, WithCParams(p))
	if err != nil {
		t.Fatal(err)
	}
	var empty blosc2.Chunk
	if err := w.WriteCompressed(&empty); !errors.Is(err, blosc2.ErrTruncated) {
		t.Errorf("an empty Chunk: %v, want ErrTruncated", err)
	}
}
