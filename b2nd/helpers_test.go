package b2nd

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// ndVector is a b2nd vector with the manifest fields testvec does not
// decode (the array's fill pattern and seed).
type ndVector struct {
	testvec.Vector
	Pattern string
	Seed    uint64
}

func ndVectors(tb testing.TB) []ndVector {
	tb.Helper()
	extra := map[string]struct {
		Pattern string `json:"pattern"`
		Seed    uint64 `json:"seed"`
	}{}
	f, err := os.Open(filepath.Join(testvec.Dir(), "manifest.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v struct {
			File   string `json:"file"`
			Params struct {
				Pattern string `json:"pattern"`
				Seed    uint64 `json:"seed"`
			} `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatal(err)
		}
		extra[v.File] = v.Params
	}
	var out []ndVector
	for _, v := range testvec.Kind(tb, "b2nd") {
		e := extra[v.File]
		if e.Pattern == "" {
			e.Pattern = "arange"
		}
		out = append(out, ndVector{Vector: v, Pattern: e.Pattern, Seed: e.Seed})
	}
	return out
}

func (v *ndVector) meta() Meta {
	return Meta{Shape: v.Params.Shape, ChunkShape: v.Params.Chunkshape, BlockShape: v.Params.Blockshape, DType: v.Params.Dtype}
}

// genArray fills n items of dtype dt with the corpus's b2nd patterns.
func genArray(tb testing.TB, dt DType, pattern string, seed uint64, n int64) []byte {
	tb.Helper()
	T := dt.Size
	out := make([]byte, 0, n*int64(T))
	var bo binary.ByteOrder = binary.LittleEndian
	if dt.Order == '>' {
		bo = binary.BigEndian
	}
	item := make([]byte, T)
	for i := range uint64(n) {
		clear(item)
		switch pattern {
		case "random":
			var r [8]byte
			binary.LittleEndian.PutUint64(r[:], testvec.Rnd(seed, i))
			if dt.Kind == 'b' {
				item[0] = r[0] & 1
				break
			}
			for j := range item {
				item[j] = r[j%8]
			}
		case "arange", "smooth":
			var f, fi float64
			if pattern == "arange" {
				f, fi = float64(i)*0.25, -float64(i)*0.5
			} else {
				f, fi = testvec.Smooth(seed, i), -testvec.Smooth(seed+1, i)
			}
			switch dt.Kind {
			case 'b':
				if i%3 == 0 {
					item[0] = 1
				}
			case 'i', 'u':
				v := i
				if pattern == "smooth" {
					v = uint64(int64(f))
				}
				switch T {
				case 1:
					item[0] = byte(v)
				case 2:
					bo.PutUint16(item, uint16(v))
				case 4:
					bo.PutUint32(item, uint32(v))
				case 8:
					bo.PutUint64(item, v)
				}
			case 'f':
				if T == 4 {
					bo.PutUint32(item, math.Float32bits(float32(f)))
				} else {
					bo.PutUint64(item, math.Float64bits(f))
				}
			case 'c':
				if T == 8 {
					bo.PutUint32(item, math.Float32bits(float32(f)))
					bo.PutUint32(item[4:], math.Float32bits(float32(fi)))
				} else {
					bo.PutUint64(item, math.Float64bits(f))
					bo.PutUint64(item[8:], math.Float64bits(fi))
				}
			default:
				tb.Fatalf("no generator for %v", dt)
			}
		default:
			tb.Fatalf("unknown pattern %q", pattern)
		}
		out = append(out, item...)
	}
	return out
}

// refSlice cuts [start, stop) out of a C-order array one item at a time:
// the obvious implementation the readers are checked against.
func refSlice(arr []byte, shape, start, stop []int64, T int) []byte {
	nd := len(shape)
	if nd == 0 {
		return append([]byte(nil), arr[:T]...)
	}
	var out []byte
	for i := range nd {
		if start[i] == stop[i] {
			return out
		}
	}
	idx := append([]int64(nil), start...)
	hi := make([]int64, nd)
	for i := range nd {
		hi[i] = stop[i] - 1
	}
	for {
		off := ravel(idx, shape) * int64(T)
		out = append(out, arr[off:off+int64(T)]...)
		if !next(idx, start, hi) {
			return out
		}
	}
}

// randomSlice picks a box inside shape, sometimes empty or a single item.
func randomSlice(r *rand.Rand, shape []int64) (start, stop []int64) {
	start = make([]int64, len(shape))
	stop = make([]int64, len(shape))
	for i, s := range shape {
		if s == 0 {
			continue
		}
		a, b := r.Int64N(s+1), r.Int64N(s+1)
		if a > b {
			a, b = b, a
		}
		switch r.IntN(8) {
		case 0:
			a, b = 0, s
		case 1:
			b = min(a+1, s)
			a = b - 1
		}
		start[i], stop[i] = a, b
	}
	return start, stop
}

// memSource holds compressed chunks in memory.
type memSource [][]byte

func (m memSource) NChunks() int64 { return int64(len(m)) }
func (m memSource) Chunk(i int64) ([]byte, error) {
	if i < 0 || i >= int64(len(m)) {
		return nil, blosc2.ErrInvalidOption
	}
	return m[i], nil
}

// encodeAll compresses every chunk of arr (C order, shape of g).
func encodeAll(tb testing.TB, g *geom, arr []byte, cp blosc2.CParams) memSource {
	tb.Helper()
	e := newChunkEncoder(g, cp)
	var src memSource
	for k := range g.nchunks {
		c, err := e.encode(k, arr, g.shape, make([]int64, g.ndim))
		if err != nil {
			tb.Fatal(err)
		}
		src = append(src, append([]byte(nil), c...))
	}
	return src
}
