package blosc2_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
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
)

// The truth for Blosc1 chunks is C-Blosc 1.21 as Debian packages it
// (python3-blosc links libblosc1 1.21.3, liblz4 1.9.4, libsnappy), driven
// through /usr/bin/python3, which sees Debian's packages. CI installs them
// (.ci/run); elsewhere these tests skip.

const debianPython = "/usr/bin/python3"

// needPython returns the Python that imports modules, or skips the test
// saying which Debian packages it needs.
func needPython(t *testing.T, modules ...string) string {
	t.Helper()
	msg := "needs Debian's python3-blosc, python3-numcodecs, python3-zarr and python3-numpy " +
		"(apt-get install python3-blosc python3-numcodecs python3-zarr python3-numpy; .ci/run installs them)"
	if _, err := os.Stat(debianPython); err != nil {
		t.Skipf("%s: %s: %v", msg, debianPython, err)
	}
	cmd := exec.Command(debianPython, "-c", "import "+strings.Join(modules, ", "))
	cmd.Env = pythonEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("%s: %s cannot import %s: %v: %s", msg, debianPython, strings.Join(modules, ", "), err, bytes.TrimSpace(out))
	}
	return debianPython
}

// pythonEnv is the environment without C-Blosc's BLOSC_* variables, which
// would change what it writes (BLOSC_SPLITMODE, BLOSC_NTHREADS, ...).
func pythonEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BLOSC_") {
			env = append(env, kv)
		}
	}
	return env
}

// runPython runs script with dir as its argument and fails the test with
// its output if it fails.
func runPython(t *testing.T, python, script, dir string) []byte {
	t.Helper()
	cmd := exec.Command(python, "-c", script, dir)
	cmd.Env = pythonEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	return out
}

// blosc1Source makes test data of n bytes: kind 0 mixes slowly varying
// integers, zeros, words and random bytes (a quarter each), so that one
// chunk has streams that compress well, runs that Blosc1 must not encode
// as runs, and blocks that do not compress; kind 1 is random throughout.
func blosc1Source(n, kind int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), uint64(kind)))
	b := make([]byte, n)
	if kind == 1 {
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	words := []string{"blosc ", "chunk ", "zarr ", "shuffle ", "array ", "float "}
	var text []byte
	for len(text) < n {
		text = append(text, words[r.IntN(len(words))]...)
	}
	for i := range b {
		switch 4 * i / n {
		case 0:
			v := uint64(100000 + i/8*3 + i/8%7)
			b[i] = byte(v >> (8 * (i % 8)))
		case 1: // zeros
		case 2:
			b[i] = text[i]
		default:
			b[i] = byte(r.Uint32())
		}
	}
	return b
}

var blosc1CodecNames = map[codec.ID]string{
	blosc2.BloscLZ: "blosclz", blosc2.LZ4: "lz4", blosc2.LZ4HC: "lz4hc",
	blosc2.Snappy: "snappy", blosc2.Zlib: "zlib", blosc2.Zstd: "zstd",
}

// b1Case is one chunk of the matrix, as the Python side sees it.
type b1Case struct {
	Name     string `json:"name"`
	CName    string `json:"cname"`
	Shuffle  int    `json:"shuffle"` // python-blosc's NOSHUFFLE 0, SHUFFLE 1, BITSHUFFLE 2
	TypeSize int    `json:"typesize"`
	Level    int    `json:"clevel"`
	SrcOff   int    `json:"src_off"`
	SrcLen   int    `json:"src_len"`
	GoOff    int    `json:"go_off"`
	GoLen    int    `json:"go_len"`
	codec    codec.ID
}

// b1Result is what C-Blosc 1.21 did with a case: decoded our chunk (Match:
// to the source bytes) or failed (Err), and made its own chunk of the same
// data and parameters at [COff, COff+CLen) of c.bin.
type b1Result struct {
	Match bool   `json:"match"`
	Err   string `json:"err"`
	COff  int    `json:"c_off"`
	CLen  int    `json:"c_len"`
}

