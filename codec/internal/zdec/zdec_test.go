package zdec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// inputs are data of the kinds Blosc streams hold: shuffled timestamps
// (long runs), noise, text, and mixtures, of several sizes.
func inputs() map[string][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	m := map[string][]byte{}
	noise := make([]byte, 300000)
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	m["noise"] = noise
	var text bytes.Buffer
	words := []string{"error", "warn", "info", "GET", "/index.html", "200", "404", "user", "session", "timeout"}
	for text.Len() < 400000 {
		fmt.Fprintf(&text, "%d %s %s %d\n", r.IntN(100000), words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(1000))
	}
	m["text"] = text.Bytes()
	// Shuffled timestamps: planes of runs and slowly changing bytes.
	n := 40000
	ts := make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint64(ts[8*i:], 1_700_000_000_000+uint64(1000*i+r.IntN(3)))
	}
	sh := make([]byte, len(ts))
	for i := range n {
		for b := range 8 {
			sh[b*n+i] = ts[8*i+b]
		}
	}
	m["stamps"] = sh
	m["runs"] = bytes.Repeat([]byte{7}, 200000)
	m["pattern3"] = bytes.Repeat([]byte{1, 2, 3}, 70000)
	mixed := append(append(append([]byte{}, noise[:50000]...), sh[:100000]...), text.Bytes()[:80000]...)
	m["mixed"] = mixed
	m["tiny"] = []byte("abcabcabcabcabcabcabc")
	m["empty"] = nil
	return m
}

// TestDecodeMatchesKlauspost: every frame klauspost's encoder writes, at
// every level, with and without entropy-coded literals, decodes to the
// input, and to what klauspost's decoder gives.
func TestDecodeMatchesKlauspost(t *testing.T) {
	var d Decoder
	for name, in := range inputs() {
		for _, lvl := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression, zstd.SpeedBestCompression} {
			for _, lit := range []bool{false, true} {
				enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(lvl), zstd.WithAllLitEntropyCompression(lit),
					zstd.WithEncoderCRC(false), zstd.WithZeroFrames(true))
				if err != nil {
					t.Fatal(err)
				}
				frame := enc.EncodeAll(in, nil)
				out := make([]byte, len(in))
				if err := d.DecodeAll(out, frame); err != nil {
					t.Fatalf("%s %v lit=%v: %v", name, lvl, lit, err)
				}
				if !bytes.Equal(out, in) {
					t.Fatalf("%s %v lit=%v: output differs", name, lvl, lit)
				}
				// One byte too few or too many is corrupt.
				if len(in) > 0 {
					if err := d.DecodeAll(make([]byte, len(in)-1), frame); !errors.Is(err, ErrCorrupt) {
						t.Fatalf("%s: short output: %v", name, err)
					}
				}
				if err := d.DecodeAll(make([]byte, len(in)+1), frame); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s: long output: %v", name, err)
				}
			}
		}
	}
}

// TestChecksumUnsupported: a frame with a content checksum is left to the
// caller's other decoder.
func TestChecksumUnsupported(t *testing.T) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	in := []byte("hello hello hello hello")
	var d Decoder
	if err := d.DecodeAll(make([]byte, len(in)), enc.EncodeAll(in, nil)); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("checksum frame: %v", err)
	}
}

// FuzzDecode: on any input, the decoder does not panic; what it decodes,
// klauspost's decoder decodes to the same bytes; what klauspost decodes,
// it decodes the same or calls unsupported.
func FuzzDecode(f *testing.F) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(false), zstd.WithAllLitEntropyCompression(true))
	for _, in := range inputs() {
		f.Add(enc.EncodeAll(in[:min(len(in), 5000)], nil), uint16(min(len(in), 5000)))
	}
	dec, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<20))
	f.Fuzz(func(t *testing.T, frame []byte, size uint16) {
		var d Decoder
		out := make([]byte, size)
		err := d.DecodeAll(out, frame)
		want, kerr := dec.DecodeAll(frame, nil)
		if errors.Is(kerr, zstd.ErrWindowSizeExceeded) || errors.Is(kerr, zstd.ErrDecoderSizeExceeded) {
			// Over this decoder's 1 MiB: no judge of what we decode.
			return
		}
		if err == nil {
			if kerr != nil || !bytes.Equal(out, want) {
				t.Fatalf("decoded %d bytes klauspost refuses or decodes otherwise (%v)", size, kerr)
			}
		} else if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("error %v wraps no sentinel", err)
		}
		if kerr == nil && len(want) == int(size) && err != nil && !errors.Is(err, ErrUnsupported) {
			t.Fatalf("klauspost decodes it, we say %v", err)
		}
	})
}

// TestCopyMatch: copyMatch writes what copying a byte at a time from
// offset bytes back writes (LZ77's definition of an overlapping match),
// for every offset up to 40 and length up to 200, with the 16 bytes of
// slack its word copies use and without, and leaves the output before
// the match alone.
func TestCopyMatch(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for offset := 1; offset <= 40; offset++ {
		for n := 0; n <= 200; n++ {
			for _, slack := range []int{0, 5, 16, 40} {
				out := 50
				dst := make([]byte, out+n+slack)
				for i := range out {
					dst[i] = byte(r.Uint32())
				}
				want := bytes.Clone(dst)
				for i := range n {
					want[out+i] = want[out+i-offset]
				}
				if got := copyMatch(dst, out, offset, n); got != out+n {
					t.Fatalf("offset %d, length %d, slack %d: returned %d, want %d", offset, n, slack, got, out+n)
				}
				if !bytes.Equal(dst[:out+n], want[:out+n]) {
					t.Fatalf("offset %d, length %d, slack %d: wrong bytes", offset, n, slack)
				}
			}
		}
	}
}
