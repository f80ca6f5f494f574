package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/blosc2go/blosc2/codec/internal/zenc"
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
// klauspost's decoders where zdec is Go alone, as under the noasm tag;
// zdec's for both where it is accelerated) decode to their input at
// every clevel; a stream zdec leaves alone (a content checksum) still
// decodes; damaged streams fail with ErrCorrupt on either side,
// whatever the output size asked.
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

// TestZstdEncoders: Lookup's Zstd compresses with zenc (libzstd's
// bytes) wherever zenc has the strategy of the clevel's zstd level at
// the block's size, and else with klauspost's encoder; LookupFast's
// compresses clevels 3-6 with klauspost's levels instead, whose frames
// of shuffled timestamps are larger at clevels 3-5, and clevel 1 over
// fastLevel1Max at zstd level 2. Every frame decodes.
// For the other ids LookupFast is Lookup.
func TestZstdEncoders(t *testing.T) {
	c, _ := Lookup(Zstd)
	fast, _ := LookupFast(Zstd)
	var ze zenc.Encoder
	zencLevels := map[int]bool{}
	// 160 and 320 KB: libzstd's level 11 (clevel 6) is btlazy2 up to
	// 256 KiB, lazy2 above; levels 13 and 15 are btopt, then btlazy2;
	// level 22 is btultra2.
	for _, in := range [][]byte{shuffledStamps(20000), shuffledStamps(40000)} {
		compress := func(c Codec, clevel int) []byte {
			out := make([]byte, len(in))
			n, err := c.Compress(out, in, clevel, 0, nil)
			if err != nil || n == 0 {
				t.Fatalf("%d bytes, clevel %d: %d, %v", len(in), clevel, n, err)
			}
			back := make([]byte, len(in))
			if m, err := c.Decompress(back, out[:n], 0, nil); err != nil || m != len(in) || !bytes.Equal(back, in) {
				t.Fatalf("%d bytes, clevel %d: decodes %d bytes, %v", len(in), clevel, m, err)
			}
			return out[:n]
		}
		for clevel := 1; clevel <= 9; clevel++ {
			got, gotFast := compress(c, clevel), compress(fast, clevel)
			want, err := ze.EncodeAll(nil, in, zstdLevel(clevel))
			if err == nil {
				zencLevels[clevel] = true
			}
			if clevel == 1 && len(in) > fastLevel1Max {
				// LookupFast takes zstd level 2's parameters there.
				if want2, _ := ze.EncodeAll(nil, in, 2); !bytes.Equal(gotFast, want2) || bytes.Equal(want2, got) {
					t.Errorf("%d bytes, clevel 1: LookupFast's frame (%d bytes) is not zenc's at zstd level 2 (%d; level 1: %d)", len(in), len(gotFast), len(want2), len(got))
				}
				continue
			}
			switch {
			case err == nil && !bytes.Equal(got, want):
				t.Errorf("%d bytes, clevel %d: Lookup's frame (%d bytes) is not zenc's (%d)", len(in), clevel, len(got), len(want))
			case err != nil && !errors.Is(err, zenc.ErrUnsupported):
				t.Fatal(err)
			case err != nil && !bytes.Equal(gotFast, got):
				t.Errorf("%d bytes, clevel %d: the two differ (%d and %d bytes); both are klauspost's", len(in), clevel, len(gotFast), len(got))
			case (clevel <= 2 || clevel >= 7) && !bytes.Equal(gotFast, got):
				t.Errorf("%d bytes, clevel %d: LookupFast's frame (%d bytes) is not zenc's (%d)", len(in), clevel, len(gotFast), len(got))
			case clevel >= 3 && clevel <= 5 && len(gotFast) <= len(got),
				clevel == 6 && bytes.Equal(gotFast, got):
				t.Errorf("%d bytes, clevel %d: LookupFast's frame (%d bytes) is not klauspost's (zenc's: %d)", len(in), clevel, len(gotFast), len(got))
			}
		}
	}
	for clevel := 1; clevel <= 9; clevel++ {
		if !zencLevels[clevel] {
			t.Errorf("clevel %d: zenc's %v", clevel, zencLevels[clevel])
		}
	}
	for _, id := range []ID{BloscLZ, LZ4, LZ4HC, Zlib, Snappy} {
		a, _ := Lookup(id)
		b, err := LookupFast(id)
		if err != nil || a != b {
			t.Errorf("LookupFast(%s) is not Lookup's: %v", Name(id), err)
		}
	}
}
