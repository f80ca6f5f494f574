package stream

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framewriter"
	"github.com/blosc2go/blosc2/internal/testvec"
)

func testData(t testing.TB) []byte {
	b, err := os.ReadFile(filepath.Join(testvec.DataDir(), "nab_nyc_taxi.value.f64.bin"))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := os.ReadFile(filepath.Join(testvec.DataDir(), "nab_nyc_taxi.ts.i64.bin"))
	if err != nil {
		t.Fatal(err)
	}
	return append(b, ts...)
}

// frameSource returns frame as a random-access source (a bytes.Reader,
// an io.ReaderAt) or, when sequential, as a plain io.Reader, as a pipe or
// a socket gives it.
func frameSource(frame []byte, sequential bool) io.Reader {
	if sequential {
		return struct{ io.Reader }{bytes.NewReader(frame)}
	}
	return bytes.NewReader(frame)
}

// sourceKinds are the three ways a Reader reads its source, by name: front
// to back (a plain io.Reader, as a pipe gives it), through the index with
// the read-ahead (an io.ReaderAt that is not in memory, as a file is), and
// from memory (a bytes.Reader, whose bytes WriteTo into a bytes.Buffer
// decodes where they lie).
var sourceKinds = []struct {
	name string
	of   func(frame []byte) io.Reader
}{
	{"plain", func(frame []byte) io.Reader { return frameSource(frame, true) }},
	{"index", func(frame []byte) io.Reader {
		return io.NewSectionReader(bytes.NewReader(frame), 0, int64(len(frame)))
	}},
	{"memory", func(frame []byte) io.Reader { return frameSource(frame, false) }},
}

func compressAll(t testing.TB, data []byte, write func(w *Writer, data []byte) error, opts ...WriterOption) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(w, data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	return buf.Bytes()
}

func writeAll(w *Writer, data []byte) error { _, err := w.Write(data); return err }

func writeBytewise(w *Writer, data []byte) error {
	for i := range data {
		if _, err := w.Write(data[i : i+1]); err != nil {
			return err
		}
	}
	return nil
}

func writeOdd(w *Writer, data []byte) error {
	for len(data) > 0 {
		n := min(len(data), 7777)
		if _, err := w.Write(data[:n]); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

func readFrom(w *Writer, data []byte) error {
	_, err := w.ReadFrom(iotest.HalfReader(bytes.NewReader(data)))
	return err
}

func decompressAll(t testing.TB, frame []byte, opts ...ReaderOption) []byte {
	t.Helper()
	// A plain io.Reader: the sequential path.
	r, err := NewReader(struct{ io.Reader }{bytes.NewReader(frame)}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRoundTripOptions: every option and write pattern gives a frame that
// decodes to the input, and the same frame whatever the concurrency or
// the way writes were cut.
func TestRoundTripOptions(t *testing.T) {
	defer noLeak(t)()
	data := testData(t)
	type cfg struct {
		name string
		opts []WriterOption
	}
	cfgs := []cfg{
		{"default", nil},
		{"lz4-small-chunks", []WriterOption{WithCodec(codec.LZ4), WithChunkSize(10000), WithTypeSize(8)}},
		{"zstd-bitshuffle", []WriterOption{WithCodec(codec.Zstd), WithLevel(3), WithFilters(blosc2.Filter{ID: blosc2.BitShuffle}), WithChunkSize(65536)}},
		{"zlib-delta", []WriterOption{WithCodec(codec.Zlib), WithFilters(blosc2.Filter{ID: blosc2.Delta}, blosc2.Filter{ID: blosc2.Shuffle}), WithChunkSize(50000)}},
		{"lz4hc-blocksize-split", []WriterOption{WithCodec(codec.LZ4HC), WithBlockSize(4096), WithSplitMode(blosc2.SplitAlways), WithChunkSize(33333)}},
		{"store", []WriterOption{WithLevel(0), WithChunkSize(40000)}},
		{"dict", []WriterOption{WithCodec(codec.Zstd), WithDict(true), WithChunkSize(100000)}},
		{"meta", []WriterOption{WithMetalayer("layer", []byte{1, 2, 3}), WithVLMetalayer("note", []byte("hello")), WithChunkSize(60000)}},
	}
	for _, c := range cfgs {
		var ref []byte
		for _, conc := range []int{1, 2, 5} {
			for wi, write := range []func(*Writer, []byte) error{writeAll, writeOdd, readFrom, writeBytewise} {
				if wi == 3 && conc != 2 {
					continue // byte-wise writes are slow; once is enough
				}
				opts := append(append([]WriterOption(nil), c.opts...), WithConcurrency(conc))
				frame := compressAll(t, data, write, opts...)
				if ref == nil {
					ref = frame
				} else if !bytes.Equal(frame, ref) {
					t.Fatalf("%s: concurrency %d write pattern %d changed the frame", c.name, conc, wi)
				}
			}
		}
		for _, conc := range []int{1, 3} {
			if got := decompressAll(t, ref, WithReaderConcurrency(conc)); !bytes.Equal(got, data) {
				t.Fatalf("%s: round trip differs (reader concurrency %d)", c.name, conc)
			}
		}
	}
}

// TestEmptyAndTiny covers empty streams and streams shorter than a block.
func TestEmptyAndTiny(t *testing.T) {
	defer noLeak(t)()
	for _, n := range []int{0, 1, 31, 32, 100} {
		data := bytes.Repeat([]byte{7}, n)
		frame := compressAll(t, data, writeAll)
		if got := decompressAll(t, frame); !bytes.Equal(got, data) {
			t.Fatalf("%d bytes: round trip differs", n)
		}
	}
}

// TestFlush: data written before Flush is in the destination after it.
func TestFlush(t *testing.T) {
	defer noLeak(t)()
	data := testData(t)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, WithChunkSize(50000), WithConcurrency(3))
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data[:12345])
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if buf.Len() == 0 {
		t.Fatal("Flush wrote nothing")
	}
	w.Write(data[12345:])
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := decompressAll(t, buf.Bytes()); !bytes.Equal(got, data) {
		t.Fatal("flushed frame does not round trip")
	}
}

type failWriter struct {
	n   int // writes allowed
	err error
}

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, f.err
	}
	f.n--
	return len(p), nil
}

