package zfp_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2/codec/zfp"
	"github.com/blosc2go/blosc2/internal/errs"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// grid is a real float32 grid from the data directories.
type grid struct {
	name  string
	path  string
	shape []int
}

// grids returns the rainfall grid copied into the module and, outside
// short mode, the shared grids that are present.
func grids(t *testing.T) []grid {
	gs := []grid{{"rainfall", filepath.Join(testvec.DataDir(), "rainfall_grid_150x150.f32.bin"), []int{150, 150}}}
	if testing.Short() {
		return gs
	}
	for _, g := range []grid{
		{"egm96_geoid", "egm96_15_geoid.f32.bin", []int{721, 1440}},
		{"era_interim_z", "era_interim_z.f32.bin", []int{2, 3, 241, 480}},
		{"era5_t2m", "era5_t2m_uk_2019-03.f32.bin", []int{744, 33, 49}},
	} {
		p := filepath.Join(testvec.SharedData(), g.path)
		if _, err := os.Stat(p); err == nil {
			g.path = p
			gs = append(gs, g)
		} else {
			t.Logf("%s not found: not tested", p)
		}
	}
	return gs
}

// tolerances and rates keep the large shared grids to two runs each.
func tolerances(g grid) []float64 {
	if g.name == "rainfall" {
		return []float64{1e-3, 1e-2, 1e-1, 1}
	}
	return []float64{1e-3, 1}
}

func rates(g grid) []float64 {
	if g.name == "rainfall" {
		return []float64{2, 4.5, 8, 16}
	}
	return []float64{3, 12}
}

func load(t *testing.T, g grid, t64 bool) []byte {
	b, err := os.ReadFile(g.path)
	if err != nil {
		t.Fatal(err)
	}
	if !t64 {
		return b
	}
	out := make([]byte, 2*len(b))
	for i := 0; i < len(b); i += 4 {
		f := math.Float32frombits(binary.LittleEndian.Uint32(b[i:]))
		binary.LittleEndian.PutUint64(out[2*i:], math.Float64bits(float64(f)))
	}
	return out
}

func value(b []byte, i int, t zfp.Type) float64 {
	if t == zfp.Float32 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
}

// Fixed-accuracy mode keeps every value of real grids within the
// tolerance, in float32 and float64, and a coarser tolerance gives a
// smaller stream.
func TestAccuracyOnGrids(t *testing.T) {
	for _, g := range grids(t) {
		for _, typ := range []zfp.Type{zfp.Float32, zfp.Float64} {
			src := load(t, g, typ == zfp.Float64)
			// A float32 cannot be closer to the input than its spacing
			// at the grid's largest magnitude: the promise is the larger.
			spacing, top := 0.0, 0.0
			for i := range len(src) / typ.Size() {
				top = max(top, math.Abs(value(src, i, typ)))
			}
			if typ == zfp.Float32 {
				spacing = float64(math.Nextafter32(float32(top), float32(math.Inf(1))) - float32(top))
			}
			prev := math.MaxInt
			for _, tol := range tolerances(g) {
				enc, err := zfp.Encode(nil, src, typ, g.shape, zfp.Accuracy(tol))
				if err != nil {
					t.Fatal(err)
				}
				dec := make([]byte, len(src))
				if _, err := zfp.Decode(dec, typ, g.shape, zfp.Accuracy(tol), enc); err != nil {
					t.Fatal(err)
				}
				worst := 0.0
				for i := range len(src) / typ.Size() {
					worst = max(worst, math.Abs(value(src, i, typ)-value(dec, i, typ)))
				}
				if worst > max(tol, spacing) {
					t.Errorf("%s %d-byte tolerance %g: max abs error %g", g.name, typ, tol, worst)
				}
				if len(enc) > prev {
					t.Errorf("%s tolerance %g: %d bytes, more than %d for a finer tolerance", g.name, tol, len(enc), prev)
				}
				prev = len(enc)
			}
		}
	}
}

// Fixed-rate mode takes exactly rate bits per value of every (padded)
// block, whatever the data, rounded up to the 64-bit word ZFP ends on.
func TestRateOnGrids(t *testing.T) {
	for _, g := range grids(t) {
		for _, typ := range []zfp.Type{zfp.Float32, zfp.Float64} {
			src := load(t, g, typ == zfp.Float64)
			nblocks := 1
			for _, s := range g.shape {
				nblocks *= (s + 3) / 4
			}
			cell := 1 << (2 * len(g.shape))
			for _, rate := range rates(g) {
				p := zfp.Rate(rate, typ, len(g.shape))
				enc, err := zfp.Encode(nil, src, typ, g.shape, p)
				if err != nil {
					t.Fatal(err)
				}
				bits := nblocks * int(math.Max(math.Floor(rate*float64(cell)+0.5), float64(1+map[zfp.Type]int{zfp.Float32: 8, zfp.Float64: 11}[typ])))
				if want := (bits + 63) / 64 * 8; len(enc) != want {
					t.Errorf("%s rate %g: %d bytes, want %d", g.name, rate, len(enc), want)
				}
				if max := zfp.MaxEncodedLen(typ, g.shape, p); len(enc) > max {
					t.Errorf("%s rate %g: %d bytes, MaxEncodedLen %d", g.name, rate, len(enc), max)
				}
				dec := make([]byte, len(src))
				if n, err := zfp.Decode(dec, typ, g.shape, p, enc); err != nil || n != len(enc) {
					t.Fatalf("%s rate %g: decode took %d of %d bytes: %v", g.name, rate, n, len(enc), err)
				}
			}
		}
	}
}