const blosc1MatrixScript = `
import json, sys, blosc
blosc.set_nthreads(1)
d = sys.argv[1]
cases = json.load(open(d + '/cases.json'))
src = open(d + '/src.bin', 'rb').read()
gob = open(d + '/go.bin', 'rb').read()
out = bytearray()
res = []
for c in cases:
    s = src[c['src_off']:c['src_off'] + c['src_len']]
    r = {'match': False, 'err': ''}
    try:
        r['match'] = blosc.decompress(gob[c['go_off']:c['go_off'] + c['go_len']]) == s
    except Exception as e:
        r['err'] = repr(e)
    cc = blosc.compress(s, typesize=c['typesize'], clevel=c['clevel'], shuffle=c['shuffle'], cname=c['cname'])
    r['c_off'] = len(out)
    r['c_len'] = len(cc)
    out += cc
    res.append(r)
open(d + '/c.bin', 'wb').write(out)
json.dump(res, open(d + '/results.json', 'w'))
`

// TestBlosc1MatrixAgainstC has C-Blosc 1.21 decode the Blosc1 chunks Go
// makes for every codec × {noshuffle, shuffle, bitshuffle} × typesize ×
// level × odd size, and Go decode the chunks C-Blosc 1.21 makes of the same
// matrix, all in one Python process. With BloscLZ and LZ4, and at level 0
// with every codec, the bytes must be C's; with the others (other
// libraries), the header fields C decides before compressing (version,
// typesize, nbytes, block size, filter, split and codec bits) must be.
func TestBlosc1MatrixAgainstC(t *testing.T) {
	python := needPython(t, "blosc")
	typesizes := []int{1, 2, 4, 8, 3, 16}
	levels := []int{0, 1, 5, 9}
	sizes := []int{7, 131, 4099, 40001, 262147}
	if testing.Short() {
		typesizes, levels, sizes = []int{1, 4, 3}, []int{0, 1, 9}, []int{131, 70001}
	}
	codecs := []codec.ID{blosc2.BloscLZ, blosc2.LZ4, blosc2.LZ4HC, blosc2.Snappy, blosc2.Zlib, blosc2.Zstd}
	filters := []blosc2.FilterID{blosc2.NoFilter, blosc2.Shuffle, blosc2.BitShuffle}

	dir := t.TempDir()
	var src, gob []byte
	type source struct{ off, n, kind int }
	var sources []source
	for _, n := range sizes {
		for kind := range 2 {
			sources = append(sources, source{len(src), n, kind})
			src = append(src, blosc1Source(n, kind)...)
		}
	}
	var cases []b1Case
	for _, id := range codecs {
		for shuf, f := range filters {
			for _, ts := range typesizes {
				for _, lv := range levels {
					for _, s := range sources {
						p := blosc2.CParams{Codec: id, Level: lv, TypeSize: ts, Format: blosc2.ChunkBlosc1}
						if f != blosc2.NoFilter {
							p.Filters = blosc2.Pipeline(blosc2.Filter{ID: f})
						}
						data := src[s.off : s.off+s.n]
						chunk, err := blosc2.Compress(nil, data, &p)
						c := b1Case{
							Name:  fmt.Sprintf("%s/shuffle%d/ts%d/clevel%d/%d-kind%d", blosc1CodecNames[id], shuf, ts, lv, s.n, s.kind),
							CName: blosc1CodecNames[id], Shuffle: shuf, TypeSize: ts, Level: lv,
							SrcOff: s.off, SrcLen: s.n, GoOff: len(gob), GoLen: len(chunk), codec: id,
						}
						if err != nil {
							t.Fatalf("%s: %v", c.Name, err)
						}
						if len(chunk) > len(data)+blosc2.MinHeaderLen {
							t.Errorf("%s: %d-byte chunk for %d bytes: more than C-Blosc 1.x's 16 bytes of overhead", c.Name, len(chunk), len(data))
						}
						gob = append(gob, chunk...)
						cases = append(cases, c)
					}
				}
			}
		}
	}
	manifest, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"cases.json": manifest, "src.bin": src, "go.bin": gob} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runPython(t, python, blosc1MatrixScript, dir)
	var results []b1Result
	rb, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rb, &results); err != nil {
		t.Fatal(err)
	}
	cb, err := os.ReadFile(filepath.Join(dir, "c.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(cases) {
		t.Fatalf("python answered %d cases of %d", len(results), len(cases))
	}

	identical := map[codec.ID]int{}
	total := map[codec.ID]int{}
	failures := 0
	fail := func(format string, args ...any) {
		if failures++; failures <= 20 {
			t.Errorf(format, args...)
		}
	}
	for i, c := range cases {
		r := results[i]
		data := src[c.SrcOff : c.SrcOff+c.SrcLen]
		ours := gob[c.GoOff : c.GoOff+c.GoLen]
		theirs := cb[r.COff : r.COff+r.CLen]
		if !r.Match {
			fail("%s: C-Blosc 1.21 did not decode our chunk to the data: %s (header % x)", c.Name, r.Err, ours[:16])
		}
		back, err := blosc2.Decompress(nil, theirs, nil)
		if err != nil || !bytes.Equal(back, data) {
			fail("%s: Go did not decode C-Blosc 1.21's chunk (header % x): %v", c.Name, theirs[:16], err)
		}
		h, err := blosc2.ParseHeader(theirs)
		if err != nil {
			fail("%s: %v", c.Name, err)
		} else if want := blosc2.CodecFormat(c.codec); h.Format() != want || (c.codec == blosc2.Snappy && codec.Name(h.Codec) != "snappy") {
			fail("%s: C's chunk parses as format %d codec %s, want format %d", c.Name, h.Format(), codec.Name(h.Codec), want)
		}
		total[c.codec]++
		if bytes.Equal(ours, theirs) {
			identical[c.codec]++
			continue
		}
		// Everything C decides before compressing: all but the memcpy
		// bit of the flags, and cbytes.
		const memcpyed = 0x02
		mask := func(b []byte) []byte {
			m := bytes.Clone(b[:12])
			m[2] &^= memcpyed
			return m
		}
		if !bytes.Equal(mask(ours), mask(theirs)) {
			fail("%s: header % x, C-Blosc 1.21's % x", c.Name, ours[:16], theirs[:16])
		}
		if c.codec == blosc2.BloscLZ || c.codec == blosc2.LZ4 || c.Level == 0 {
			fail("%s: %d bytes differ from C-Blosc 1.21's %d (headers % x, % x)", c.Name, len(ours), len(theirs), ours[:16], theirs[:16])
		}
	}
	if failures > 20 {
		t.Errorf("... %d failures in all", failures)
	}
	for _, id := range codecs {
		t.Logf("%-7s %4d of %4d chunks byte-identical to C-Blosc 1.21's", blosc1CodecNames[id], identical[id], total[id])
	}
}

