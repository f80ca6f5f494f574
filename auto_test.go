package blosc2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// synthF64 is a smooth float64 series (a slow sine with a trend).
func synthF64(n int) []byte {
	b := make([]byte, n*8)
	for i := range n {
		v := 20 + 5*math.Sin(float64(i)/500) + float64(i)*1e-4
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return b
}

// synthI16 is a smooth int16 signal with a little noise.
func synthI16(n int) []byte { return testvec.SineI16(n, 16, rand.NewPCG(3, 4)) }

// noisyI16 is an int16 signal whose low byte is noise: it compresses
// less than 2:1.
func noisyI16(n int) []byte { return testvec.SineI16(n, 512, rand.NewPCG(7, 8)) }

// synthStamps is a series of int64 millisecond timestamps a second apart
// with a little jitter.
func synthStamps(n int) []byte {
	r := rand.New(rand.NewPCG(5, 6))
	b := make([]byte, n*8)
	for i := range n {
		binary.LittleEndian.PutUint64(b[8*i:], 1_700_000_000_000+uint64(1000*i+r.IntN(3)))
	}
	return b
}

func repeatValue(v []byte, n int) []byte { return bytes.Repeat(v, n/len(v)) }

var allTiers = []Tier{TierFastest, TierDefault, TierBetter, TierBest}

// chooseAt returns the parameters the tier's automatic mode, nothing
// fixed, chooses for src.
func chooseAt(t *testing.T, tier Tier, src []byte) CParams {
	t.Helper()
	a := DefaultAuto(tier)
	p, err := ChooseCParams(src, &a)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAutoChoices: on data of known structure the probe finds it.
func TestAutoChoices(t *testing.T) {
	shuffled := func(p CParams) bool {
		for _, f := range p.Filters {
			if f.ID == Shuffle || f.ID == BitShuffle {
				return true
			}
		}
		return false
	}
	for _, tier := range allTiers {
		a := DefaultAuto(tier)
		t.Run(tier.String(), func(t *testing.T) {
			p, err := ChooseCParams(testvec.LogText(1<<20), &a)
			if err != nil {
				t.Fatal(err)
			}
			if shuffled(p) {
				t.Errorf("text: chose %v typesize %d, want no shuffle", p.Filters, p.TypeSize)
			}
			// The fastest tier compresses text with zstd's fastest
			// level, its typed chunks with LZ4.
			text := map[Tier]codecWant{TierFastest: {Zstd, 1}, TierDefault: {Zstd, 2}, TierBetter: {Zstd, 4}, TierBest: {Zstd, 6}}[tier]
			if p.Codec != text.id || p.Level != text.level {
				t.Errorf("text: codec %d level %d, want %d %d", p.Codec, p.Level, text.id, text.level)
			}
			want := map[Tier]codecWant{TierFastest: {LZ4, 9}, TierDefault: {Zstd, 2}, TierBetter: {Zstd, 4}, TierBest: {Zstd, 6}}[tier]
			f64 := synthF64(1 << 17)
			p, _ = ChooseCParams(f64, &a)
			if !shuffled(p) || p.TypeSize != 8 {
				t.Errorf("smooth f64: chose %v typesize %d, want a shuffle of 8-byte elements", p.Filters, p.TypeSize)
			}
			// Its noisy low mantissa bytes keep it under 2:1, and LZ4
			// comes within 2% of zstd there: the default tier takes
			// the fastest tier's codec, at the level that tier takes.
			if tier == TierDefault {
				fa := DefaultAuto(TierFastest)
				pf, _ := ChooseCParams(f64, &fa)
				if p.Codec != LZ4 || p.Level != pf.Level {
					t.Errorf("smooth f64: codec %d level %d, want LZ4 %d as the fastest tier", p.Codec, p.Level, pf.Level)
				}
			} else if p.Codec != want.id {
				t.Errorf("smooth f64: codec %d, want %d", p.Codec, want.id)
			}
			src := synthI16(1 << 19)
			p, _ = ChooseCParams(src, &a)
			if !shuffled(p) || p.TypeSize != 2 {
				t.Errorf("i16: chose %v typesize %d, want a shuffle of 2-byte elements", p.Filters, p.TypeSize)
			}
			// The noise in its low bytes leaves the codec little to
			// match: the tiers but the best take its fastest level
			// (LZ4's acceleration 9, zstd's fastest); the best tier
			// keeps its own, as the chunk compresses more than 2:1
			// (TestAutoMiddleWindow has its fast level).
			// At the fastest tier LZ4 cannot compress it as it is, and
			// the shuffle at noiseAccel replaces the probe's
			// shuffle+bytedelta (Auto.rawNoise): on the whole chunk it
			// is smaller too.
			want.level = 1
			accel := 0
			switch tier {
			case TierBest:
				want.level = tiers[TierBest].level
			case TierFastest:
				want.level, accel = tiers[TierFastest].level, tiers[TierFastest].noiseAccel
			}
			if p.Codec != want.id || p.Level != want.level || p.LZ4Acceleration != accel {
				t.Errorf("noisy i16: codec %d level %d acceleration %d, want %d %d %d", p.Codec, p.Level, p.LZ4Acceleration, want.id, want.level, accel)
			}
			// And the whole chunk loses less than 1% there against the
			// tier's level.
			out, _ := Compress(nil, src, &p)
			q := p
			q.Level, q.LZ4Acceleration = tiers[tier].level, 0
			slow, _ := Compress(nil, src, &q)
			if len(out) > len(slow)+len(slow)/100 {
				t.Errorf("noisy i16: level %d makes %d bytes, level %d %d", p.Level, len(out), q.Level, len(slow))
			}
			// Timestamps compress far beyond 5:1: the long matches of
			// whole blocks pay for the tier's level.
			p, _ = ChooseCParams(synthStamps(1<<17), &a)
			if p.Codec != want.id || p.Level != tiers[tier].level {
				t.Errorf("timestamps: codec %d level %d, want %d %d", p.Codec, p.Level, want.id, tiers[tier].level)
			}
		})
	}
}

// TestAutoMiddleWindow: the level and codec rules judge a chunk by its
// middle, not by a first window unlike the rest (a grid's poles).
func TestAutoMiddleWindow(t *testing.T) {
	// 32 KiB of a slow ramp, then noise in the low bytes: the probe's
	// first window (8 KiB of a 1 MiB chunk) compresses far beyond 2:1,
	// the chunk less than 2:1.
	src := noisyI16(1 << 19)
	for i := range 16 << 10 {
		binary.LittleEndian.PutUint16(src[2*i:], uint16(i/64))
	}
	compressed := func(p CParams) int {
		out, err := Compress(nil, src, &p)
		if err != nil {
			t.Fatal(err)
		}
		return len(out)
	}
	// The default tier takes the fastest tier's codec, LZ4, within 1/6
	// of zstd's size.
	a := DefaultAuto(TierDefault)
	p, _ := ChooseCParams(src, &a)
	if p.Codec != LZ4 {
		t.Errorf("default tier: codec %d, want LZ4", p.Codec)
	}
	q := p
	q.Codec, q.Level, q.BlockSize = Zstd, tiers[TierDefault].level, tiers[TierDefault].typedBS
	if n, z := compressed(p), compressed(q); n > z+z/tiers[TierDefault].fastCodecSlack {
		t.Errorf("default tier: LZ4 %d bytes, zstd %d", n, z)
	}
	// The best tier takes its fast level. Its rule is 1% on a 16 KiB
	// window; on the whole chunk, within 2% of its own level (the
	// project's audio lost 1.1%, the geoid grid 0.9%).
	a = DefaultAuto(TierBest)
	p, _ = ChooseCParams(src, &a)
	if p.Codec != Zstd || p.Level != tiers[TierBest].literalLevel {
		t.Errorf("best tier: codec %d level %d, want zstd %d", p.Codec, p.Level, tiers[TierBest].literalLevel)
	}
	q = p
	q.Level = tiers[TierBest].level
	if n, z := compressed(p), compressed(q); n > z+z/50 {
		t.Errorf("best tier: level %d %d bytes, level %d %d", p.Level, n, q.Level, z)
	}
}

type codecWant struct {
	id    codec.ID
	level int
}

// TestAutoSpecial: a chunk of one repeated value becomes a special chunk.
func TestAutoSpecial(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  []byte
		kind Special
	}{
		{"zeros", make([]byte, 1<<20), SpecialZero},
		{"f64", repeatValue(synthF64(1)[:8], 1<<20), SpecialValue},
		{"byte", repeatValue([]byte{7}, 100000), SpecialValue},
		{"i16", repeatValue([]byte{1, 2}, 100002), SpecialValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunk, _, err := CompressAuto(nil, tc.src, nil)
			if err != nil {
				t.Fatal(err)
			}
			h, err := ParseHeader(chunk)
			if err != nil {
				t.Fatal(err)
			}
			if h.Special() != tc.kind {
				t.Fatalf("special kind %v, want %v (%s)", h.Special(), tc.kind, h.Choice())
			}
			if len(chunk) > ExtendedHeaderLen+16 {
				t.Fatalf("special chunk of %d bytes", len(chunk))
			}
			got, err := Decompress(nil, chunk, nil)
			if err != nil || !bytes.Equal(got, tc.src) {
				t.Fatalf("round trip: %v", err)
			}
		})
	}
}

