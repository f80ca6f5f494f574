package blosc2

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/testvec"
)

var (
	rtCodecs    = []codec.ID{BloscLZ, LZ4, LZ4HC, Zlib, Zstd}
	rtTypesizes = []int{1, 2, 3, 4, 7, 8, 16, 255, 256, 1000}
	rtSplits    = []SplitMode{SplitAlways, SplitNever, SplitAuto, SplitForward}
	rtPipelines = [][MaxFilters]Filter{
		{},
		Pipeline(Filter{ID: Shuffle}),
		Pipeline(Filter{ID: BitShuffle}),
		Pipeline(Filter{ID: Delta}, Filter{ID: Shuffle}),
		Pipeline(Filter{ID: Delta}, Filter{ID: BitShuffle}),
		Pipeline(Filter{ID: Shuffle}, Filter{ID: ByteDelta}),
		Pipeline(Filter{ID: Shuffle}, Filter{ID: Delta}), // DELTA after another filter
		Pipeline(Filter{ID: Shuffle, Meta: 2}, Filter{ID: BitShuffle}, Filter{ID: Shuffle}),
		{{ID: Delta}, {ID: Shuffle}, {ID: ByteDelta, Meta: 3}, {ID: BitShuffle}, {ID: Delta}, {ID: Shuffle}},
	}
)

// roundTripInputs are real data (the small files copied into testdata) cut
// to a few sizes, plus the edge sizes of the issue: empty, 1 byte, below
// 32 bytes, not a multiple of the typesize or block size, one block.
func roundTripInputs(t *testing.T) map[string][]byte {
	in := map[string][]byte{}
	for _, f := range []string{"ecg_mitbih_208.u16.bin", "nab_nyc_taxi.value.f64.bin", "rainfall_grid_150x150.f32.bin", "nab_nyc_taxi.ts.i64.bin"} {
		b, err := os.ReadFile(filepath.Join(testvec.DataDir(), f))
		if err != nil {
			t.Fatal(err)
		}
		in[f] = b[:min(len(b), 70001)]
	}
	text, _ := testvec.Generate(&testvec.Gen{Gen: "text", Nbytes: 50000, Seed: 3})
	in["text"] = text
	for _, n := range []int{0, 1, 7, 31, 32, 33, 4096, 4099} {
		in[fmt.Sprintf("edge-%d", n)] = in["nab_nyc_taxi.value.f64.bin"][:n]
	}
	in["zeros"] = make([]byte, 40000)
	in["const"] = bytes.Repeat([]byte{1, 2, 3, 4, 5}, 9000)
	return in
}

