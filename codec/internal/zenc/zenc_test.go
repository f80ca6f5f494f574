package zenc

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2/codec/internal/zdec"
	"github.com/klauspost/compress/zstd"
)

// levels are the zstd levels C-Blosc2's clevels map to (1-15, 22), and
// two more of the optimal parser's.
var levels = []int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 22}

// testLevels are levels, or with -short (the race detector's and
// qemu's runs, 20 times slower) one of each strategy at the test
// inputs' sizes: fast, dfast, lazy2 and btlazy2 or lazy2, btopt, and
// btultra2 with the block splitter.
func testLevels() []int {
	if testing.Short() {
		return []int{1, 3, 9, 11, 13, 22}
	}
	return levels
}

// inputs are data of the kinds the codec sees: text, runs, shuffled
// numbers, noise, and the sizes around the block and table limits.
func inputs(t testing.TB) map[string][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	m := map[string][]byte{
		"empty": {},
		"one":   {7},
		"short": []byte("abcabcabcabc"),
		"zeros": make([]byte, 300000),
	}
	noise := make([]byte, 200000)
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	m["noise"] = noise
	// A block the size of C-Blosc2's largest with no 4 bytes twice:
	// levels 13-22 parse it with the optimal parser and its splitter,
	// and at level 13 (minimum match 4) find no sequence in it.
	// (Its own generator: the other inputs stay as they were.)
	ru := rand.New(rand.NewPCG(3, 4))
	unique := make([]byte, 3, 128<<10)
	seen := map[uint32]bool{}
	for len(unique) < cap(unique) {
		b, n := byte(ru.Uint32()), len(unique)
		w := uint32(unique[n-3]) | uint32(unique[n-2])<<8 | uint32(unique[n-1])<<16 | uint32(b)<<24
		if !seen[w] {
			seen[w] = true
			unique = append(unique, b)
		}
	}
	m["unique131072"] = unique
	var text bytes.Buffer
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "\n"}
	for text.Len() < 700000 {
		text.WriteString(words[r.IntN(len(words))])
		text.WriteByte(' ')
	}
	m["text"] = text.Bytes()
	ts := make([]byte, 8*60000)
	v := uint64(1_600_000_000)
	for i := 0; i < len(ts)/8; i++ {
		v += 60 + uint64(r.IntN(3))
		for j := range 8 {
			ts[j*(len(ts)/8)+i] = byte(v >> (8 * j)) // shuffled
		}
	}
	m["stamps"] = ts
	for _, n := range []int{5, 63, 64, 255, 256, 1023, 1024, 16383, 16384, 16385, 131071, 131072, 131073, 262145} {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcdefgh"[r.IntN(3+i%5)]
		}
		m[fmt.Sprintf("size%d", n)] = b
	}
	// Real data from the repository's testdata, as C-Blosc2 would give
	// it: shuffled where it is typed, in 128 KiB blocks and whole.
	for name, f := range map[string]struct {
		file     string
		typesize int
	}{
		"taxi_ts": {"nab_nyc_taxi.ts.i64.bin", 8}, "taxi_val": {"nab_nyc_taxi.value.f64.bin", 8},
		"rain": {"rainfall_grid_150x150.f32.bin", 4}, "ecg": {"ecg_mitbih_208.u16.bin", 2},
	} {
		b, err := os.ReadFile(filepath.Join("../../../testdata/data", f.file))
		if err != nil {
			t.Fatal(err)
		}
		m[name+"_raw"] = b
		m[name+"_shuffled"] = shuffleBytes(b[:min(len(b), 128<<10)], f.typesize)
	}
	return m
}

// encode returns in's frame at level, or false for a level zenc does not
// implement at in's size.
func encode(t *testing.T, e *Encoder, in []byte, level int) ([]byte, bool) {
	t.Helper()
	frame, err := e.EncodeAll(nil, in, level)
	if errors.Is(err, ErrUnsupported) {
		return nil, false
	}
	if err != nil {
		t.Fatalf("level %d, %d bytes: %v", level, len(in), err)
	}
	return frame, true
}

// eachFrame calls f with every test input, at every test level the
// input's size allows, and e's frame of it.
func eachFrame(t *testing.T, e *Encoder, f func(name string, level int, in, frame []byte)) {
	t.Helper()
	for _, level := range testLevels() {
		for name, in := range inputs(t) {
			if frame, ok := encode(t, e, in, level); ok {
				f(name, level, in, frame)
			}
		}
	}
}

