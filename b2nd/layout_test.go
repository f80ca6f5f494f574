package b2nd

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// A worked example of the b2nd layout (README_B2ND_METALAYER.rst),
// checked against C-Blosc2.
func TestLayoutSpecExample(t *testing.T) {
	m := Meta{Shape: []int64{5, 7}, ChunkShape: []int32{3, 4}, BlockShape: []int32{2, 2}, DType: "|u1"}
	g, err := newGeom(&m, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.nchunks != 4 || g.chunkBytes() != 16 || g.blockBytes() != 4 || g.extItems != 48 {
		t.Fatalf("geometry %+v", g)
	}
	arr := make([]byte, 35)
	for i := range arr {
		arr[i] = byte(i + 1)
	}
	want := [][]byte{
		{1, 2, 8, 9, 3, 4, 10, 11, 15, 16, 0, 0, 17, 18, 0, 0},
		{5, 6, 12, 13, 7, 0, 14, 0, 19, 20, 0, 0, 21, 0, 0, 0},
		{22, 23, 29, 30, 24, 25, 31, 32, 0, 0, 0, 0, 0, 0, 0, 0},
		{26, 27, 33, 34, 28, 0, 35, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	}
	e := newChunkEncoder(g, blosc2.DefaultCParams())
	for k := range int64(4) {
		got := e.layout(k, arr, g.shape, []int64{0, 0})
		if !bytes.Equal(got, want[k]) {
			t.Errorf("chunk %d: %v, want %v", k, got, want[k])
		}
	}
}

// Laying out each vector's array (regenerated from its pattern) gives the
// chunks C-Blosc2 stored: the concatenation of the decompressed chunks
// matches the manifest's frame_raw_sha256. Reading those chunks back gives
// the array, whole and in random slices.
func TestLayoutVectors(t *testing.T) {
	for _, v := range ndVectors(t) {
		t.Run(v.File, func(t *testing.T) {
			m := v.meta()
			dt, err := ParseDType(m.DType)
			if err != nil {
				t.Fatal(err)
			}
			g, err := newGeom(&m, dt.Size)
			if err != nil {
				t.Fatal(err)
			}
			arr := genArray(t, dt, v.Pattern, v.Seed, g.nitems)
			if testvec.SHA256(arr) != v.RawSHA256 {
				t.Fatalf("generated array does not match the manifest")
			}
			e := newChunkEncoder(g, blosc2.DefaultCParams())
			var raw []byte
			for k := range g.nchunks {
				raw = append(raw, e.layout(k, arr, g.shape, make([]int64, g.ndim))...)
			}
			if len(raw) != v.Params.FrameRawLen || testvec.SHA256(raw) != v.Params.FrameRawSHA {
				t.Fatalf("chunks: %d bytes, want %d, digest differs", len(raw), v.Params.FrameRawLen)
			}
			for _, level := range []int{0, 5} {
				cp := blosc2.DefaultCParams()
				cp.Level = level
				checkReads(t, g, encodeAll(t, g, arr, cp), arr, 50)
			}
		})
	}
}

// checkReads reads the whole array and n random slices from src, serially
// and with goroutines.
func checkReads(t *testing.T, g *geom, src chunkSource, arr []byte, n int) {
	t.Helper()
	for _, threads := range []int{1, 3} {
		r := &sliceReader{g: g, src: src, dp: &blosc2.DParams{Concurrency: threads}}
		out := make([]byte, len(arr))
		if err := r.readSlice(out, make([]int64, g.ndim), g.shape); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, arr) {
			t.Fatalf("threads %d: whole array differs", threads)
		}
		rng := rand.New(rand.NewPCG(uint64(g.nitems), uint64(threads)))
		for range n {
			start, stop := randomSlice(rng, g.shape)
			want := refSlice(arr, g.shape, start, stop, int(g.T))
			got := make([]byte, len(want))
			if err := r.readSlice(got, start, stop); err != nil {
				t.Fatalf("threads %d: slice %v-%v: %v", threads, start, stop, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("threads %d: slice %v-%v differs", threads, start, stop)
			}
		}
	}
}

// Round trips over many geometries and item sizes, with chunk and block
// shapes that do and do not divide each other and the array.
func TestLayoutRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for it := range 300 {
		nd := rng.IntN(5)
		if it%50 == 0 {
			nd = 0
		}
		m := Meta{Shape: make([]int64, nd), ChunkShape: make([]int32, nd), BlockShape: make([]int32, nd)}
		for i := range nd {
			m.Shape[i] = rng.Int64N(13)
			if rng.IntN(10) == 0 && nd > 1 {
				m.Shape[i] = 0
			} else if m.Shape[i] == 0 {
				m.Shape[i] = 1
			}
			m.ChunkShape[i] = 1 + rng.Int32N(8)
			m.BlockShape[i] = 1 + rng.Int32N(m.ChunkShape[i]+2)
		}
		T := []int{1, 2, 3, 4, 8, 16, 7}[rng.IntN(7)]
		g, err := newGeom(&m, T)
		if err != nil {
			t.Fatalf("%+v: %v", m, err)
		}
		arr := make([]byte, g.nitems*int64(T))
		for i := range arr {
			arr[i] = byte(rng.Uint32()) | 1
		}
		cp := blosc2.DefaultCParams()
		cp.Level = rng.IntN(10)
		cp.Filters = blosc2.Pipeline([][]blosc2.Filter{{{ID: blosc2.Shuffle}}, {{ID: blosc2.Delta}, {ID: blosc2.Shuffle}},
			{{ID: blosc2.BitShuffle}}, nil}[rng.IntN(4)]...)
		t.Run(fmt.Sprintf("%v_%v_%v_T%d", m.Shape, m.ChunkShape, m.BlockShape, T), func(t *testing.T) {
			src := encodeAll(t, g, arr, cp)
			checkReads(t, g, src, arr, 20)
			// Padding is zero: every chunk byte that is not an array item.
			e := newChunkEncoder(g, blosc2.DefaultCParams())
			var items int
			for k := range g.nchunks {
				buf := e.layout(k, arr, g.shape, make([]int64, nd))
				items += len(buf) - bytes.Count(buf, []byte{0})
			}
			if g.nitems > 0 && items != len(arr) {
				t.Fatalf("chunks hold %d non-zero bytes, the array %d", items, len(arr))
			}
		})
	}
}

func TestDefaultShapes(t *testing.T) {
	for _, c := range []struct {
		shape  []int64
		T      int
		cs, bs []int32
	}{
		{[]int64{1000, 1000}, 8, []int32{131, 1000}, []int32{4, 1000}},
		{[]int64{10}, 8, []int32{10}, []int32{10}},
		{[]int64{-1, 3}, 8, []int32{43690, 3}, []int32{1365, 3}},
		{[]int64{}, 4, []int32{}, []int32{}},
		{[]int64{0, 5}, 4, []int32{1, 5}, []int32{1, 5}},
		{[]int64{4, 1 << 20}, 8, []int32{1, 131072}, []int32{1, 4096}},
	} {
		cs, bs := DefaultShapes(c.shape, c.T)
		if !slices.Equal(cs, c.cs) || !slices.Equal(bs, c.bs) {
			t.Errorf("%v×%d: %v %v, want %v %v", c.shape, c.T, cs, bs, c.cs, c.bs)
		}
	}
}