// TestRoundTripMatrix compresses and decompresses over the parameter matrix
// of the issue: every codec × typesize × pipeline × split mode is visited,
// with levels, block sizes and thread counts drawn from a fixed seed. Each
// chunk must decode to its input (or, with TRUNC_PREC, to a fixed point),
// stay within len+MaxOverhead, be identical for 1 and 4 threads, and give
// the same bytes through GetItems.
func TestRoundTripMatrix(t *testing.T) {
	inputs := roundTripInputs(t)
	names := make([]string, 0, len(inputs))
	for k := range inputs {
		names = append(names, k)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	levels := []int{0, 1, 3, 5, 9}
	blocksizes := []int{0, 0, 1, 100, 4096, 10007, 65536}
	cases := 0
	for _, c := range rtCodecs {
		for _, ts := range rtTypesizes {
			for pi, pl := range rtPipelines {
				for _, sm := range rtSplits {
					if testing.Short() && rng.IntN(4) != 0 {
						continue
					}
					name := names[rng.IntN(len(names))]
					src := inputs[name]
					p := CParams{
						Codec: c, Level: levels[rng.IntN(len(levels))], TypeSize: ts, Filters: pl,
						BlockSize: blocksizes[rng.IntN(len(blocksizes))], SplitMode: sm, Concurrency: 1,
						UseDict: c != BloscLZ && c != Zlib && rng.IntN(3) == 0,
					}
					label := fmt.Sprintf("%s/%s/ts%d/pipe%d/split%d/l%d/bs%d/dict%v", name, codec.Name(c), ts, pi, sm, p.Level, p.BlockSize, p.UseDict)
					checkRoundTrip(t, label, src, p)
					cases++
				}
			}
		}
	}
	t.Logf("%d parameter combinations", cases)
}

// TestRoundTripTruncPrec covers the lossy filter: decoding gives the
// truncated data, which compresses to itself.
func TestRoundTripTruncPrec(t *testing.T) {
	inputs := roundTripInputs(t)
	for _, tc := range []struct {
		file string
		ts   int
		prec int8
	}{{"rainfall_grid_150x150.f32.bin", 4, 10}, {"rainfall_grid_150x150.f32.bin", 4, -13}, {"nab_nyc_taxi.value.f64.bin", 8, 20}, {"nab_nyc_taxi.value.f64.bin", 8, -40}} {
		for _, c := range rtCodecs {
			p := CParams{Codec: c, Level: 5, TypeSize: tc.ts, Filters: Pipeline(Filter{ID: TruncPrec, Meta: uint8(tc.prec)}, Filter{ID: Shuffle})}
			chunk, err := Compress(nil, inputs[tc.file], &p)
			if err != nil {
				t.Fatal(err)
			}
			once, err := Decompress(nil, chunk, nil)
			if err != nil {
				t.Fatal(err)
			}
			chunk2, _ := Compress(nil, once, &p)
			twice, err := Decompress(nil, chunk2, nil)
			if err != nil || !bytes.Equal(once, twice) {
				t.Fatalf("%s prec %d %s: truncation is not a fixed point (%v)", tc.file, tc.prec, codec.Name(c), err)
			}
		}
	}
	p := CParams{Codec: LZ4, Level: 5, TypeSize: 2, Filters: Pipeline(Filter{ID: TruncPrec, Meta: 3})}
	if _, err := Compress(nil, make([]byte, 1000), &p); err == nil {
		t.Fatal("TRUNC_PREC on typesize 2 compressed")
	}
}

// checkRoundTrip compresses src with p, checks the chunk every way it
// can be read back, and returns it.
func checkRoundTrip(t *testing.T, label string, src []byte, p CParams) []byte {
	t.Helper()
	chunk, err := Compress(nil, src, &p)
	if err != nil {
		t.Fatalf("%s: compress: %v", label, err)
	}
	if len(chunk) > len(src)+MaxOverhead {
		t.Fatalf("%s: chunk of %d bytes for %d", label, len(chunk), len(src))
	}
	p4 := p
	p4.Concurrency = 4
	chunk4, err := Compress([]byte("prefix"), src, &p4)
	if err != nil || !bytes.Equal(chunk4[6:], chunk) {
		t.Fatalf("%s: 4 threads wrote different bytes (%v)", label, err)
	}
	checkChunkPieces(t, label, src, &p4, chunk)
	for _, threads := range []int{1, 4} {
		got, err := Decompress([]byte("x"), chunk, &DParams{Concurrency: threads})
		if err != nil {
			t.Fatalf("%s: decompress: %v", label, err)
		}
		if !bytes.Equal(got[1:], src) {
			t.Fatalf("%s: threads %d: round trip differs", label, threads)
		}
	}
	h, err := ParseHeader(chunk)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	n := h.Nbytes / h.TypeSize
	if n > 2 {
		got, err := GetItems(nil, chunk, n/3, n/2, nil)
		if err != nil || !bytes.Equal(got, src[n/3*h.TypeSize:(n/3+n/2)*h.TypeSize]) {
			t.Fatalf("%s: GetItems differs (%v)", label, err)
		}
	}
	return chunk
}

// checkChunkPieces compresses src with p into a Chunk, which held another
// chunk before and gets a buffer too short for its head, and checks that
// its pieces are want's bytes, whichever way they are read, and that a
// chunk of several blocks on several goroutines is in several pieces.
func checkChunkPieces(t *testing.T, label string, src []byte, p *CParams, want []byte) {
	t.Helper()
	var c Chunk
	if err := c.Compress(nil, src[:len(src)/2], p); err != nil {
		t.Fatalf("%s: Chunk.Compress of the first half: %v", label, err)
	}
	buf := make([]byte, 10)
	if err := c.Compress(buf, src, p); err != nil {
		t.Fatalf("%s: Chunk.Compress: %v", label, err)
	}
	defer c.Release()
	if got := c.Append([]byte("prefix")); !bytes.Equal(got[6:], want) || c.Len() != len(want) {
		t.Fatalf("%s: the Chunk's %d pieces (%d bytes) differ from Compress's chunk (%d)", label, len(c.Pieces()), c.Len(), len(want))
	}
	var w bytes.Buffer
	if n, err := c.WriteTo(&w); err != nil || n != int64(len(want)) || !bytes.Equal(w.Bytes(), want) {
		t.Fatalf("%s: WriteTo wrote %d bytes (%v), other than Compress's chunk", label, n, err)
	}
	h, err := ParseHeader(want)
	if err != nil {
		t.Fatal(err)
	}
	nblocks := 0
	if h.BlockSize > 0 {
		nblocks = (h.Nbytes + h.BlockSize - 1) / h.BlockSize
	}
	stored := h.Flags&flagMemcpyed != 0 || h.Special() != SpecialNone
	if wantPieces := 1 + nblocks; !stored && p.Concurrency > 1 && nblocks > 1 && len(c.Pieces()) != wantPieces {
		t.Fatalf("%s: %d pieces for %d blocks on %d goroutines, want %d", label, len(c.Pieces()), nblocks, p.Concurrency, wantPieces)
	}
}

// TestVLRoundTrip checks variable-length-block chunks: whole and per block.
func TestVLRoundTrip(t *testing.T) {
	src := roundTripInputs(t)["nab_nyc_taxi.value.f64.bin"]
	for _, c := range rtCodecs {
		for _, pl := range rtPipelines[:5] {
			for _, level := range []int{0, 5} {
				var blocks [][]byte
				sizes := []int{8000, 16000, 800, 1, 333}
				rest := src[:50000]
				for i := 0; len(rest) > 0; i++ {
					n := min(sizes[i%len(sizes)], len(rest))
					blocks = append(blocks, rest[:n])
					rest = rest[n:]
				}
				p := CParams{Codec: c, Level: level, TypeSize: 8, Filters: pl, UseDict: c == Zstd || c == LZ4}
				chunk, err := CompressVL(nil, blocks, &p)
				if err != nil {
					t.Fatal(err)
				}
				got, err := Decompress(nil, chunk, nil)
				if err != nil || !bytes.Equal(got, src[:50000]) {
					t.Fatalf("%s level %d: VL round trip failed (%v)", codec.Name(c), level, err)
				}
				for i, b := range blocks {
					got, err := DecompressVLBlock(nil, chunk, i)
					if err != nil || !bytes.Equal(got, b) {
						t.Fatalf("%s: VL block %d differs (%v)", codec.Name(c), i, err)
					}
				}
			}
		}
	}
}

// TestSharedDataRoundTrip runs the default parameters of every codec over
// the whole real-data set when ../shared/data is present (CI has it).
func TestSharedDataRoundTrip(t *testing.T) {
	dir := testvec.SharedData()
	if dir == "" || testing.Short() {
		t.Skip("../shared/data not present or -short")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil || len(src) == 0 {
			continue
		}
		src = src[:min(len(src), 4<<20)]
		for _, c := range rtCodecs {
			p := DefaultCParams()
			p.Codec, p.TypeSize, p.Concurrency = c, typesizeOf(f), 2
			checkRoundTrip(t, filepath.Base(f)+"/"+codec.Name(c), src, p)
		}
	}
}

func typesizeOf(name string) int {
	for _, s := range []struct {
		suffix string
		n      int
	}{{".i16.bin", 2}, {".u16.bin", 2}, {".f32.bin", 4}, {".f64.bin", 8}, {".i64.bin", 8}} {
		if len(name) > len(s.suffix) && name[len(name)-len(s.suffix):] == s.suffix {
			return s.n
		}
	}
	return 1
}

// TestRunByte checks runByte against a plain loop: runs of every length up
// to 300 bytes, and the same with one byte changed at each position.
func TestRunByte(t *testing.T) {
	naive := func(s []byte) (byte, bool) {
		for _, c := range s {
			if c != s[0] {
				return 0, false
			}
		}
		if len(s) == 0 {
			return 0, true
		}
		return s[0], true
	}
	for n := range 300 {
		s := bytes.Repeat([]byte{0xa5}, n)
		if v, ok := runByte(s); !ok || (n > 0 && v != 0xa5) || (n == 0 && v != 0) {
			t.Fatalf("run of %d: %#x %v", n, v, ok)
		}
		for p := range n {
			s[p] ^= 1 << (p % 8)
			v, ok := runByte(s)
			wv, wok := naive(s)
			if v != wv || ok != wok {
				t.Fatalf("%d bytes, byte %d changed: %#x %v, want %#x %v", n, p, v, ok, wv, wok)
			}
			s[p] ^= 1 << (p % 8)
		}
	}
}