// TestRoundTrip: every frame we write decodes to its input with our
// decoder and with klauspost's, and is no larger than a raw copy plus
// headers.
func TestRoundTrip(t *testing.T) {
	kd, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer kd.Close()
	var e Encoder
	var d zdec.Decoder
	eachFrame(t, &e, func(name string, _ int, in, frame []byte) {
		got, err := kd.DecodeAll(frame, nil)
		if err != nil || !bytes.Equal(got, in) {
			t.Fatalf("%s (%d bytes → %d): klauspost decodes %d bytes, err %v", name, len(in), len(frame), len(got), err)
		}
		out := make([]byte, len(in))
		if err := d.DecodeAll(out, frame); err != nil || !bytes.Equal(out, in) {
			t.Fatalf("%s: zdec: %v", name, err)
		}
		if max := len(in) + 16 + 3*(len(in)/maxBlockSize+1); len(frame) > max {
			t.Errorf("%s: %d bytes → %d, over %d", name, len(in), len(frame), max)
		}
	})
}

// TestEncodeAllTight: a frame written into a buffer with just its room,
// or a few bytes more, is the frame written into a new one: the
// sequences' bit stream, written in place with up to 8 bytes of room past
// its end, goes through the Encoder's own buffer where dst lacks that room.
func TestEncodeAllTight(t *testing.T) {
	var e Encoder
	eachFrame(t, &e, func(name string, level int, in, frame []byte) {
		for _, spare := range []int{-1, 0, 8} {
			buf := make([]byte, 3, 3+len(frame)+spare)
			out, err := e.EncodeAll(buf, in, level)
			if err != nil || !bytes.Equal(out[3:], frame) {
				t.Fatalf("%s level %d: into a buffer of %d spare bytes: %d bytes, err %v", name, level, spare, len(out)-3, err)
			}
		}
	})
}

// TestReuse: an Encoder's output depends only on its input, not on the
// frames it wrote before, whose indices stay in its tables: at every
// strategy, after frames of other sizes and levels (tables of other
// sizes, never cleared between frames: a base that did not move past
// the last frame's indices would leave them candidates), after a frame
// compressed more than 32:1 (whose search touched few entries), and
// where the indices would pass maxIndex and the tables are cleared (a
// skipped clear leaves later indices than the frame's in them).
func TestReuse(t *testing.T) {
	in := inputs(t)
	// 1 KiB of noise, repeated: over 32:1 at every level.
	periodic := bytes.Repeat(in["noise"][:1024], 400)
	var reused Encoder
	sparseBefore := func(level int) {
		frame, err := reused.EncodeAll(nil, periodic, level)
		if err != nil || len(frame)*32 >= len(periodic) {
			t.Fatalf("level %d: the periodic input, %d bytes of %d (%v), is not sparse", level, len(frame), len(periodic), err)
		}
	}
	for _, level := range testLevels() {
		for _, name := range []string{"text", "stamps", "noise", "taxi_val_shuffled", "zeros", "size131073"} {
			var fresh Encoder
			want, _ := fresh.EncodeAll(nil, in[name], level)
			for i, other := range []string{"text", "stamps", "size5"} {
				if _, err := reused.EncodeAll(nil, in[other], levels[(i+level)%len(levels)]); err != nil {
					t.Fatal(err)
				}
			}
			sparseBefore(level)
			got, _ := reused.EncodeAll(nil, in[name], level)
			if !bytes.Equal(got, want) {
				t.Fatalf("level %d %s: %d bytes after other frames, %d from a fresh encoder", level, name, len(got), len(want))
			}
			// The next frame's indices pass maxIndex.
			sparseBefore(level)
			reused.base = maxIndex - uint32(len(in[name]))
			if got, _ = reused.EncodeAll(nil, in[name], level); !bytes.Equal(got, want) {
				t.Fatalf("level %d %s: %d bytes after the indices restarted, %d from a fresh encoder", level, name, len(got), len(want))
			}
		}
	}
}