const zarrScript = `
import json, os, sys
import numpy, zarr, numcodecs
d = sys.argv[1]
spec = json.load(open(d + '/arrays.json'))
for a in spec['go']:
    want = numpy.fromfile(os.path.join(d, a['raw']), dtype=a['dtype']).reshape(a['shape'])
    got = zarr.open(os.path.join(d, a['path']), mode='r')[...]
    if got.dtype != want.dtype or got.shape != want.shape or not numpy.array_equal(got, want):
        sys.exit('zarr-python read %s wrong' % a['path'])
    print('read', a['path'])
for a in spec['python']:
    data = numpy.fromfile(os.path.join(d, a['raw']), dtype=a['dtype']).reshape(a['shape'])
    comp = numcodecs.Blosc(cname=a['cname'], clevel=5, shuffle=a['shuffle'])
    z = zarr.open(os.path.join(d, a['path']), mode='w', shape=data.shape, chunks=a['chunks'], dtype=data.dtype, compressor=comp)
    z[...] = data
    print('wrote', a['path'])
`

// zarrArray describes an array for zarrScript.
type zarrArray struct {
	Path    string `json:"path"`
	Raw     string `json:"raw"`
	DType   string `json:"dtype"`
	Shape   []int  `json:"shape"`
	Chunks  []int  `json:"chunks"`
	CName   string `json:"cname"`
	Shuffle int    `json:"shuffle"`
}

