package codec

import (
	"bytes"
	stdzlib "compress/zlib"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// TestZlibStandardLibrary: the zlib codec reads what the standard
// library's compress/zlib writes at every level (an independent encoder,
// including stored blocks), and compress/zlib reads what the codec writes
// at clevel 1-9, Huffman-only included.
func TestZlibStandardLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	text := bytes.Repeat([]byte("2026-11-26 13:37:30 INFO stream: chunk 17 of 40 written\n"), 900)
	noise := make([]byte, 40000)
	for i := range noise {
		noise[i] = byte(rng.IntN(7)) // Huffman gains, matches hardly
	}
	random := make([]byte, 30000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	c, err := Lookup(Zlib)
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{text, noise, random, text[:1], nil} {
		for level := stdzlib.HuffmanOnly; level <= stdzlib.BestCompression; level++ {
			var b bytes.Buffer
			zw, err := stdzlib.NewWriterLevel(&b, level)
			if err != nil {
				t.Fatal(err)
			}
			zw.Write(data)
			zw.Close()
			got := make([]byte, len(data))
			if n, err := c.Decompress(got, b.Bytes(), 0, nil); err != nil || n != len(data) || !bytes.Equal(got, data) {
				t.Fatalf("%d bytes written by compress/zlib at level %d: %d, %v", len(data), level, n, err)
			}
		}
		for clevel := 1; clevel <= 9; clevel++ {
			out := make([]byte, len(data)+len(data)/8+64)
			n, err := c.Compress(out, data, clevel, 0, nil)
			if err != nil || n == 0 {
				t.Fatalf("%d bytes at clevel %d: %d, %v", len(data), clevel, n, err)
			}
			zr, err := stdzlib.NewReader(bytes.NewReader(out[:n]))
			if err != nil {
				t.Fatalf("clevel %d: compress/zlib: %v", clevel, err)
			}
			back, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(back, data) {
				t.Fatalf("clevel %d: compress/zlib read %d of %d bytes: %v", clevel, len(back), len(data), err)
			}
		}
	}
}

// TestZlibDamage: a wrong Adler-32, a missing one, a bad header and a
// preset dictionary are errors wrapping ErrCorrupt; bytes after the
// checksum are ignored, as zlib's inflate leaves them to its caller.
func TestZlibDamage(t *testing.T) {
	c, err := Lookup(Zlib)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte("abcdefgh12345678"), 500)
	out := make([]byte, len(data))
	n, err := c.Compress(out, data, 5, 0, nil)
	if err != nil || n == 0 {
		t.Fatal(n, err)
	}
	good := out[:n]
	dst := make([]byte, len(data))
	for _, tc := range []struct {
		name   string
		stream []byte
	}{
		{"checksum flipped", append(bytes.Clone(good[:n-1]), good[n-1]^1)},
		{"checksum cut", good[:n-2]},
		{"no checksum", good[:n-4]},
		{"header check bits", append([]byte{good[0], good[1] ^ 1}, good[2:]...)},
		{"not deflate", append([]byte{0x79, good[1]}, good[2:]...)},
		{"preset dictionary", append([]byte{0x78, 0xbb}, good[2:]...)},
	} {
		if _, err := c.Decompress(dst, tc.stream, 0, nil); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", tc.name, err)
		}
	}
	if m, err := c.Decompress(dst, append(bytes.Clone(good), 0, 1, 2), 0, nil); err != nil || m != len(data) || !bytes.Equal(dst, data) {
		t.Errorf("trailing bytes: %d, %v", m, err)
	}
}
