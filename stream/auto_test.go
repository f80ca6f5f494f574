package stream

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// autoData mixes kinds of data, so that chunks of one stream get
// different choices: float values, timestamps, text, zeros, a repeated
// value.
func autoData(t testing.TB) []byte {
	data := testData(t)
	data = append(data, logLines(150000)...)
	data = append(data, make([]byte, 200000)...)
	data = append(data, bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 30000)...)
	return data
}

// logLines returns at least n bytes of log lines that differ only in
// their length: a shuffle orders them.
func logLines(n int) []byte {
	var text bytes.Buffer
	for i := 0; text.Len() < n; i++ {
		text.WriteString("2024-05-01 12:00:00 INFO request ")
		text.WriteString(strings.Repeat("x", i%13))
		text.WriteString(" served in 12 ms\n")
	}
	return text.Bytes()
}

// TestAutoDeterministic: in the automatic mode the frame depends only on
// the data and the options, never on the concurrency or on how writes
// are cut, and it decodes to the input.
func TestAutoDeterministic(t *testing.T) {
	defer noLeak(t)()
	data := autoData(t)
	for _, tier := range []blosc2.Tier{blosc2.TierFastest, blosc2.TierDefault, blosc2.TierBetter, blosc2.TierBest} {
		var ref []byte
		for _, conc := range []int{1, 2, 5} {
			for wi, write := range []func(*Writer, []byte) error{writeAll, writeOdd, readFrom} {
				frame := compressAll(t, data, write, WithTier(tier), WithChunkSize(100000), WithConcurrency(conc))
				if ref == nil {
					ref = frame
				} else if !bytes.Equal(frame, ref) {
					t.Fatalf("%v: concurrency %d write pattern %d changed the frame", tier, conc, wi)
				}
			}
		}
		if got := decompressAll(t, ref, WithReaderConcurrency(2)); !bytes.Equal(got, data) {
			t.Fatalf("%v: round trip differs", tier)
		}
		choices := autoChoices(t, ref)
		if len(choices) < 3 {
			t.Errorf("%v: only %d distinct choices over the chunks: %v", tier, len(choices), choices)
		}
		// Unseekable destinations store zero chunks as value chunks
		// (framewriter.SpecialsInline): count either kind.
		if n := choices["special-zeros"] + choices["special-value"]; n != 2 {
			t.Errorf("%v: %d special chunks, want 2 (the zeros, the repeated value): %v", tier, n, choices)
		}
	}
}

// autoChoices counts the chunks of each choice in frame.
func autoChoices(t testing.TB, frame []byte) map[string]int {
	t.Helper()
	r, err := framereader.NewReaderBytes(frame)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	m := map[string]int{}
	for i := range r.NumChunks() {
		ci, err := r.ChunkInfo(i)
		if err != nil {
			t.Fatal(err)
		}
		if ci.Special != blosc2.SpecialNone { // an index entry, no chunk stored
			m["special-"+ci.Special.String()]++
		} else {
			m[ci.Header.Choice()]++
		}
	}
	return m
}