// TestZarrV2FromGo writes Zarr v2 arrays whose chunks Go compresses (every
// Blosc1 codec, shuffle and bitshuffle, edge chunks padded as Zarr v2
// stores them) and has zarr-python read them back; then zarr-python writes
// arrays through numcodecs' Blosc and Go decodes every chunk file.
func TestZarrV2FromGo(t *testing.T) {
	python := needPython(t, "blosc", "numcodecs", "zarr", "numpy")
	dir := t.TempDir()
	rows, cols := 50, 33
	raw := make([]byte, 8*rows*cols)
	for i := range rows * cols {
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(20+5*math.Sin(float64(i)/40)))
	}
	if err := os.WriteFile(filepath.Join(dir, "data.f8"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Go     []zarrArray `json:"go"`
		Python []zarrArray `json:"python"`
	}
	shuffles := []blosc2.FilterID{blosc2.NoFilter, blosc2.Shuffle, blosc2.BitShuffle}
	for _, id := range []codec.ID{blosc2.BloscLZ, blosc2.LZ4, blosc2.LZ4HC, blosc2.Snappy, blosc2.Zlib, blosc2.Zstd} {
		for shuf, f := range shuffles {
			a := zarrArray{Path: fmt.Sprintf("go-%s-%d.zarr", blosc1CodecNames[id], shuf), Raw: "data.f8", DType: "<f8",
				Shape: []int{rows, cols}, Chunks: []int{16, 10}, CName: blosc1CodecNames[id], Shuffle: shuf}
			writeZarrV2(t, filepath.Join(dir, a.Path), raw, a, blosc2.CParams{
				Codec: id, Level: 5, TypeSize: 8, Filters: blosc2.Pipeline(blosc2.Filter{ID: f}), Format: blosc2.ChunkBlosc1,
			})
			spec.Go = append(spec.Go, a)
			spec.Python = append(spec.Python, zarrArray{Path: "py-" + a.Path, Raw: a.Raw, DType: a.DType, Shape: a.Shape,
				Chunks: a.Chunks, CName: a.CName, Shuffle: shuf})
		}
	}
	b, _ := json.Marshal(spec)
	if err := os.WriteFile(filepath.Join(dir, "arrays.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	runPython(t, python, zarrScript, dir)

	// Go reads what zarr-python wrote: every chunk, edge chunks included.
	for _, a := range spec.Python {
		n := 0
		for i := 0; i*a.Chunks[0] < rows; i++ {
			for j := 0; j*a.Chunks[1] < cols; j++ {
				chunk, err := os.ReadFile(filepath.Join(dir, a.Path, fmt.Sprintf("%d.%d", i, j)))
				if err != nil {
					t.Fatal(err)
				}
				got, err := blosc2.Decompress(nil, chunk, nil)
				if err != nil {
					t.Fatalf("%s chunk %d.%d: %v", a.Path, i, j, err)
				}
				if want := zarrChunk(raw, a, i, j); !bytes.Equal(got, want) {
					t.Fatalf("%s chunk %d.%d decodes wrong", a.Path, i, j)
				}
				n++
			}
		}
		if want := ((rows + 15) / 16) * ((cols + 9) / 10); n != want {
			t.Fatalf("%s: %d chunks, want %d", a.Path, n, want)
		}
	}
}

// zarrChunk cuts chunk (i, j) of a row-major float64 array out of raw, as
// Zarr v2 stores it: always the full chunk shape, past the array's edge
// filled with the fill value (0).
func zarrChunk(raw []byte, a zarrArray, i, j int) []byte {
	cr, cc := a.Chunks[0], a.Chunks[1]
	out := make([]byte, 8*cr*cc)
	for r := range cr {
		row := i*cr + r
		if row >= a.Shape[0] {
			break
		}
		c0 := j * cc
		c1 := min(c0+cc, a.Shape[1])
		copy(out[8*r*cc:], raw[8*(row*a.Shape[1]+c0):8*(row*a.Shape[1]+c1)])
	}
	return out
}

// writeZarrV2 writes a Zarr v2 array directory: the .zarray metadata (the
// caller's business, in numcodecs' terms) and one Blosc1 chunk per file.
func writeZarrV2(t *testing.T, path string, raw []byte, a zarrArray, p blosc2.CParams) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	meta := map[string]any{
		"zarr_format": 2, "shape": a.Shape, "chunks": a.Chunks, "dtype": a.DType, "order": "C",
		"fill_value": 0.0, "filters": nil,
		"compressor": map[string]any{"id": "blosc", "cname": a.CName, "clevel": p.Level, "shuffle": a.Shuffle, "blocksize": 0},
	}
	b, _ := json.Marshal(meta)
	if err := os.WriteFile(filepath.Join(path, ".zarray"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i*a.Chunks[0] < a.Shape[0]; i++ {
		for j := 0; j*a.Chunks[1] < a.Shape[1]; j++ {
			chunk, err := blosc2.Compress(nil, zarrChunk(raw, a, i, j), &p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(path, fmt.Sprintf("%d.%d", i, j)), chunk, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