// TestAutoDeterministic: the chunk depends on the data and the tier only,
// not on the number of goroutines, and decodes to the input; a Chunk
// compressed in pieces holds the same choice and bytes.
func TestAutoDeterministic(t *testing.T) {
	inputs := map[string][]byte{
		"text":  testvec.LogText(300000),
		"f64":   synthF64(70000),
		"i16":   synthI16(200001),
		"mixed": append(testvec.LogText(100000), synthF64(20000)...),
		"tiny":  []byte("tiny"),
		"empty": nil,
	}
	for _, tier := range allTiers {
		for name, src := range inputs {
			var first []byte
			for _, threads := range []int{1, 2, 5} {
				a := DefaultAuto(tier)
				a.Base.Concurrency = threads
				chunk, p, err := CompressAuto(nil, src, &a)
				if err != nil {
					t.Fatalf("%v %s: %v", tier, name, err)
				}
				if first == nil {
					first = chunk
					got, err := Decompress(nil, chunk, nil)
					if err != nil || !bytes.Equal(got, src) {
						t.Fatalf("%v %s: round trip: %v", tier, name, err)
					}
				} else if !bytes.Equal(chunk, first) {
					t.Fatalf("%v %s: threads %d gives other bytes (%v)", tier, name, threads, p.Filters)
				}
				var c Chunk
				cp, err := c.CompressAuto(nil, src, &a)
				if err != nil || cp != p || !bytes.Equal(c.Append(nil), chunk) {
					t.Fatalf("%v %s: threads %d: Chunk.CompressAuto chose %v or wrote other bytes (%v)", tier, name, threads, cp.Filters, err)
				}
				c.Release()
			}
		}
	}
}

