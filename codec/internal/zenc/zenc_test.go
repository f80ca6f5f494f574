package zenc

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/blosc2go/blosc2/codec/internal/zdec"
	"github.com/klauspost/compress/zstd"
)

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
		m["size"+string(rune('A'+len(m)))] = b
	}
	if b, err := os.ReadFile("../../../testdata/data/nab_nyc_taxi.ts.i64.bin"); err == nil {
		m["logs"] = b
	}
	return m
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
	for name, in := range inputs(t) {
		frame, err := e.EncodeAll(nil, in, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
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
	}
}