// A stream cut short fails with ErrCorrupt instead of decoding zeros.
func TestTruncatedStream(t *testing.T) {
	src := load(t, grids(t)[0], false)
	shape := []int{150, 150}
	enc, err := zfp.Encode(nil, src, zfp.Float32, shape, zfp.Precision(16))
	if err != nil {
		t.Fatal(err)
	}
	dec := make([]byte, len(src))
	for _, n := range []int{0, 1, len(enc) / 2, len(enc) - 9} {
		if _, err := zfp.Decode(dec, zfp.Float32, shape, zfp.Precision(16), enc[:n]); !errors.Is(err, errs.ErrCorrupt) {
			t.Errorf("%d of %d bytes: %v", n, len(enc), err)
		}
	}
}

// Parameters and shapes the format cannot take are refused.
func TestInvalid(t *testing.T) {
	for i, c := range []struct {
		shape []int
		n     int
		t     zfp.Type
		p     zfp.Params
	}{
		{[]int{4, 4, 4, 4, 4}, 4 * 1024, zfp.Float32, zfp.Precision(8)},
		{nil, 4, zfp.Float32, zfp.Precision(8)},
		{[]int{3}, 8, zfp.Float32, zfp.Precision(8)},
		{[]int{2}, 8, zfp.Type(2), zfp.Precision(8)},
		{[]int{2}, 8, zfp.Float32, zfp.Params{}},
	} {
		if _, err := zfp.Encode(nil, make([]byte, c.n), c.t, c.shape, c.p); !errors.Is(err, errs.ErrInvalidOption) {
			t.Errorf("case %d: encode: %v", i, err)
		}
		if _, err := zfp.Decode(make([]byte, c.n), c.t, c.shape, c.p, make([]byte, 64)); !errors.Is(err, errs.ErrInvalidOption) {
			t.Errorf("case %d: decode: %v", i, err)
		}
	}
}

func BenchmarkZFP(b *testing.B) {
	g := grid{"rainfall", filepath.Join(testvec.DataDir(), "rainfall_grid_150x150.f32.bin"), []int{150, 150}}
	src, err := os.ReadFile(g.path)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range []struct {
		name string
		p    zfp.Params
	}{{"acc1e-2", zfp.Accuracy(1e-2)}, {"prec16", zfp.Precision(16)}, {"rate8", zfp.Rate(8, zfp.Float32, 2)}} {
		enc, _ := zfp.Encode(nil, src, zfp.Float32, g.shape, m.p)
		b.Run(fmt.Sprintf("%s/%s/encode", g.name, m.name), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			buf := make([]byte, 0, 2*len(src))
			for b.Loop() {
				buf, _ = zfp.Encode(buf[:0], src, zfp.Float32, g.shape, m.p)
			}
		})
		b.Run(fmt.Sprintf("%s/%s/decode", g.name, m.name), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			dst := make([]byte, len(src))
			for b.Loop() {
				if _, err := zfp.Decode(dst, zfp.Float32, g.shape, m.p, enc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkZFPGrids compresses and decompresses the shared float32 grids
// whole (ZFP alone, no Blosc2 chunking), reporting the ratio: the Go half
// of the README's table, whose C half is ZFP 1.0.1 timed the same way.
func BenchmarkZFPGrids(b *testing.B) {
	modes := []struct {
		name string
		p    func(nd int) zfp.Params
	}{
		{"acc=1e-2", func(int) zfp.Params { return zfp.Accuracy(1e-2) }},
		{"prec=16", func(int) zfp.Params { return zfp.Precision(16) }},
		{"rate=8", func(nd int) zfp.Params { return zfp.Rate(8, zfp.Float32, nd) }},
	}
	for _, g := range []grid{
		{"rainfall", filepath.Join(testvec.DataDir(), "rainfall_grid_150x150.f32.bin"), []int{150, 150}},
		{"egm96_geoid", filepath.Join(testvec.SharedData(), "egm96_15_geoid.f32.bin"), []int{721, 1440}},
		{"era_interim_z", filepath.Join(testvec.SharedData(), "era_interim_z.f32.bin"), []int{2, 3, 241, 480}},
		{"era5_t2m", filepath.Join(testvec.SharedData(), "era5_t2m_uk_2019-03.f32.bin"), []int{744, 33, 49}},
	} {
		src, err := os.ReadFile(g.path)
		if err != nil {
			b.Logf("%s: %v", g.name, err)
			continue
		}
		for _, m := range modes {
			p := m.p(len(g.shape))
			enc, _ := zfp.Encode(nil, src, zfp.Float32, g.shape, p)
			ratio := float64(len(src)) / float64(len(enc))
			b.Run(g.name+"/"+m.name+"/encode", func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				buf := make([]byte, 0, len(enc))
				for b.Loop() {
					buf, _ = zfp.Encode(buf[:0], src, zfp.Float32, g.shape, p)
				}
				b.ReportMetric(ratio, "ratio")
			})
			b.Run(g.name+"/"+m.name+"/decode", func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				dst := make([]byte, len(src))
				for b.Loop() {
					if _, err := zfp.Decode(dst, zfp.Float32, g.shape, p, enc); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(ratio, "ratio")
			})
		}
	}
}