// FuzzRoundTrip: whatever the input and the level, the frame decodes to
// the input with our decoder and with klauspost's, and appending to dst
// keeps dst.
func FuzzRoundTrip(f *testing.F) {
	in := inputs(f)
	for i, name := range []string{"short", "size1024", "size255"} {
		f.Add(uint8(i), in[name])
	}
	f.Add(uint8(3), in["taxi_ts_shuffled"][:4096])
	f.Add(uint8(4), bytes.Repeat([]byte("abcd"), 1000))
	kd, err := zstd.NewReader(nil)
	if err != nil {
		f.Fatal(err)
	}
	var e Encoder
	var d zdec.Decoder
	f.Fuzz(func(t *testing.T, l uint8, in []byte) {
		prefix := []byte("prefix")
		frame, err := e.EncodeAll(prefix, in, levels[int(l)%len(levels)])
		if errors.Is(err, ErrUnsupported) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(frame, prefix) {
			t.Fatal("dst's bytes lost")
		}
		frame = frame[len(prefix):]
		got, err := kd.DecodeAll(frame, nil)
		if err != nil || !bytes.Equal(got, in) {
			t.Fatalf("klauspost: %v", err)
		}
		out := make([]byte, len(in))
		if err := d.DecodeAll(out, frame); err != nil || !bytes.Equal(out, in) {
			t.Fatalf("zdec: %v", err)
		}
	})
}

// TestUnsupported: levels outside 1-22, inputs over 128 MiB (a
// single-segment frame's window would pass libzstd's limit) and levels
// whose tables would pass 256 MB for the input (levels 21 and 22 over
// 16 MiB, 22 at 16 MiB, neither at 8 MiB) are refused with ErrUnsupported, dst
// untouched, for the caller's other encoder.
func TestUnsupported(t *testing.T) {
	var e Encoder
	dst := []byte("dst")
	for _, c := range []struct {
		level, n int
	}{{0, 10}, {-1, 10}, {23, 10}, {1, maxInput + 1}, {22, 16 << 20}, {21, 16<<20 + 1}} {
		out, err := e.EncodeAll(dst, make([]byte, c.n), c.level)
		if !errors.Is(err, ErrUnsupported) || string(out) != "dst" {
			t.Errorf("level %d, %d bytes: %q, %v", c.level, c.n, out, err)
		}
	}
	if p, _ := paramsFor(22, 8<<20); p.tableBytes() > maxTables {
		t.Errorf("level 22 refuses 8 MiB: %d bytes of tables", p.tableBytes())
	}
}

// TestLargeLevels: at levels 7 and 9 (C-Blosc2's clevels 4 and 5) an
// input of 128-256 KiB is searched with the minimum match and search
// depth of libzstd's parameters for inputs over 256 KiB (5 bytes, 16
// candidates) over the window and tables libzstd's table for its size
// gives (paramsFor's largeLevels); other levels and sizes keep
// libzstd's table for their size. And on text the frames of those levels
// are smaller than libzstd 1.5.6's own (TestLibzstdSizes holds them
// within 2% elsewhere): size131073, a 128 KiB block of few letters.
func TestLargeLevels(t *testing.T) {
	for _, level := range []int{7, 9} {
		small, large := levelParams[1][level], levelParams[0][level]
		for _, n := range []int{128<<10 + 1, 200 << 10, 256 << 10} {
			p, _ := paramsFor(level, n)
			if p.minMatch != large.minMatch || p.searchLog != large.searchLog || p.strategy != small.strategy ||
				p.windowLog != small.windowLog || p.hashLog != small.hashLog || p.chainLog != small.chainLog {
				t.Errorf("level %d, %d bytes: %+v; want libzstd's %+v with minMatch %d and searchLog %d", level, n, p, small, large.minMatch, large.searchLog)
			}
		}
		// Just outside the range: libzstd's tables for 128 KiB and for
		// more than 256 KiB.
		for n, class := range map[int]int{128 << 10: 2, 256<<10 + 1: 0} {
			if p, _ := paramsFor(level, n); p.minMatch != levelParams[class][level].minMatch {
				t.Errorf("level %d, %d bytes: %+v is not libzstd's table for the size", level, n, p)
			}
		}
	}
	for _, level := range []int{5, 8, 11} {
		if p, _ := paramsFor(level, 200<<10); p.minMatch != levelParams[1][level].minMatch || p.searchLog != levelParams[1][level].searchLog {
			t.Errorf("level %d, 200 KiB: %+v is not libzstd's table for the size", level, p)
		}
	}
	src := inputs(t)["size131073"]
	var e Encoder
	checked := 0
	for _, g := range readGolden(t) {
		if g.name != "size131073" || g.level != 7 && g.level != 9 {
			continue
		}
		checked++
		if frame, err := e.EncodeAll(nil, src, g.level); err != nil || len(frame) >= g.size {
			t.Errorf("level %d, size131073: %d bytes (%v), libzstd 1.5.6 %d", g.level, len(frame), err, g.size)
		}
	}
	if checked != 2 {
		t.Errorf("%s has %d of size131073's sizes at levels 7 and 9", goldenSizes, checked)
	}
}