// TestFailingDestination: the destination's error surfaces on a later
// Write, Flush or Close, and nothing deadlocks or leaks.
func TestFailingDestination(t *testing.T) {
	defer noLeak(t)()
	data := testData(t)
	boom := errors.New("disk full")
	for _, conc := range []int{1, 4} {
		for allowed := 0; allowed < 6; allowed++ {
			w, err := NewWriter(&failWriter{n: allowed, err: boom}, WithChunkSize(8192), WithConcurrency(conc))
			if err != nil {
				t.Fatal(err)
			}
			var werr error
			for i := 0; i < 20 && werr == nil; i++ {
				_, werr = w.Write(data[:20000])
			}
			cerr := w.Close()
			if !errors.Is(werr, boom) && !errors.Is(cerr, boom) {
				t.Fatalf("concurrency %d, %d writes allowed: errors %v / %v, want %v", conc, allowed, werr, cerr, boom)
			}
			if _, err := w.Write([]byte{1}); err == nil {
				t.Fatal("Write after a failed Close succeeded")
			}
		}
	}
}

// TestFailingSource: a source error surfaces from Read and stops the
// read-ahead; a truncated frame is an error, not a short success.
func TestFailingSource(t *testing.T) {
	defer noLeak(t)()
	data := testData(t)
	frame := compressAll(t, data, writeAll, WithChunkSize(10000))
	boom := errors.New("network down")
	for _, cut := range []int{len(frame) / 3, len(frame) - 10} {
		src := io.MultiReader(bytes.NewReader(frame[:cut]), iotest.ErrReader(boom))
		r, err := NewReader(struct{ io.Reader }{src}, WithReaderConcurrency(3))
		if err != nil {
			if !errors.Is(err, boom) {
				t.Fatalf("NewReader: %v", err)
			}
			continue
		}
		_, err = io.ReadAll(r)
		if !errors.Is(err, boom) {
			t.Fatalf("cut %d: got %v, want %v", cut, err, boom)
		}
		r.Close()
		r, err = NewReader(struct{ io.Reader }{bytes.NewReader(frame[:cut])}, WithReaderConcurrency(3))
		if err == nil {
			_, err = io.ReadAll(r)
			r.Close()
		}
		if err == nil {
			t.Fatalf("frame cut at %d read without error", cut)
		}
	}
}

// TestCloseEarly: closing a Reader before EOF stops its goroutines.
func TestCloseEarly(t *testing.T) {
	defer noLeak(t)()
	frame := compressAll(t, testData(t), writeAll, WithChunkSize(5000))
	r, err := NewReader(struct{ io.Reader }{bytes.NewReader(frame)}, WithReaderConcurrency(4))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	if _, err := io.ReadFull(r, buf); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if _, err := r.Read(buf); !errors.Is(err, blosc2.ErrClosed) {
		t.Fatalf("Read after Close: %v", err)
	}
}

// TestReadAtParallel: ReadAt is stateless and safe for parallel calls
// (run under -race), and Seek moves Read.
func TestReadAtParallel(t *testing.T) {
	defer noLeak(t)()
	data := testData(t)
	frame := compressAll(t, data, writeAll, WithChunkSize(7000))
	r, err := NewReader(bytes.NewReader(frame))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				off := (g*7919 + i*104729) % len(data)
				n := min(len(data)-off, 1+(i*31)%20000)
				p := make([]byte, n)
				if k, err := r.ReadAt(p, int64(off)); k != n || (err != nil && err != io.EOF) {
					t.Errorf("ReadAt(%d, %d) = %d, %v", n, off, k, err)
					return
				}
				if !bytes.Equal(p, data[off:off+n]) {
					t.Errorf("ReadAt(%d, %d) differs", n, off)
					return
				}
			}
		}()
	}
	wg.Wait()
	if _, err := r.Seek(12345, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(rest, data[12345:]) {
		t.Fatalf("Read after Seek differs (%v)", err)
	}
}

