package b2nd

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/blosc2go/blosc2"
)

// memSink keeps what a Writer produces.
type memSink struct {
	meta   []byte
	chunks memSource
	closed bool
}

func (s *memSink) AppendChunk(c []byte) error {
	s.chunks = append(s.chunks, bytes.Clone(c))
	return nil
}

func (s *memSink) UpdateMeta(b []byte) error {
	if len(b) != len(s.meta) {
		return fmt.Errorf("metalayer changed length %d -> %d", len(s.meta), len(b))
	}
	s.meta = bytes.Clone(b)
	return nil
}

func (s *memSink) TruncateChunks(n int64) error {
	s.chunks = s.chunks[:n]
	return nil
}

func (s *memSink) Close() error { s.closed = true; return nil }
func (s *memSink) Abort() error { return nil }

func newMemWriter(t *testing.T, shape []int64, dtype string, opts ...WriterOption) (*Writer, *memSink) {
	t.Helper()
	spec, err := newSpec(shape, dtype, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := spec.meta.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	sink := &memSink{meta: b}
	return newWriter(spec, sink), sink
}

// Arrays written in pieces of random sizes, fixed or growing, read back
// whole and in slices.
func TestWriterRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dtypes := []string{"|u1", "<i2", "<f4", "<f8", "<c16", "|S3", "[('a', '<i4'), ('b', '|u1')]"}
	for it := range 200 {
		nd := rng.IntN(5)
		shape := make([]int64, nd)
		var cs, bs []int32
		for i := range nd {
			shape[i] = 1 + rng.Int64N(12)
			c := 1 + rng.Int32N(7)
			cs = append(cs, c)
			bs = append(bs, 1+rng.Int32N(c+1))
		}
		if nd > 1 && rng.IntN(15) == 0 {
			shape[1] = 0
		}
		dtype := dtypes[rng.IntN(len(dtypes))]
		growing := nd > 0 && rng.IntN(2) == 0 && !slices.Contains(shape[1:], 0)
		opts := []WriterOption{WithChunkShape(cs...), WithBlockShape(bs...)}
		if it%7 == 0 {
			opts = nil // default shapes
		}
		t.Run(fmt.Sprintf("%d_%v_%v_%v_%s_grow%v", it, shape, cs, bs, dtype, growing), func(t *testing.T) {
			declared := shape
			if growing {
				declared = append([]int64{-1}, shape[1:]...)
			}
			w, sink := newMemWriter(t, declared, dtype, opts...)
			g, err := newGeom(&Meta{Shape: shape, ChunkShape: w.spec.meta.ChunkShape, BlockShape: w.spec.meta.BlockShape}, w.spec.dtype.Size)
			if err != nil {
				t.Fatal(err)
			}
			arr := make([]byte, g.nitems*g.T)
			for i := range arr {
				arr[i] = byte(rng.Uint32())
			}
			for p := arr; len(p) > 0; {
				k := min(len(p), 1+rng.IntN(3*int(g.T)*8))
				if _, err := w.Write(p[:k]); err != nil {
					t.Fatal(err)
				}
				p = p[k:]
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			a, err := newArray(sink.meta, w.spec.dtype.Size, sink.chunks, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if m := a.Meta(); fmt.Sprint(m.Shape) != fmt.Sprint(shape) {
				t.Fatalf("shape %v, want %v", m.Shape, shape)
			}
			got, err := a.ReadAll(nil)
			if err != nil || !bytes.Equal(got, arr) {
				t.Fatalf("read back differs (%v)", err)
			}
			checkReads(t, a.g, sink.chunks, arr, 10)
		})
	}
}

// The telemetry case: one row per sample into a growing 2-D array.
func TestWriterAppendRows(t *testing.T) {
	w, sink := newMemWriter(t, []int64{-1, 3}, "<f8", WithChunkShape(100, 3), WithBlockShape(10, 3))
	var all []byte
	for i := range 1234 {
		row := make([]byte, 24)
		for j := range row {
			row[j] = byte(i*7 + j)
		}
		if err := w.AppendRows(row); err != nil {
			t.Fatal(err)
		}
		all = append(all, row...)
		if w.Rows() != int64(i+1) {
			t.Fatalf("rows %d", w.Rows())
		}
	}
	if err := w.AppendRows(make([]byte, 5)); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Fatalf("partial row: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(sink.chunks) != 13 {
		t.Fatalf("%d chunks", len(sink.chunks))
	}
	a, err := newArray(sink.meta, 8, sink.chunks, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := a.ReadAll(nil)
	if err != nil || !bytes.Equal(got, all) || a.Shape()[0] != 1234 {
		t.Fatalf("read back: %v %v", a.Shape(), err)
	}
	if _, err := w.Write([]byte{1}); !errors.Is(err, blosc2.ErrClosed) {
		t.Fatalf("write after close: %v", err)
	}
}

func TestWriterFixedShapeLimits(t *testing.T) {
	w, sink := newMemWriter(t, []int64{4, 2}, "|u1", WithChunkShape(3, 2), WithBlockShape(2, 1))
	if n, err := w.Write(make([]byte, 9)); n != 8 || !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Fatalf("overlong write: %d %v", n, err)
	}
	if err := w.Close(); err != nil || len(sink.chunks) != 2 || !sink.closed {
		t.Fatalf("close: %v, %d chunks", err, len(sink.chunks))
	}
	w, sink = newMemWriter(t, []int64{4, 2}, "|u1", WithChunkShape(3, 2), WithBlockShape(2, 1))
	w.Write([]byte{1, 2, 3})
	if err := w.Close(); !errors.Is(err, blosc2.ErrTruncated) {
		t.Fatalf("short array: %v", err)
	}
	a, err := newArray(sink.meta, 1, sink.chunks, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := a.ReadAll(nil)
	if !bytes.Equal(got, []byte{1, 2, 0, 0, 0, 0, 0, 0}) {
		t.Fatalf("short array reads %v", got)
	}
	// 0-d.
	w, sink = newMemWriter(t, nil, "<i4")
	w.Write([]byte{1, 2, 3, 4})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := sink.meta, 0; !bytes.Equal(b, []byte{0x97, 0, 0, 0x90, 0x90, 0x90, 0, 0xdb, 0, 0, 0, 3, '<', 'i', '4'}) {
		t.Fatalf("0-d meta %x", b)
	}
	a, err = newArray(sink.meta, 4, sink.chunks, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = a.ReadAll(nil)
	if !bytes.Equal(got, []byte{1, 2, 3, 4}) || len(sink.chunks) != 1 {
		t.Fatalf("0-d reads %v", got)
	}
	var wt bytes.Buffer
	if n, err := a.WriteTo(&wt); n != 4 || err != nil || !bytes.Equal(wt.Bytes(), got) {
		t.Fatalf("0-d WriteTo: %d %v", n, err)
	}
}

func TestCreateOptionErrors(t *testing.T) {
	for i, c := range []struct {
		shape []int64
		dtype string
		opts  []WriterOption
	}{
		{[]int64{3}, "<f3", nil},
		{[]int64{-1, 0}, "<f8", nil},
		{[]int64{3, -1}, "<f8", nil},
		{[]int64{3}, "<f8", []WriterOption{WithChunkShape(0)}},
		{[]int64{3}, "<f8", []WriterOption{WithChunkShape(2, 2)}},
		{[]int64{3}, "<f8", []WriterOption{WithBlockShape(-1)}},
		{make([]int64, 17), "<f8", nil},
		{[]int64{3}, "<f8", []WriterOption{WithMetalayer("b2nd", nil)}},
		{[]int64{1 << 40, 1 << 40}, "<f8", []WriterOption{WithChunkShape(1<<20, 1<<20), WithBlockShape(1, 1)}},
	} {
		if _, err := newSpec(c.shape, c.dtype, c.opts); !errors.Is(err, blosc2.ErrInvalidOption) {
			t.Errorf("case %d: %v", i, err)
		}
	}
}
