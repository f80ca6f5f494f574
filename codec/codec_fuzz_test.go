package codec

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzCodecs feeds arbitrary streams to every registered decoder with an
// arbitrary output size, and round-trips the data through every encoder.
// Decoders must never panic, must fill exactly the output or fail with
// ErrCorrupt; encoders' output must decode back.
func FuzzCodecs(f *testing.F) {
	f.Add([]byte("hello hello hello hello hello hello"), uint16(35), uint8(5))
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x05, 0x29, 0, 0, 1, 2, 3, 4, 5}, uint16(5), uint8(1))
	f.Add([]byte{0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01}, uint16(1), uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, n uint16, clevel uint8) {
		for _, id := range []ID{BloscLZ, LZ4, LZ4HC, Zlib, Zstd, Snappy} {
			c, err := Lookup(id)
			if err != nil {
				t.Fatal(err)
			}
			dst := make([]byte, int(n)%4096)
			if m, err := c.Decompress(dst, data, 0, nil); err == nil && m != len(dst) {
				t.Fatalf("%s: decoded %d bytes into %d without error", Name(id), m, len(dst))
			} else if err != nil && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%s: error %v is not ErrCorrupt", Name(id), err)
			}
			out := make([]byte, len(data))
			k, err := c.Compress(out, data, 1+int(clevel)%9, 0, nil)
			if err != nil {
				t.Fatalf("%s: compress: %v", Name(id), err)
			}
			if k == 0 {
				continue // does not fit: stored raw by the caller
			}
			back := make([]byte, len(data))
			if m, err := c.Decompress(back, out[:k], 0, nil); err != nil || m != len(data) || !bytes.Equal(back, data) {
				t.Fatalf("%s: round trip failed: %v", Name(id), err)
			}
		}
	})
}
