package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// FuzzBloscLZRoundTrip: whatever the input and level, a stream the encoder
// produces decodes back to the input, and it fits in the capacity given.
func FuzzBloscLZRoundTrip(f *testing.F) {
	f.Add([]byte("The quick brown fox jumps over the lazy dog. The quick brown fox!!"), 9)
	f.Add(append(append([]byte("ABCDEFGH"), bytes.Repeat([]byte("x"), 60)...), "12345678"...), 5)
	f.Add(bytes.Repeat([]byte{0, 0, 0, 1, 0, 0, 0, 2}, 500), 1)
	f.Add(blzGoldenInput(3), 7)
	f.Fuzz(func(t *testing.T, data []byte, clevel int) {
		clevel = 1 + int(uint(clevel)%9)
		// BloscLZ 2.5.3 (C-Blosc2's) and 2.5.1 (C-Blosc 1.21's, split or not).
		for i, maxout := range []int{len(data), len(data) + 100, len(data), len(data) + 100, len(data) + 100} {
			var enc Codec = blosclzCodec{}
			if i >= 2 {
				enc = blosclz1Codec{split: i < 4}
			}
			dst := make([]byte, maxout)
			n, err := enc.Compress(dst, data, clevel, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				continue
			}
			if n > maxout {
				t.Fatalf("wrote %d bytes into %d", n, maxout)
			}
			out := make([]byte, len(data))
			m, err := blosclzCodec{}.Decompress(out, dst[:n], 0, nil)
			if err != nil || m != len(data) || !bytes.Equal(out, data) {
				t.Fatalf("clevel %d maxout %d: round trip failed: %d, %v", clevel, maxout, m, err)
			}
		}
	})
}

// FuzzBloscLZDecode: the decoder never panics, and when it succeeds it has
// filled the output exactly and agrees with the simple reference decoder.
// The first two bytes of data give the output size, the rest is the stream.
func FuzzBloscLZDecode(f *testing.F) {
	seed := func(src []byte, clevel int) {
		dst := make([]byte, len(src))
		if n, _ := (blosclzCodec{}).Compress(dst, src, clevel, 0, nil); n > 0 {
			f.Add(append(binary.LittleEndian.AppendUint16(nil, uint16(len(src))), dst[:n]...))
		}
	}
	seed([]byte("The quick brown fox jumps over the lazy dog. The quick brown fox!!"), 9)
	seed(append(append([]byte("ABCDEFGH"), bytes.Repeat([]byte("x"), 60)...), "12345678"...), 5)
	seed(blzGoldenInput(0)[:min(len(blzGoldenInput(0)), 60000)], 9)
	seed(blzGoldenInput(7)[:min(len(blzGoldenInput(7)), 60000)], 5)
	f.Add([]byte{10, 0, 0x20, 'a', 0xe0, 255, 255, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		n, stream := 0, data
		if len(data) >= 2 {
			n, stream = int(binary.LittleEndian.Uint16(data)), data[2:]
		}
		out := make([]byte, n)
		m, err := blosclzCodec{}.Decompress(out, stream, 0, nil)
		ref, ok := blzRefDecode(stream, n)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			if ok {
				t.Fatalf("reference decoder accepts the stream, fast one says %v", err)
			}
			return
		}
		if m != n {
			t.Fatalf("success with %d bytes of %d", m, n)
		}
		if !ok || !bytes.Equal(out, ref) {
			t.Fatalf("reference decoder disagrees (ok %v)", ok)
		}
	})
}
