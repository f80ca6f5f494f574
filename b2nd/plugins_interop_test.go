package b2nd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// pluginCase is one array written with a plugin codec or filter.
type pluginCase struct {
	name        string
	dtype       string
	shape       []int64
	cs, bs      []int32
	codec       codec.ID
	cmeta       uint8
	filter      blosc2.Filter
	data        string // smooth, noisy, const, nanf, bytes
	lossless    bool
	maxAbsError float64 // > 0: every value within it (ZFP accuracy)
}

func pluginCases() []pluginCase {
	var cs []pluginCase
	geoms := []struct {
		shape  []int64
		cs, bs []int32
	}{
		{[]int64{100}, []int32{40}, []int32{16}},
		{[]int64{13, 21}, []int32{8, 12}, []int32{5, 8}},
		{[]int64{7, 9, 6}, []int32{4, 5, 5}, []int32{4, 5, 5}},
		{[]int64{5, 4, 4, 6}, []int32{4, 4, 4, 4}, []int32{4, 4, 4, 4}},
	}
	for _, dt := range []string{"<f4", "<f8"} {
		for nd, g := range geoms {
			for i, data := range []string{"smooth", "noisy", "const", "nanf"} {
				tol := math.Pow(10, float64(-2+i%3))
				if data == "nanf" {
					tol = 0 // a block holding NaN or Inf keeps no promise
				}
				cs = append(cs,
					pluginCase{name: "acc", dtype: dt, shape: g.shape, cs: g.cs, bs: g.bs, codec: codec.ZFPAccuracy, cmeta: uint8(int8(-2 + i%3)), data: data, maxAbsError: tol},
					pluginCase{name: "prec", dtype: dt, shape: g.shape, cs: g.cs, bs: g.bs, codec: codec.ZFPPrecision, cmeta: uint8(4 + 6*i), data: data},
					pluginCase{name: "rate", dtype: dt, shape: g.shape, cs: g.cs, bs: g.bs, codec: codec.ZFPRate, cmeta: uint8(20 + 15*i + nd), data: data},
					pluginCase{name: "ndcell", dtype: dt, shape: g.shape, cs: g.cs, bs: g.bs, codec: blosc2.Zstd, filter: blosc2.Filter{ID: blosc2.NDCell, Meta: uint8(2 + i%3)}, data: data, lossless: true},
					pluginCase{name: "ndmean", dtype: dt, shape: g.shape, cs: g.cs, bs: g.bs, codec: blosc2.LZ4, filter: blosc2.Filter{ID: blosc2.NDMean, Meta: uint8(2 + i%3)}, data: data},
				)
			}
		}
	}
	for _, cell := range []uint8{4, 8} {
		for _, data := range []string{"smooth", "bytes", "const", "noisy"} {
			cs = append(cs, pluginCase{name: "ndlz", dtype: "|u1", shape: []int64{37, 45}, cs: []int32{20, 30}, bs: []int32{13, 30}, codec: codec.NDLZ, cmeta: cell, data: data, lossless: true})
		}
	}
	for _, c := range []struct {
		dt   string
		meta int8
	}{{"|i1", 5}, {"<i2", -3}, {"<i4", 20}, {"<u8", -20}} {
		cs = append(cs, pluginCase{name: "int_trunc", dtype: c.dt, shape: []int64{64, 64}, cs: []int32{32, 64}, bs: []int32{16, 64}, codec: blosc2.BloscLZ, filter: blosc2.Filter{ID: blosc2.IntTrunc, Meta: uint8(c.meta)}, data: "steps"})
	}
	return cs
}

// pluginData makes the array's bytes.
func pluginData(c *pluginCase, itemsize int, n int64, rng *rand.Rand) []byte {
	b := make([]byte, n*int64(itemsize))
	for i := range n {
		var x float64
		switch c.data {
		case "smooth":
			x = 100*math.Sin(float64(i)*0.05) + 20*math.Cos(float64(i)*0.31)
		case "noisy":
			x = rng.NormFloat64() * 1000
		case "const":
			x = -7.25
		case "nanf":
			x = rng.NormFloat64()
			switch i % 23 {
			case 3:
				x = math.NaN()
			case 7:
				x = math.Inf(1)
			case 11:
				x = math.Inf(-1)
			}
		case "steps":
			x = float64(i/40*29%120 + 1)
		case "bytes":
			x = float64(i * 7 % 13)
		}
		switch {
		case c.dtype == "<f4":
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(x)))
		case c.dtype == "<f8":
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		default:
			v := uint64(int64(x))
			for k := range itemsize {
				b[int(i)*itemsize+k] = byte(v >> (8 * k))
			}
		}
	}
	return b
}