// TestAutoFixed: fixed parameters are kept; a hinted typesize is a
// candidate only.
func TestAutoFixed(t *testing.T) {
	src := synthF64(1 << 16)
	a := DefaultAuto(TierDefault)
	a.Fixed = FixCodec | FixLevel | FixFilters | FixTypeSize | FixBlockSize
	a.Base = CParams{Codec: LZ4, Level: 3, TypeSize: 4, Filters: Pipeline(Filter{ID: BitShuffle}), BlockSize: 8192}
	p, err := ChooseCParams(src, &a)
	if err != nil {
		t.Fatal(err)
	}
	if p.Codec != LZ4 || p.Level != 3 || p.TypeSize != 4 || p.Filters != a.Base.Filters || p.BlockSize != 8192 {
		t.Fatalf("fixed parameters changed: %+v", p)
	}
	a.Fixed = FixFilters
	p, _ = ChooseCParams(src, &a)
	if p.Filters != a.Base.Filters || p.Codec != Zstd || p.TypeSize != 8 {
		t.Fatalf("only the filters fixed: %+v", p)
	}
	a.Fixed = FixTypeSize
	a.Base.TypeSize = 2
	p, _ = ChooseCParams(src, &a)
	if p.TypeSize != 2 {
		t.Fatalf("typesize fixed at 2, chose %d", p.TypeSize)
	}
	// The default tier's move to LZ4 for data under 2:1 (smooth f64,
	// TestAutoChoices) changes the codec and level: naming either keeps
	// the tier's. Otherwise the chunk gets the fastest tier's blocks.
	f64 := synthF64(1 << 19)
	a = DefaultAuto(TierDefault)
	if p, _ = ChooseCParams(f64, &a); p.Codec != LZ4 || p.BlockSize != tiers[TierFastest].typedBS {
		t.Fatalf("smooth f64 at the default tier: codec %d, block size %d, want LZ4 in %d", p.Codec, p.BlockSize, tiers[TierFastest].typedBS)
	}
	a.Base.Codec, a.Base.Level = Zstd, tiers[TierDefault].level
	for _, fix := range []Fixed{FixCodec, FixLevel} {
		a.Fixed = fix
		if p, _ = ChooseCParams(f64, &a); p.Codec != Zstd || p.BlockSize != tiers[TierDefault].typedBS {
			t.Fatalf("fixed %d: codec %d level %d, block size %d, want zstd in %d", fix, p.Codec, p.Level, p.BlockSize, tiers[TierDefault].typedBS)
		}
	}
	if _, err := ChooseCParams(src, &Auto{Tier: 9}); err == nil {
		t.Fatal("tier 9 accepted")
	}
}

// TestAutoFastZstd: where the automatic mode chooses the level, it
// compresses zstd with klauspost's encoder levels (FastZstd): the Go
// peers its tiers are measured against. A level the user fixes is
// C-Blosc2's, in libzstd's sizes. FastZstd changes the bytes of clevels
// 3-6 only, and the chunks decode either way.
func TestAutoFastZstd(t *testing.T) {
	src := synthStamps(1 << 16)
	for _, tier := range []Tier{TierFastest, TierDefault, TierBetter, TierBest} {
		a := DefaultAuto(tier)
		if p, err := ChooseCParams(src, &a); err != nil || !p.FastZstd {
			t.Errorf("%s: FastZstd %v, %v", tier, p.FastZstd, err)
		}
		a.Fixed, a.Base.Codec, a.Base.Level = FixLevel, Zstd, 4
		if p, err := ChooseCParams(src, &a); err != nil || p.FastZstd || p.Level != 4 {
			t.Errorf("%s, clevel 4 fixed: FastZstd %v at clevel %d, %v", tier, p.FastZstd, p.Level, err)
		}
	}
	p := CParams{Codec: Zstd, TypeSize: 8, Filters: Pipeline(Filter{ID: Shuffle})}
	for level := 1; level <= 9; level++ {
		var chunks [2][]byte
		for i, fast := range []bool{false, true} {
			p.Level, p.FastZstd = level, fast
			c, err := Compress(nil, src, &p)
			if err != nil {
				t.Fatal(err)
			}
			if back, err := Decompress(nil, c, nil); err != nil || !bytes.Equal(back, src) {
				t.Fatalf("clevel %d, FastZstd %v: %v", level, fast, err)
			}
			chunks[i] = c
		}
		if same := bytes.Equal(chunks[0], chunks[1]); same != (level < 3 || level > 6) {
			t.Errorf("clevel %d: FastZstd's chunk is the same: %v (%d and %d bytes)", level, same, len(chunks[0]), len(chunks[1]))
		}
	}
}

