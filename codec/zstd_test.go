package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// shuffledStamps is n int64 timestamps a second apart, byte-shuffled as
// Blosc's shuffle filter leaves them: runs in the high planes, a slow
// count in the low ones. zstd compresses it far beyond zdecMinRatio.
func shuffledStamps(n int) []byte {
	b := make([]byte, 8*n)
	for i := range n {
		v := 1_700_000_000_000 + uint64(1000*i)
		for k := range 8 {
			b[k*n+i] = byte(v >> (8 * k))
		}
	}
	return b
}

// TestZstdDecodePaths: streams on both sides of zdecMinRatio (zdec's and
// klauspost's decoders) decode to their input at every clevel; a stream
// zdec leaves alone (a content checksum) still decodes; damaged streams
// fail with ErrCorrupt on either side, whatever the output size asked.
func TestZstdDecodePaths(t *testing.T) {
	c, _ := Lookup(Zstd)
	text := bytes.Repeat([]byte("a line of a log, 200 OK, GET /index.html, user 1234\n"), 4000)
	noisy := make([]byte, 200000)
	for i := range noisy {
		noisy[i] = byte(i*7919>>3) ^ byte(i>>11)
	}
	for name, in := range map[string][]byte{"stamps": shuffledStamps(20000), "text": text, "noisy": noisy} {
		for clevel := 1; clevel <= 9; clevel++ {
			out := make([]byte, len(in)+len(in)/2+64)
			n, err := c.Compress(out, in, clevel, 0, nil)
			if err != nil || n == 0 {
				t.Fatalf("%s clevel %d: compress: %d, %v", name, clevel, n, err)
			}
			stream := out[:n]
			back := make([]byte, len(in))
			if m, err := c.Decompress(back, stream, 0, nil); err != nil || m != len(in) || !bytes.Equal(back, in) {
				t.Fatalf("%s clevel %d (ratio %.1f): %d, %v", name, clevel, float64(len(in))/float64(n), m, err)
			}
			for _, cut := range []int{1, n / 2, n - 1} {
				if _, err := c.Decompress(back, stream[:cut], 0, nil); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("%s clevel %d cut at %d: %v, want ErrCorrupt", name, clevel, cut, err)
				}
			}
			if _, err := c.Decompress(back[:len(in)-1], stream, 0, nil); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s clevel %d, one byte short: %v", name, clevel, err)
			}
		}
	}
	// The stamps compress past zdecMinRatio; with a content checksum zdec
	// leaves them to klauspost's decoder, which checks it.
	in := shuffledStamps(20000)
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	stream := enc.EncodeAll(in, nil)
	if len(in) < zdecMinRatio*len(stream) {
		t.Fatalf("stamps compress only %.1f:1", float64(len(in))/float64(len(stream)))
	}
	back := make([]byte, len(in))
	if m, err := c.Decompress(back, stream, 0, nil); err != nil || m != len(in) || !bytes.Equal(back, in) {
		t.Fatalf("checksummed stamps: %d, %v", m, err)
	}
	binary.LittleEndian.PutUint32(stream[len(stream)-4:], 0) // the checksum
	if _, err := c.Decompress(back, stream, 0, nil); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("stamps with a wrong checksum: %v", err)
	}
}

// TestZstdLargeBlock: a block over zenc's 128 MiB (C-Blosc2 allows 512
// MiB) still compresses at clevel 1, through klauspost's encoder, and
// decodes. Not in -short runs: it holds 260 MB.
func TestZstdLargeBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("260 MB of buffers; the full run checks it")
	}
	src := make([]byte, 128<<20+1)
	for i := 0; i < len(src); i += 4096 {
		src[i] = byte(i >> 12)
	}
	c, err := Lookup(Zstd)
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, len(src))
	n, err := c.Compress(dst, src, 1, 0, nil)
	if err != nil || n == 0 {
		t.Fatalf("clevel 1, %d bytes: %d, %v", len(src), n, err)
	}
	out := make([]byte, len(src))
	if m, err := c.Decompress(out, dst[:n], 0, nil); err != nil || m != len(src) || !bytes.Equal(out, src) {
		t.Fatalf("decodes %d bytes, %v", m, err)
	}
}