// TestAutoOptions: options naming a parameter fix it in every chunk;
// WithCParams turns the automatic mode off.
func TestAutoOptions(t *testing.T) {
	data := autoData(t)
	frame := compressAll(t, data, writeAll, WithTier(blosc2.TierBetter), WithCodec(codec.LZ4), WithChunkSize(100000))
	for c := range autoChoices(t, frame) {
		if !strings.HasPrefix(c, "lz4 ") && !strings.HasPrefix(c, "special") {
			t.Fatalf("codec fixed at lz4, chunk %q", c)
		}
	}
	frame = compressAll(t, data, writeAll, WithFilters(blosc2.Filter{ID: blosc2.BitShuffle}), WithTier(blosc2.TierFastest), WithChunkSize(100000))
	for c := range autoChoices(t, frame) {
		if !strings.Contains(c, " bitshuffle/") && !strings.HasPrefix(c, "special") {
			t.Fatalf("filters fixed at bitshuffle, chunk %q", c)
		}
	}
	frame = compressAll(t, data, writeAll, WithTier(blosc2.TierFastest), WithCParams(blosc2.DefaultCParams()), WithChunkSize(100000))
	want := compressAll(t, data, writeAll, WithChunkSize(100000), WithCodec(codec.BloscLZ), WithFilters(blosc2.Filter{ID: blosc2.Shuffle}))
	if !bytes.Equal(frame, want) {
		t.Fatal("WithCParams after WithTier does not give the frame of fixed parameters")
	}
	// The default is the automatic mode at the default tier.
	frame = compressAll(t, data, writeAll, WithChunkSize(100000))
	want = compressAll(t, data, writeAll, WithChunkSize(100000), WithTier(blosc2.TierDefault))
	if !bytes.Equal(frame, want) {
		t.Fatal("the default is not the automatic mode's default tier")
	}
	if _, err := NewWriter(&bytes.Buffer{}, WithTier(0)); err == nil {
		t.Fatal("tier 0 accepted")
	}
}

// TestAutoCInterop: C-Blosc2 3.3.2 decodes automatic frames bit-exact,
// the fastest tier's 1 MiB blocks of text (zstd level 2's parameters,
// codec.LookupFast) among them.
func TestAutoCInterop(t *testing.T) {
	bin := testvec.B2C(t)
	type run struct {
		tier  blosc2.Tier
		chunk int
		data  []byte
	}
	var runs []run
	for _, tier := range []blosc2.Tier{blosc2.TierFastest, blosc2.TierDefault, blosc2.TierBetter, blosc2.TierBest} {
		runs = append(runs, run{tier, 100000, autoData(t)})
	}
	// Recorded audio, near-noise: the fastest tier compresses it with
	// LZ4 beyond C-Blosc2's accelerations (CParams.LZ4Acceleration).
	if dir := testvec.SharedData(); dir == "" {
		t.Log("no shared data: the audio's run (LZ4 beyond C-Blosc2's accelerations) is not made")
	} else if audio, err := os.ReadFile(filepath.Join(dir, "timgm6mb_samples.i16.bin")); err != nil {
		t.Fatal(err)
	} else {
		a := blosc2.DefaultAuto(blosc2.TierFastest)
		if p, err := blosc2.ChooseCParams(audio[:1<<20], &a); err != nil || p.LZ4Acceleration == 0 {
			t.Fatalf("the audio's first MiB at the fastest tier: %+v, %v", p, err)
		}
		runs = append(runs, run{blosc2.TierFastest, 1 << 20, audio})
	}
	runs = append(runs, run{blosc2.TierFastest, 4 << 20, testvec.LogText(3 << 20)})
	var dir string
	for _, r := range runs {
		tier, data := r.tier, r.data
		dir = t.TempDir()
		path := filepath.Join(dir, "auto.b2frame")
		// A file: the frame's header is patched, as C-Blosc2 requires.
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWriter(f, WithTier(tier), WithChunkSize(r.chunk))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		raw := filepath.Join(dir, "raw")
		if out, err := exec.Command(bin, "decompress-frame", path, raw).CombinedOutput(); err != nil {
			t.Fatalf("%v: C-Blosc2 cannot decode: %v\n%s", tier, err, out)
		}
		got, err := os.ReadFile(raw)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("%v: C-Blosc2 decodes other bytes (%d vs %d)", tier, len(got), len(data))
		}
	}
	// The last run is what it is meant to be: one chunk of text, zstd
	// in blocks over 256 KiB.
	frame, err := os.ReadFile(filepath.Join(dir, "auto.b2frame"))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := framereader.NewReaderBytes(frame)
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	if ci, err := fr.ChunkInfo(0); err != nil || fr.NumChunks() != 1 || ci.Header.Choice() != "zstd nofilter/1" || ci.Header.BlockSize <= 256<<10 {
		t.Fatalf("fastest tier's text: %d chunks, the first %v (%v)", fr.NumChunks(), ci.Header, err)
	}
}