// TestAutoNoiseAcceleration: a chunk of near-noise (the fast level
// saves less than 1/8 of its sample) takes LZ4 beyond C-Blosc2's
// accelerations at the fastest tier only, losing less than the fast
// level's slack (1/16) against acceleration 9 on the whole chunk; a
// chunk LZ4 compresses better keeps C-Blosc2's accelerations. On the
// recorded audio of the shared data too, where it is found.
func TestAutoNoiseAcceleration(t *testing.T) {
	type input struct {
		name  string
		data  []byte
		noise bool
	}
	inputs := []input{
		{"sine, noise 2048", testvec.SineI16(1<<20, 2048, rand.NewPCG(9, 10)), true},
		{"sine, noise 512", testvec.SineI16(1<<20, 512, rand.NewPCG(9, 10)), false},
		{"timestamps", synthStamps(1 << 17), false},
	}
	if dir := testvec.SharedData(); dir != "" {
		if audio, err := os.ReadFile(filepath.Join(dir, "timgm6mb_samples.i16.bin")); err == nil {
			inputs = append(inputs, input{"audio", audio[:4<<20], true})
		}
	}
	for _, in := range inputs {
		for _, tier := range allTiers {
			p := chooseAt(t, tier, in.data)
			want := 0
			if in.noise && tier == TierFastest {
				want = tiers[TierFastest].noiseAccel
			}
			if p.LZ4Acceleration != want || want != 0 && (p.Codec != LZ4 || p.Level != 1) {
				t.Errorf("%s, %v tier: codec %d level %d acceleration %d, want %d", in.name, tier, p.Codec, p.Level, p.LZ4Acceleration, want)
			}
			if want == 0 {
				continue
			}
			fast := checkRoundTrip(t, in.name, in.data, p)
			q := p
			q.LZ4Acceleration = 0
			c9, err := Compress(nil, in.data, &q)
			if err != nil {
				t.Fatal(err)
			}
			if len(c9) < len(in.data)-len(in.data)/noiseSaving || len(fast) > len(c9)+len(c9)/tiers[TierFastest].literalSlack {
				t.Errorf("%s: %d bytes at acceleration %d, %d at 9, of %d", in.name, len(fast), want, len(c9), len(in.data))
			}
			t.Logf("%s: %d bytes at acceleration %d, %d at 9, of %d", in.name, len(fast), want, len(c9), len(in.data))
		}
	}
	bad := CParams{Codec: LZ4, TypeSize: 2, LZ4Acceleration: -1}
	if _, err := Compress(nil, inputs[0].data, &bad); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("acceleration -1: %v", err)
	}
	bad.LZ4Acceleration = codec.MaxLZ4Acceleration + 1
	if _, err := Compress(nil, inputs[0].data, &bad); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("acceleration %d: %v", bad.LZ4Acceleration, err)
	}
}

// gridF32 is a rows×cols grid of float32 values around off, a smooth
// field of amplitude amp and wavelength w (in cells): their low mantissa
// bytes look random to LZ4, their high ones repeat.
func gridF32(rows, cols int, amp, off, w float64) []byte {
	b := make([]byte, 4*rows*cols)
	for i := range rows {
		for j := range cols {
			v := off + amp*(math.Sin(float64(i)/w)*math.Cos(float64(j)/(w*0.6))+0.4*math.Sin(float64(i+j)/(w/3)))
			binary.LittleEndian.PutUint32(b[4*(i*cols+j):], math.Float32bits(float32(v)))
		}
	}
	return b
}

// TestAutoRawNoise: at the fastest tier a chunk LZ4 cannot compress as
// it is, which the probe gives shuffle+bytedelta at less than 2:1, takes
// the shuffle alone at noiseAccel when that loses less than
// 1/rawNoiseSlack (Auto.rawNoise); where the shuffle loses more, or
// bytedelta compresses 2:1 or more, and at the other tiers, bytedelta
// stays.
func TestAutoRawNoise(t *testing.T) {
	bd := Pipeline(Filter{ID: Shuffle}, Filter{ID: ByteDelta, Meta: 4})
	rounded := gridF32(720, 1440, 100, 0, 400)
	for i := 0; i < len(rounded); i += 4 {
		v := math.Float32frombits(binary.LittleEndian.Uint32(rounded[i:]))
		binary.LittleEndian.PutUint32(rounded[i:], math.Float32bits(float32(math.Round(float64(v)*256)/256)))
	}
	type input struct {
		name string
		data []byte
		raw  bool // takes the rule at the fastest tier
	}
	inputs := []input{
		{"grid around 300", gridF32(720, 1440, 10, 300, 50), true},
		{"grid around 0", gridF32(720, 1440, 10, 0, 100), false},
		{"grid rounded to 1/256", rounded, false},
	}
	if dir := testvec.SharedData(); dir != "" {
		if geoid, err := os.ReadFile(filepath.Join(dir, "egm96_15_geoid.f32.bin")); err == nil {
			inputs = append(inputs, input{"geoid", geoid, true})
		}
	} else {
		t.Log("no shared data: the geoid grid is not tried")
	}
	for _, in := range inputs {
		for _, tier := range allTiers {
			p := chooseAt(t, tier, in.data)
			if !in.raw || tier != TierFastest {
				if p.Filters != bd || p.LZ4Acceleration != 0 {
					t.Errorf("%s, %v tier: filters %v acceleration %d, want shuffle+bytedelta/4 as C-Blosc2 accelerates", in.name, tier, p.Filters, p.LZ4Acceleration)
				}
				continue
			}
			if p.Filters != Pipeline(Filter{ID: Shuffle}) || p.TypeSize != 4 || p.Codec != LZ4 || p.LZ4Acceleration != tiers[TierFastest].noiseAccel {
				t.Errorf("%s, %v tier: codec %d filters %v/%d acceleration %d, want LZ4 shuffle/4 at %d", in.name, tier, p.Codec, p.Filters, p.TypeSize, p.LZ4Acceleration, tiers[TierFastest].noiseAccel)
				continue
			}
			shuf := checkRoundTrip(t, in.name, in.data, p)
			q := p
			q.Filters, q.LZ4Acceleration, q.Level = bd, 0, 1
			withBD, err := Compress(nil, in.data, &q)
			if err != nil {
				t.Fatal(err)
			}
			if len(shuf) > len(withBD)+len(withBD)/rawNoiseSlack {
				t.Errorf("%s: %d bytes, %d with bytedelta at acceleration 9", in.name, len(shuf), len(withBD))
			}
			t.Logf("%s: %d bytes, %d with bytedelta at acceleration 9, of %d", in.name, len(shuf), len(withBD), len(in.data))
		}
	}
}

