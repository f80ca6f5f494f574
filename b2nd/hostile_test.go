package b2nd

import (
	"bytes"

	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framewriter"
)

// Chunks that contradict the metalayer are reported, never trusted.
func TestHostileChunks(t *testing.T) {
	m := Meta{Shape: []int64{10, 6}, ChunkShape: []int32{4, 4}, BlockShape: []int32{2, 2}, DType: "<i2"}
	g, err := newGeom(&m, 2)
	if err != nil {
		t.Fatal(err)
	}
	arr := make([]byte, g.nitems*g.T)
	for i := range arr {
		arr[i] = byte(i)
	}
	good := encodeAll(t, g, arr, blosc2.DefaultCParams())
	meta, _ := m.MarshalBinary()
	small, _ := blosc2.Compress(nil, make([]byte, 10), nil)
	for name, c := range map[string]struct {
		src  memSource
		want error
	}{
		"missing chunk":   {good[:len(good)-1], blosc2.ErrCorrupt},
		"extra chunk":     {append(append(memSource{}, good...), good[0]), blosc2.ErrCorrupt},
		"short chunk":     {append(memSource{small}, good[1:]...), blosc2.ErrCorrupt},
		"truncated chunk": {append(memSource{good[0][:20]}, good[1:]...), blosc2.ErrHeader},
		"garbage chunk":   {append(memSource{bytes.Repeat([]byte{0xff}, 64)}, good[1:]...), blosc2.ErrHeader},
	} {
		_, err := newArray(meta, 2, c.src, nil, nil)
		if err == nil {
			r := &sliceReader{g: g, src: c.src}
			err = r.readSlice(make([]byte, len(arr)), []int64{0, 0}, g.shape)
		}
		if err == nil {
			t.Errorf("%s: no error", name)
		} else {
			checkSentinel(t, err)
		}
	}
	// A corrupt chunk (block starts past its end) fails both the whole
	// and the partial read paths.
	bm := Meta{Shape: []int64{64, 64}, ChunkShape: []int32{64, 64}, BlockShape: []int32{8, 64}, DType: "<i2"}
	bg, _ := newGeom(&bm, 2)
	barr := make([]byte, bg.nitems*2)
	for i := range barr {
		barr[i] = byte(i / 64)
	}
	bad := encodeAll(t, bg, barr, blosc2.DefaultCParams())
	if h, _ := blosc2.ParseHeader(bad[0]); h.Memcpyed() || h.Special() != blosc2.SpecialNone {
		t.Fatalf("test chunk is not compressed: %+v", h)
	}
	for i := 36; i < 64; i++ {
		bad[0][i] = 0x7f
	}
	r := &sliceReader{g: bg, src: bad}
	if err := r.readSlice(make([]byte, len(barr)), []int64{0, 0}, bg.shape); !errors.Is(err, blosc2.ErrCorrupt) {
		t.Errorf("corrupt chunk: %v", err)
	}
	if err := r.readSlice(make([]byte, 2), []int64{63, 0}, []int64{64, 1}); !errors.Is(err, blosc2.ErrCorrupt) {
		t.Errorf("corrupt chunk, one block: %v", err)
	}
	// Bad slices.
	a, err := newArray(meta, 2, good, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range [][2][]int64{
		{{0}, {1}}, {{0, 0}, {11, 1}}, {{-1, 0}, {1, 1}}, {{3, 0}, {2, 1}}, {{0, 0, 0}, {1, 1, 1}},
	} {
		if _, err := a.ReadSlice(nil, s[0], s[1]); !errors.Is(err, blosc2.ErrInvalidOption) {
			t.Errorf("slice %v: %v", s, err)
		}
	}
	if err := a.ReadSliceInto(make([]byte, 3), []int64{0, 0}, []int64{1, 2}); !errors.Is(err, blosc2.ErrInvalidOption) {
		t.Errorf("short buffer: %v", err)
	}
	a.Close()
	if _, err := a.ReadAll(nil); !errors.Is(err, blosc2.ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
	// A dtype that disagrees with the frame's typesize is reported by
	// DType; the bytes still read.
	lie, _ := (&Meta{Shape: m.Shape, ChunkShape: m.ChunkShape, BlockShape: m.BlockShape, DType: "<f8"}).MarshalBinary()
	if a, err := newArray(lie, 2, good, nil, nil); err != nil {
		t.Fatal(err)
	} else if _, err := a.DType(); !errors.Is(err, blosc2.ErrCorrupt) {
		t.Errorf("dtype lie: %v", err)
	} else if got, err := a.ReadAll(nil); err != nil || !bytes.Equal(got, arr) {
		t.Errorf("dtype lie: read %v", err)
	}
	// The frame's typesize must make the chunks the right size.
	if a, err := newArray(meta, 4, good, nil, nil); err == nil {
		if _, err := a.ReadAll(nil); !errors.Is(err, blosc2.ErrCorrupt) {
			t.Errorf("typesize lie: %v", err)
		}
	}
}

// FuzzOpen reads mutated b2nd files: every failure wraps a sentinel, and
// whatever opens reads consistently (whole array and a slice agree).
func FuzzOpen(f *testing.F) {
	// Small files only: the fuzzing engine minimises every new input, which
	// takes minutes for the larger vectors.
	for _, v := range ndVectors(f) {
		if v.Params.Storage == "cframe" && v.Params.FileLen <= 1<<14 {
			b, err := os.ReadFile(v.Path())
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := NewReaderBytes(b, WithMaxMemory(1<<20))
		if err != nil {
			checkSentinel(t, err)
			return
		}
		if a.NBytes() > 1<<22 {
			start := make([]int64, a.NDim())
			stop := make([]int64, a.NDim())
			for i, s := range a.Shape() {
				stop[i] = min(s, 2)
			}
			if _, err := a.ReadSlice(nil, start, stop); err != nil {
				checkSentinel(t, err)
			}
			return
		}
		all, err := a.ReadAll(nil)
		if err != nil {
			checkSentinel(t, err)
			return
		}
		start := make([]int64, a.NDim())
		stop := a.Shape()
		for i := range start {
			start[i] = stop[i] / 3
			stop[i] -= stop[i] / 4
		}
		got, err := a.ReadSlice(nil, start, stop)
		if err != nil {
			checkSentinel(t, err)
			return
		}
		if !bytes.Equal(got, refSlice(all, a.Shape(), start, stop, a.ItemSize())) {
			t.Fatalf("slice %v-%v disagrees with the whole array", start, stop)
		}
	})
}

func checkSentinel(t *testing.T, err error) {
	t.Helper()
	if !knownErr(err) {
		t.Fatalf("error wraps no sentinel: %v", err)
	}
}

// Arrays of the standalone Caterva library carry a "caterva" metalayer
// (5 elements, no dtype); they read with dtype |S<itemsize>.
func TestCatervaFallback(t *testing.T) {
	m := Meta{Shape: []int64{7, 5}, ChunkShape: []int32{4, 4}, BlockShape: []int32{2, 3}, NoDType: true}
	g, err := newGeom(&m, 4)
	if err != nil {
		t.Fatal(err)
	}
	arr := make([]byte, g.nitems*4)
	for i := range arr {
		arr[i] = byte(i)
	}
	meta, _ := m.MarshalBinary()
	cp := blosc2.DefaultCParams()
	cp.TypeSize, cp.BlockSize = 4, int(g.blockBytes())
	path := filepath.Join(t.TempDir(), "caterva.b2frame")
	fw, err := framewriter.Create(path, framewriter.WithCParams(cp), framewriter.WithMetalayer(CatervaMetaName, meta))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range encodeAll(t, g, arr, cp) {
		if err := fw.WriteCompressedChunk(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	dt, err := a.DType()
	if err != nil || dt.String() != "|S4" || a.Info().MetaName != CatervaMetaName {
		t.Fatalf("dtype %v %v, info %+v", dt, err, a.Info())
	}
	got, err := a.ReadAll(nil)
	if err != nil || !bytes.Equal(got, arr) {
		t.Fatalf("read: %v", err)
	}
	if _, err := OpenAppend(path); !errors.Is(err, blosc2.ErrUnsupported) {
		t.Fatalf("append to a Caterva array: %v", err)
	}
}
