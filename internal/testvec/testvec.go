// Package testvec reads the C-Blosc2 test vectors copied into the module's
// testdata/vectors (from ../shared/vectors) and regenerates their inputs, so
// that tests in every package compare against C-Blosc2's output, never
// against our own.
package testvec

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Vector is one line of manifest.jsonl.
type Vector struct {
	File      string `json:"file"`
	Kind      string `json:"kind"`
	RawLen    int    `json:"raw_len"`
	RawSHA256 string `json:"raw_sha256"`
	Source    string `json:"source"`
	Params    Params `json:"params"`
}

// Params are the generation parameters recorded for a vector.
type Params struct {
	Codec        string          `json:"codec"`
	Clevel       int             `json:"clevel"`
	Typesize     int             `json:"typesize"`
	Splitmode    string          `json:"splitmode"`
	Blocksize    int             `json:"blocksize"`
	Nthreads     int             `json:"nthreads"`
	UseDict      bool            `json:"use_dict"`
	Filters      []int           `json:"filters"`
	FiltersMeta  []int           `json:"filters_meta"`
	Data         *Gen            `json:"data"`
	InputLen     int             `json:"input_len"`
	InputSHA256  string          `json:"input_sha256"`
	Lossy        bool            `json:"lossy"`
	Reproducible *bool           `json:"compressed_bytes_reproducible"`
	Specials     []string        `json:"specials"`
	SpecialNB    int             `json:"special_nbytes"`
	VLBlocks     []int           `json:"vlblocks"`
	Chunksize    int             `json:"chunksize"`
	VarChunks    []int           `json:"varchunks"`
	FileLen      int             `json:"file_len"`
	FileSHA256   string          `json:"file_sha256"`
	Header       json.RawMessage `json:"header"`
	Metalayers   []struct {
		Name string `json:"name"`
		Hex  string `json:"hex"`
	} `json:"metalayers"`
	VLMetalayers []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"vlmetalayers"`
	VLMetaCParams string          `json:"vlmeta_cparams"`
	FillSpecial   string          `json:"fill_special"`
	SpecialsFirst bool            `json:"specials_first"`
	NChunks       int             `json:"nchunks"`
	ChunkNbytes   []int           `json:"chunk_nbytes"`
	Storage       string          `json:"storage"`
	Shape         []int64         `json:"shape"`
	Chunkshape    []int32         `json:"chunkshape"`
	Blockshape    []int32         `json:"blockshape"`
	Dtype         string          `json:"dtype"`
	B2ndMetaHex   string          `json:"b2nd_meta_hex"`
	FrameRawLen   int             `json:"frame_raw_len"`
	FrameRawSHA   string          `json:"frame_raw_sha256"`
	Extra         json.RawMessage `json:"-"`
}

// Gen is an input generator spec (vectors/README.md, "How the inputs are
// defined").
type Gen struct {
	Gen      string `json:"gen"`
	Nbytes   int    `json:"nbytes"`
	Seed     uint64 `json:"seed"`
	Value    string `json:"value"`
	Typesize int    `json:"typesize"`
	Start    *int64 `json:"start"`
	Step     *int64 `json:"step"`
}

// Root returns the module root (the directory holding go.mod).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Dir is the vectors directory inside the module.
func Dir() string { return filepath.Join(Root(), "testdata", "vectors") }

// DataDir is the directory of the few real-data files copied into the module.
func DataDir() string { return filepath.Join(Root(), "testdata", "data") }

// SharedData returns ../shared/data beside the module, or "" when absent
// (benchmarks and long tests use it when it is there).
func SharedData() string {
	d := filepath.Join(Root(), "..", "shared", "data")
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return d
	}
	return ""
}

// Load reads the manifest; it fails the test if it cannot.
func Load(tb testing.TB) []Vector {
	tb.Helper()
	f, err := os.Open(filepath.Join(Dir(), "manifest.jsonl"))
	if err != nil {
		tb.Fatalf("test vectors: %v", err)
	}
	defer f.Close()
	var vs []Vector
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var v Vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatalf("manifest: %v", err)
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("manifest: %v", err)
	}
	return vs
}

// Kind returns the vectors of one kind ("chunk", "cframe", "sframe", "b2nd").
func Kind(tb testing.TB, kind string) []Vector {
	var out []Vector
	for _, v := range Load(tb) {
		if v.Kind == kind {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		tb.Fatalf("no %s vectors", kind)
	}
	return out
}

// Path is the vector's file (or directory) path.
func (v *Vector) Path() string { return filepath.Join(Dir(), v.File) }

// Read returns the vector file's bytes.
func (v *Vector) Read(tb testing.TB) []byte {
	tb.Helper()
	b, err := os.ReadFile(v.Path())
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// SHA256 is the hex SHA-256 of b.
func SHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Rnd is the corpus's rnd(seed, i): one splitmix64 step.
func Rnd(seed, i uint64) uint64 {
	z := seed*0x100000001B3 + i + 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Smooth is the corpus's v(i) for a seed.
func Smooth(seed, i uint64) float64 {
	u := float64(Rnd(seed, i)>>11) * (1.0 / (1 << 53))
	x := (float64(int64(i%1000)) - 500) / 500.0 // no product: nothing to fuse
	// The explicit conversions round each product, so that no fused
	// multiply-add is formed (Go may fuse across statements; arm64 does).
	xx := float64(x * x)
	a := float64(100.0 * (1.0 - xx))
	b := float64((u - 0.5) * 0.01)
	return a + b
}

// Generate produces the input a Gen describes.
func Generate(g *Gen) ([]byte, error) {
	out := make([]byte, 0, g.Nbytes)
	item := make([]byte, 0, 256)
	for i := uint64(0); len(out) < g.Nbytes; i++ {
		item = item[:0]
		switch g.Gen {
		case "zeros":
			item = append(item, make([]byte, min(4096, g.Nbytes-len(out)))...)
		case "const":
			v, err := hex.DecodeString(g.Value)
			if err != nil || len(v) == 0 {
				return nil, fmt.Errorf("const value %q", g.Value)
			}
			item = append(item, v...)
		case "arange":
			w := g.Typesize
			var start, step int64 = 0, 1
			if g.Start != nil {
				start = *g.Start
			}
			if g.Step != nil {
				step = *g.Step
			}
			v := uint64(start + int64(i)*step)
			for b := 0; b < w; b++ {
				item = append(item, byte(v>>(8*b)))
			}
		case "random":
			item = le64(item, Rnd(g.Seed, i))
		case "timestamps":
			item = le64(item, uint64(1700000000000+1000*int64(i)+int64(Rnd(g.Seed, i)%1000)))
		case "smooth_f64":
			item = le64(item, math.Float64bits(Smooth(g.Seed, i)))
		case "smooth_f32":
			v := math.Float32bits(float32(Smooth(g.Seed, i)))
			item = append(item, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		case "text":
			k := i
			r := Rnd(g.Seed, k)
			item = fmt.Appendf(item, "2024-01-%02d %02d:%02d:%02d.%03d %-5s [worker-%d] GET /api/v1/items/%d status=%d bytes=%d latency_ms=%d\n",
				1+(k/86400)%28, (k/3600)%24, (k/60)%60, k%60, r%1000,
				[]string{"INFO", "WARN", "DEBUG", "ERROR"}[(r>>10)%4], (r>>12)%8, (r>>16)%10000,
				[]int{200, 201, 304, 404, 500}[(r>>30)%5], (r>>33)%65536, (r>>49)%500)
		default:
			return nil, fmt.Errorf("unknown generator %q", g.Gen)
		}
		out = append(out, item[:min(len(item), g.Nbytes-len(out))]...)
	}
	return out, nil
}

func le64(b []byte, v uint64) []byte {
	for k := 0; k < 8; k++ {
		b = append(b, byte(v>>(8*k)))
	}
	return b
}

// B2CPath is where the tests look for the C-Blosc2 3.3.2 reference CLI
// (b2c, built outside the repository): $BLOSC2_B2C, or /work/cref/bin/b2c.
func B2CPath() string {
	if p := os.Getenv("BLOSC2_B2C"); p != "" {
		return p
	}
	return "/work/cref/bin/b2c"
}

// B2C returns B2CPath, or skips the test, saying why, when nothing is
// there.
func B2C(tb testing.TB) string {
	tb.Helper()
	p := B2CPath()
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("C-Blosc2 reference CLI not found (%s); set BLOSC2_B2C to run this test", p)
	}
	return p
}