// dictF64 is n float64 values drawn from a set of 64 random ones: values
// zstd compresses best as they are (their repeats), which no shuffle
// helps.
func dictF64(n int) []byte {
	r := rand.New(rand.NewPCG(11, 12))
	var dict [64]uint64
	for i := range dict {
		dict[i] = math.Float64bits(r.Float64() * 100)
	}
	b := make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint64(b[8*i:], dict[r.IntN(len(dict))])
	}
	return b
}

// TestAutoBinaryValues: at the better tier an unfiltered chunk that is
// not text takes our libzstd level (clevel 3, FastZstd off) in blocks of
// at most half the chunk, text keeps klauspost's level in whole blocks;
// on the shared data's float64 values that is smaller than the tier's
// own level in whole blocks.
func TestAutoBinaryValues(t *testing.T) {
	a := DefaultAuto(TierBetter)
	type input struct {
		name    string
		data    []byte
		smaller bool // measured data: the choice must be smaller
	}
	// On these random draws, which have no repeats beyond single
	// values, klauspost's level in one block is 0.6% smaller, at half
	// the speed: only the choice is checked.
	inputs := []input{{"dictionary values", dictF64(1 << 17), false}}
	if dir := testvec.SharedData(); dir != "" {
		for _, f := range []string{"ett_h1.f64.bin", "nab_aws_cloudwatch.value.f64.bin"} {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, input{f, data, true})
		}
	} else {
		t.Log("no shared data: the float64 values' sizes are not checked")
	}
	for _, in := range inputs {
		p, err := ChooseCParams(in.data, &a)
		if err != nil {
			t.Fatal(err)
		}
		if filtered(&p) || p.Codec != Zstd || p.Level != tiers[TierBetter].binaryLevel || p.FastZstd || p.BlockSize > (len(in.data)+1)/2 {
			t.Fatalf("%s: codec %d level %d FastZstd %v filters %v block %d of %d", in.name, p.Codec, p.Level, p.FastZstd, p.Filters, p.BlockSize, len(in.data))
		}
		got := checkRoundTrip(t, in.name, in.data, p)
		q := p
		q.Level, q.FastZstd, q.BlockSize = tiers[TierBetter].level, true, len(in.data)
		text, err := Compress(nil, in.data, &q)
		if err != nil {
			t.Fatal(err)
		}
		if in.smaller && len(got) >= len(text) {
			t.Errorf("%s: %d bytes, %d at the tier's level in one block", in.name, len(got), len(text))
		}
		t.Logf("%s: %d bytes, %d at the tier's level in one block", in.name, len(got), len(text))
	}
	p, err := ChooseCParams(testvec.LogText(1<<20), &a)
	if err != nil {
		t.Fatal(err)
	}
	if p.Level != tiers[TierBetter].level || !p.FastZstd || p.BlockSize != 1<<20 {
		t.Errorf("text: level %d FastZstd %v block %d", p.Level, p.FastZstd, p.BlockSize)
	}
	for _, c := range []struct {
		b    []byte
		text bool
	}{{[]byte("GET /index.html HTTP/1.1\r\n\tok"), true}, {synthF64(512), false}, {[]byte{}, true}} {
		if looksText(c.b) != c.text {
			t.Errorf("looksText(%q) = %v", c.b[:min(len(c.b), 16)], !c.text)
		}
	}
}

// TestTierFromLevel: -1 … -9 map onto the tiers as the README says.
func TestTierFromLevel(t *testing.T) {
	want := []Tier{TierFastest, TierFastest, TierFastest, TierDefault, TierDefault, TierDefault, TierBetter, TierBetter, TierBest, TierBest}
	for l := 0; l <= 9; l++ {
		if got := TierFromLevel(l); got != want[l] {
			t.Errorf("TierFromLevel(%d) = %v, want %v", l, got, want[l])
		}
	}
	for _, tier := range allTiers {
		a := DefaultAuto(tier)
		p := a.FrameCParams()
		if p.Codec != tiers[tier].codec || p.Level != tiers[tier].level || p.Filters != ([MaxFilters]Filter{}) {
			t.Errorf("%v: frame parameters %+v", tier, p)
		}
	}
}