// TestPluginsGoToC writes arrays with every plugin codec and filter and has
// C-Blosc2 3.3.2 decode them (b2c b2nd-decompress, b2nd_open then
// b2nd_to_cbuffer): C's bytes must equal our own decode, and the lossless
// ones the input. ZFP accuracy arrays must also keep every finite value
// within the tolerance. Skipped without the C build.
func TestPluginsGoToC(t *testing.T) {
	b2c := testvec.B2C(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(17, 17))
	cases := pluginCases()
	for i, c := range cases {
		if testing.Short() && i%3 != 0 {
			continue
		}
		name := fmt.Sprintf("%03d_%s_%s_%dd_%s", i, c.name, strings.Trim(c.dtype, "<|"), len(c.shape), c.data)
		t.Run(name, func(t *testing.T) {
			cp := blosc2.DefaultCParams()
			cp.Codec, cp.CodecMeta = c.codec, c.cmeta
			cp.Filters = blosc2.Pipeline()
			if c.filter.ID != 0 {
				cp.Filters = blosc2.Pipeline(c.filter)
			}
			dt, err := ParseDType(c.dtype)
			if err != nil {
				t.Fatal(err)
			}
			n := int64(1)
			for _, s := range c.shape {
				n *= s
			}
			data := pluginData(&c, dt.Size, n, rng)
			path := filepath.Join(dir, name+".b2nd")
			if err := WriteFile(path, data, c.shape, c.dtype, WithChunkShape(c.cs...), WithBlockShape(c.bs...), WithCParams(cp)); err != nil {
				t.Fatal(err)
			}
			ours, _, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, name+".raw")
			if msg, err := exec.Command(b2c, "b2nd-decompress", path, out).CombinedOutput(); err != nil {
				t.Fatalf("C-Blosc2 cannot decode it: %v: %s", err, msg)
			}
			theirs, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(ours, theirs) {
				t.Fatalf("C-Blosc2 decodes %d bytes differently from ours (%d)", len(theirs), len(ours))
			}
			switch {
			case c.lossless:
				if !bytes.Equal(ours, data) {
					t.Fatal("lossless plugin changed the data")
				}
			case c.filter.ID == blosc2.IntTrunc:
				checkIntTrunc(t, data, ours, dt.Size, int8(c.filter.Meta))
			case c.maxAbsError > 0:
				checkTolerance(t, data, ours, dt.Size, c.maxAbsError)
			}
		})
	}
}

// checkIntTrunc checks that only the low bits the meta names were zeroed
// (the data must compress: a chunk stored as is keeps the input unfiltered,
// in C-Blosc2 as here).
func checkIntTrunc(t *testing.T, in, out []byte, size int, meta int8) {
	t.Helper()
	zeroed := int(-meta)
	if meta >= 0 {
		zeroed = 8*size - int(meta)
	}
	for i := 0; i < len(in); i += size {
		var a, b uint64
		for k := range size {
			a |= uint64(in[i+k]) << (8 * k)
			b |= uint64(out[i+k]) << (8 * k)
		}
		if b != a>>zeroed<<zeroed {
			t.Fatalf("element %d: %#x truncated to %#x", i/size, a, b)
		}
	}
}

// checkTolerance checks |out-in| ≤ tol for every value.
func checkTolerance(t *testing.T, in, out []byte, size int, tol float64) {
	t.Helper()
	worst := 0.0
	for i := 0; i < len(in); i += size {
		a, b := floatAt(in, i, size), floatAt(out, i, size)
		worst = max(worst, math.Abs(a-b))
	}
	if worst > tol {
		t.Fatalf("max abs error %g > tolerance %g", worst, tol)
	}
}

func floatAt(b []byte, i, size int) float64 {
	if size == 4 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[i:]))
}