// TestReset reuses a Writer and a Reader.
func TestReset(t *testing.T) {
	defer noLeak(t)()
	data := testData(t)
	var a, b bytes.Buffer
	w, _ := NewWriter(&a, WithChunkSize(9000), WithConcurrency(3))
	w.Write(data)
	w.Close()
	w.Reset(&b)
	w.Write(data)
	w.Close()
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("Reset writer wrote another frame")
	}
	r, err := NewReader(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	io.CopyN(io.Discard, r, 100)
	if err := r.Reset(bytes.NewReader(b.Bytes())); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Reset reader: %v", err)
	}
}

// TestResetReuse reads frames of many chunks to the end again and again
// through one Reader and writes them through one Writer, Reset in between,
// at several concurrencies: buffers kept for reuse across Reset must never
// be in two hands at once.
func TestResetReuse(t *testing.T) {
	defer noLeak(t)()
	data := testData(t)
	for _, conc := range []int{1, 2, 3} {
		w, err := NewWriter(io.Discard, WithChunkSize(20000), WithConcurrency(conc))
		if err != nil {
			t.Fatal(err)
		}
		var frames [][]byte
		for i := range 3 {
			var buf bytes.Buffer
			w.Reset(&buf)
			part := data[i*len(data)/8:]
			if _, err := w.Write(part); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			frames = append(frames, buf.Bytes())
		}
		r, err := NewReader(bytes.NewReader(frames[0]), WithReaderConcurrency(conc))
		if err != nil {
			t.Fatal(err)
		}
		for pass := range 6 {
			i := pass % 3
			if err := r.Reset(bytes.NewReader(frames[i])); err != nil {
				t.Fatal(err)
			}
			var got []byte
			if pass%2 == 0 {
				var out bytes.Buffer
				_, err = r.WriteTo(&out)
				got = out.Bytes()
			} else {
				got, err = io.ReadAll(r)
			}
			if err != nil || !bytes.Equal(got, data[i*len(data)/8:]) {
				t.Fatalf("concurrency %d pass %d: frame %d read back wrong (%v)", conc, pass, i, err)
			}
		}
		r.Close()
	}
}

// TestReadSizes reads frames with Read calls of sizes around the chunk
// size: smaller, equal, larger (decoded straight into the caller's buffer
// with one goroutine), from plain readers and io.ReaderAt sources, with
// zero and uninitialized chunks (read as zeros) between stored ones.
func TestReadSizes(t *testing.T) {
	defer noLeak(t)()
	const cs = 64 << 10
	data := testData(t)
	var frame bytes.Buffer
	fw, err := framewriter.NewWriter(&frame, framewriter.WithCParams(blosc2.CParams{Codec: blosc2.LZ4, Level: 5, TypeSize: 8,
		Filters: [6]blosc2.Filter{5: {ID: blosc2.Shuffle}}}))
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i := 0; i < len(data); i += cs {
		c := data[i:min(i+cs, len(data))]
		switch i / cs % 5 {
		case 1:
			err = fw.WriteSpecial(blosc2.SpecialZero, len(c), nil)
			c = make([]byte, len(c))
		case 3:
			err = fw.WriteSpecial(blosc2.SpecialUninit, len(c), nil)
			c = make([]byte, len(c))
		default:
			err = fw.WriteChunk(c)
		}
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, c...)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	sources := map[string]func() io.Reader{
		"reader":   func() io.Reader { return struct{ io.Reader }{bytes.NewReader(frame.Bytes())} },
		"readerat": func() io.Reader { return bytes.NewReader(frame.Bytes()) },
	}
	for name, src := range sources {
		for _, conc := range []int{1, 3} {
			for _, size := range []int{1, 4095, cs - 1, cs, cs + 1, 3*cs + 5, len(want) + 10} {
				r, err := NewReader(src(), WithReaderConcurrency(conc))
				if err != nil {
					t.Fatal(err)
				}
				var got []byte
				buf := make([]byte, size)
				for {
					for i := range buf {
						buf[i] = 0xee // stale bytes must never show
					}
					n, err := r.Read(buf)
					got = append(got, buf[:n]...)
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				r.Close()
				if !bytes.Equal(got, want) {
					t.Fatalf("%s, concurrency %d, reads of %d: %d bytes, equal %v", name, conc, size, len(got), bytes.Equal(got, want))
				}
			}
		}
	}
}