// TestAutoTextBlocks: text-like chunks get whole 4 MiB blocks at the
// better and best tiers (zstd's long matches over the whole block, as
// zstd's own stream has them), 2 MiB ones at the default tier, and a
// shorter chunk 2 MiB blocks, not halves (2.4 MB of the apache log in
// halves was 4.3-6.1% larger), or one block where the second would
// hold less than an eighth of the chunk (smaller than the two, since
// the second starts without the first's history); the fastest tier
// cuts every chunk in 1 MiB blocks, two at least, and filtered chunks
// keep the tier's typed block size.
func TestAutoTextBlocks(t *testing.T) {
	text := testvec.LogText(4 << 20)
	for _, tc := range []struct {
		tier   Tier
		n      int
		blocks int // blocks in the chunk
	}{
		{TierBetter, 4 << 20, 1}, {TierBest, 4 << 20, 1},
		{TierBetter, 3 << 20, 2}, {TierBest, 1 << 20, 1}, {TierBest, 2 << 20, 1},
		// 8/7 of 2 MiB is 2396745.1 bytes.
		{TierBetter, 2396745, 1}, {TierBest, 2396745, 1}, {TierBetter, 2396746, 2}, {TierBest, 2396746, 2},
		{TierDefault, 2396745, 2},
		{TierDefault, 4 << 20, 2}, {TierDefault, 3 << 20, 2}, {TierDefault, 1 << 20, 1},
		{TierFastest, 4 << 20, 4}, {TierFastest, 3 << 20, 3}, {TierFastest, 1 << 20, 2}, {TierFastest, 200 << 10, 2},
	} {
		a := DefaultAuto(tc.tier)
		p, err := ChooseCParams(text[:tc.n], &a)
		if err != nil {
			t.Fatal(err)
		}
		if filtered(&p) {
			t.Fatalf("%v: text chose %v", tc.tier, p.Filters)
		}
		bs, err := BlockSize(&p, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if got := (tc.n + bs - 1) / bs; got != tc.blocks {
			t.Errorf("%v, %d bytes of text: %d blocks of %d, want %d", tc.tier, tc.n, got, bs, tc.blocks)
		}
	}
	// The one block is the smaller.
	b := DefaultAuto(TierBetter)
	one, err := ChooseCParams(text[:2300<<10], &b)
	if err != nil {
		t.Fatal(err)
	}
	two := one
	two.BlockSize = 2 << 20
	if o, w := checkRoundTrip(t, "one block", text[:2300<<10], one), checkRoundTrip(t, "2 MiB blocks", text[:2300<<10], two); len(o) >= len(w) {
		t.Errorf("2300 KiB of text: %d bytes in one block, %d in blocks of 2 MiB", len(o), len(w))
	}
	a := DefaultAuto(TierBest)
	p, _ := ChooseCParams(synthF64(1<<19), &a)
	if bs, _ := BlockSize(&p, 4<<20); bs != tiers[TierBest].typedBS {
		t.Errorf("best tier, smooth f64: block size %d, want %d", bs, tiers[TierBest].typedBS)
	}
}

// TestRecurringWords: recurringWords counts the sampled words equal to
// a word of another run, less those of the commonest word, as a map of
// the same samples counts them.
func TestRecurringWords(t *testing.T) {
	reference := func(src []byte) (int, int) {
		n := len(src) / 8
		runs := min(n/recurRun, recurGroups)
		if runs < 2 {
			return 0, 0
		}
		type seen struct{ count, first int }
		words := map[uint64]*seen{}
		across := map[uint64]bool{}
		var taken []uint64
		top := uint64(0)
		for k := range runs {
			start := k * (n - recurRun) / (runs - 1)
			for i := range recurRun {
				w := binary.LittleEndian.Uint64(src[8*(start+i):])
				taken = append(taken, w)
				if words[w] == nil {
					words[w] = &seen{first: k}
				} else if words[w].first != k {
					across[w] = true
				}
				words[w].count++
				if words[top] == nil || words[w].count > words[top].count {
					top = w
				}
			}
		}
		r := 0
		for _, w := range taken {
			if across[w] {
				r++
			}
		}
		if across[top] {
			r -= words[top].count
		}
		return r, len(taken)
	}
	words := func(ws ...uint64) []byte {
		b := make([]byte, 8*len(ws))
		for i, w := range ws {
			binary.LittleEndian.PutUint64(b[8*i:], w)
		}
		return b
	}
	// Two runs: 1 (three times) and 2 (twice) are in both, 1 the
	// commonest; 9 repeats within its run only.
	two := make([]uint64, 2*recurRun)
	for i := range two {
		two[i] = uint64(100 + i)
	}
	two[0], two[1] = 1, 2
	copy(two[recurRun:], []uint64{1, 1, 2, 9, 9})
	if r, m := recurringWords(words(two...)); r != 2 || m != 2*recurRun {
		t.Errorf("two runs: %d of %d recur, want 2 of %d", r, m, 2*recurRun)
	}
	if r, m := recurringWords(make([]byte, (2*recurRun-1)*8)); r != 0 || m != 0 {
		t.Errorf("less than two runs: %d of %d", r, m)
	}
	if r, m := recurringWords(make([]byte, 1<<20)); r != 0 || m != recurRun*recurGroups {
		t.Errorf("zeros: %d of %d recur, want none of %d: one word is the commonest", r, m, recurRun*recurGroups)
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for k := range 300 {
		n := rng.IntN(30000)
		vals := 1 + rng.IntN(3000) // how many distinct words, about
		src := make([]byte, n)
		for i := 0; i+8 <= n; i += 8 {
			binary.LittleEndian.PutUint64(src[i:], uint64(rng.IntN(vals))<<uint(rng.IntN(2)*40))
		}
		r, m := recurringWords(src)
		wr, wm := reference(src)
		if r != wr || m != wm {
			t.Fatalf("input %d (%d bytes): %d of %d recur, the map says %d of %d", k, n, r, m, wr, wm)
		}
	}
}

// TestAutoRecurringValues: at the fastest tier a chunk of values that
// recur across it goes unfiltered to zstd's fastest level, where the
// probe's sample alone gave LZ4 a shuffle, and the chunk is smaller than
// under either shuffle; small integers, which the shuffle compresses
// beyond 3:1, a background of one value, and values whose recurring
// starts past the sample keep the probe's choice.
func TestAutoRecurringValues(t *testing.T) {
	// withoutRule returns the fastest tier's choice without the rule.
	withoutRule := func(src []byte) CParams {
		tiers[TierFastest].recurring = false
		defer func() { tiers[TierFastest].recurring = true }()
		return chooseAt(t, TierFastest, src)
	}
	type input struct {
		name string
		data []byte
	}
	// The first 128 KiB of the ETT values (readings of a few decimals,
	// seven columns), and the whole file where the shared data is.
	head, err := os.ReadFile("testdata/data/ett_h1.f64.head128k.bin")
	if err != nil {
		t.Fatal(err)
	}
	inputs := []input{{"ett_h1.f64.bin's first 128 KiB", head}}
	if dir := testvec.SharedData(); dir != "" {
		data, err := os.ReadFile(filepath.Join(dir, "ett_h1.f64.bin"))
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{"ett_h1.f64.bin", data})
	} else {
		t.Log("no shared data: the whole ETT file is not checked")
	}
	for _, in := range inputs {
		if q := withoutRule(in.data); !filtered(&q) || q.Codec != LZ4 {
			t.Fatalf("%s: without the rule, codec %d filters %v: the probe's sample does not favour a filter", in.name, q.Codec, q.Filters)
		}
		p := chooseAt(t, TierFastest, in.data)
		if filtered(&p) || p.Codec != Zstd || p.Level != tiers[TierFastest].textLevel || p.BlockSize > (len(in.data)+1)/2 {
			t.Fatalf("%s: codec %d level %d filters %v typesize %d block %d", in.name, p.Codec, p.Level, p.Filters, p.TypeSize, p.BlockSize)
		}
		got := checkRoundTrip(t, in.name, in.data, p)
		for _, f := range []FilterID{Shuffle, BitShuffle} {
			q := DefaultCParams()
			q.Codec, q.Level, q.TypeSize, q.Filters = LZ4, tiers[TierFastest].level, 8, Pipeline(Filter{ID: f})
			q.BlockSize = tiers[TierFastest].typedBS
			lz4, err := Compress(nil, in.data, &q)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) >= len(lz4) {
				t.Errorf("%s: %d bytes, %d under LZ4 and filter %d", in.name, len(got), len(lz4), f)
			}
			t.Logf("%s: %d bytes, %d under LZ4 and filter %d", in.name, len(got), len(lz4), f)
		}
	}
	rng := rand.New(rand.NewPCG(15, 16))
	smallInts := make([]byte, 8<<17)
	// An image's textured third, then its background of zeros: 70% of
	// the sampled words are zero, the others do not recur.
	background := make([]byte, 1<<20)
	copy(background, noisyI16(len(background)/2*3/10))
	for i := range 1 << 17 {
		binary.LittleEndian.PutUint64(smallInts[8*i:], uint64(rng.IntN(256)))
	}
	// The ETT values behind a first window of a smooth series, whose
	// words do not recur: the count across the chunk, which would find
	// the ETT values' recurring, does not run.
	late := append(synthF64(512), head[4096:]...)
	if r, m := recurringWords(late); 4*r < m {
		t.Fatalf("late recurrence: %d of %d words recur across the chunk, want a quarter", r, m)
	}
	for _, in := range []input{{"small integers", smallInts}, {"background", background}, {"late recurrence", late}} {
		p, q := chooseAt(t, TierFastest, in.data), withoutRule(in.data)
		if !filtered(&q) {
			t.Fatalf("%s: without the rule, filters %v typesize %d: a filter should win", in.name, q.Filters, q.TypeSize)
		}
		if p != q {
			t.Errorf("%s: %+v, without the rule %+v", in.name, p, q)
		}
	}
}

// probeInputs are inputs whose probe candidates come close to one another
// under LZ4 and zstd: the project's data in testdata (and in the shared
// data where it is), whole and in windows, and series of known structure
// at a range of noise levels.
func probeInputs(t *testing.T) map[string][]byte {
	t.Helper()
	inputs := map[string][]byte{
		"text":        testvec.LogText(1 << 18),
		"smooth f64":  synthF64(1 << 15),
		"i16":         synthI16(1 << 17),
		"noisy i16":   noisyI16(1 << 17),
		"timestamps":  synthStamps(1 << 15),
		"small zeros": make([]byte, 4<<10),
	}
	files, err := filepath.Glob(filepath.Join(testvec.DataDir(), "*.bin"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no data in %s: %v", testvec.DataDir(), err)
	}
	if dir := testvec.SharedData(); dir != "" {
		shared, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
		files = append(files, shared...)
	} else {
		t.Log("no shared data: testdata's files only")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		inputs[name] = data[:min(len(data), 4<<20)]
		if len(data) >= 256<<10 {
			inputs[name+" middle"] = data[len(data)/3 : len(data)/3+(64<<10)]
		}
	}
	rng := rand.New(rand.NewPCG(21, 22))
	random := make([]byte, 1<<17)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	inputs["random"] = random
	// Values of 2, 4 and 8 bytes whose low bits are noise, from none to
	// most: the shuffles of neighbouring element sizes come within a few
	// percent of one another.
	for _, ts := range []int{2, 4, 8} {
		for _, bits := range []int{0, 3, 6, 9, 12, 20} {
			b := make([]byte, 96<<10)
			v := uint64(1) << (8*ts - 4)
			for i := 0; i+ts <= len(b); i += ts {
				v += uint64(rng.IntN(64)) << max(0, bits-6)
				w := v ^ rng.Uint64()&(1<<bits-1)
				for k := range ts {
					b[i+k] = byte(w >> (8 * k))
				}
			}
			inputs[fmt.Sprintf("walk %d bytes, %d noise bits", ts, bits)] = b
		}
	}
	return inputs
}

// TestChunkLenWithin: under a limit, a chunk that fits is the chunk
// Compress writes, byte for byte, and one that does not reports a length
// beyond the limit, for limits all around the chunk's length, under LZ4
// (which stops early) and zstd (which does not).
func TestChunkLenWithin(t *testing.T) {
	type setting struct {
		codec codec.ID
		level int
		accel int
	}
	settings := []setting{{LZ4, 1, 0}, {LZ4, 5, 0}, {LZ4, 9, 0}, {LZ4, 9, 64}, {Zstd, 1, 0}}
	pipelines := []struct {
		ts      int
		filters [MaxFilters]Filter
	}{
		{1, [MaxFilters]Filter{}},
		{2, Pipeline(Filter{ID: Shuffle})},
		{4, Pipeline(Filter{ID: Shuffle})},
		{8, Pipeline(Filter{ID: Shuffle})},
		{4, Pipeline(Filter{ID: BitShuffle})},
		{8, Pipeline(Filter{ID: Shuffle}, Filter{ID: ByteDelta, Meta: 8})},
	}
	var buf []byte
	checked := 0
	for name, data := range probeInputs(t) {
		for _, n := range []int{2 << 10, 16 << 10} {
			if testing.Short() && n != 16<<10 {
				continue
			}
			sample := data[:min(n, len(data))]
			for _, s := range settings {
				for _, pl := range pipelines {
					p := DefaultCParams()
					p.Codec, p.Level, p.LZ4Acceleration = s.codec, s.level, s.accel
					p.TypeSize, p.Filters = pl.ts, pl.filters
					p.BlockSize, p.Concurrency = len(sample), 1
					want, err := Compress(nil, sample, &p)
					if err != nil {
						t.Fatal(err)
					}
					w := len(want)
					for _, limit := range []int{0, w / 2, w - 100, w - 17, w - 16, w - 9, w - 8, w - 5, w - 2, w - 1, w, w + 1, w + 8, w + 16, w + 100} {
						if limit < 0 {
							continue
						}
						got, err := chunkLenWithin(&buf, sample, &p, limit)
						if err != nil {
							t.Fatal(err)
						}
						checked++
						switch {
						case limit >= w && (got != w || !bytes.Equal(buf, want)):
							t.Fatalf("%s, %d bytes, %+v, ts %d %v: limit %d: %d bytes, want the chunk Compress writes (%d)", name, len(sample), s, pl.ts, pl.filters, limit, got, w)
						case limit < w && got <= limit:
							t.Fatalf("%s, %d bytes, %+v, ts %d %v: limit %d: %d bytes, the chunk is %d", name, len(sample), s, pl.ts, pl.filters, limit, got, w)
						}
					}
				}
			}
		}
	}
	t.Logf("%d chunks under a limit", checked)
}

// TestProbeLimits: the probe, which compresses a candidate only as far as
// its choice needs (Auto.sizes), chooses at every tier what it chooses
// with every size exact, and what it chooses when a candidate beyond its
// limit reports a size far beyond it.
func TestProbeLimits(t *testing.T) {
	for name, data := range probeInputs(t) {
		for _, tier := range allTiers {
			for _, hint := range []int{0, 8} {
				a := DefaultAuto(tier)
				a.Base.Concurrency = 1
				a.Base.TypeSize = hint
				probeLimits = false
				want := a.choose(data)
				probeLimits = true
				if got := a.choose(data); got != want {
					t.Errorf("%s at %v, typesize hint %d: with limits %+v, exact %+v", name, tier, hint, got, want)
				}
				overLimit = 1 << 30
				got := a.choose(data)
				overLimit = 1
				if got != want {
					t.Errorf("%s at %v, typesize hint %d: with sizes far beyond the limits %+v, exact %+v", name, tier, hint, got, want)
				}
			}
		}
	}
}
