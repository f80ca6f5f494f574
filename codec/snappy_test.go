package codec

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/blosc2go/blosc2/internal/errs"
)

func TestSnappyRegistry(t *testing.T) {
	c, err := Lookup(Snappy)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(snappyCodec); !ok {
		t.Fatalf("Lookup(Snappy) = %T", c)
	}
	if Name(Snappy) != "snappy" {
		t.Fatalf("name %q", Name(Snappy))
	}
	if id, ok := ByName("snappy"); !ok || id != Snappy {
		t.Fatalf("ByName(snappy) = %d, %v", id, ok)
	}
	for _, id := range []ID{5 + 1, 7, UserMin} {
		if _, err := LookupBlosc1(id, true); !errors.Is(err, ErrUnknown) {
			t.Errorf("LookupBlosc1(%d): %v", id, err)
		}
	}
	for _, id := range []ID{LZ4, LZ4HC, Snappy, Zlib, Zstd} {
		a, err := LookupBlosc1(id, true)
		b, _ := Lookup(id)
		if err != nil || a != b {
			t.Errorf("LookupBlosc1(%d) = %T, %v; want Lookup's %T", id, a, err, b)
		}
	}
	if c, err := LookupBlosc1(BloscLZ, false); err != nil || c != (blosclz1Codec{split: false}) {
		t.Errorf("LookupBlosc1(BloscLZ) = %T, %v", c, err)
	}
}

func TestSnappyRoundTrip(t *testing.T) {
	var c snappyCodec
	inputs := [][]byte{{}, []byte("x"), bytes.Repeat([]byte("snappy "), 3000), make([]byte, 70000)}
	noise := make([]byte, 5000)
	x := uint32(7)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte(x >> 24)
	}
	inputs = append(inputs, noise)
	for i, src := range inputs {
		dst := make([]byte, len(src)+len(src)/6+32) // room for Snappy's worst case
		n, err := c.Compress(dst, src, 5, 0, nil)
		if err != nil || n <= 0 {
			t.Fatalf("input %d: Compress = %d, %v", i, n, err)
		}
		out := make([]byte, len(src))
		if m, err := c.Decompress(out, dst[:n], 0, nil); err != nil || m != len(src) || !bytes.Equal(out, src) {
			t.Fatalf("input %d: Decompress = %d, %v", i, m, err)
		}
		// The same stream into the exact room it needs (through the
		// pooled buffer), and into one byte less: 0, no error.
		if len(dst) > n {
			tight := make([]byte, n)
			if m, err := c.Compress(tight, src, 5, 0, nil); err != nil || m != n || !bytes.Equal(tight, dst[:n]) {
				t.Fatalf("input %d: Compress into %d bytes = %d, %v", i, n, m, err)
			}
			if n > 1 {
				if m, err := c.Compress(tight[:n-1], src, 5, 0, nil); err != nil || m != 0 {
					t.Fatalf("input %d: Compress into %d bytes = %d, %v; want 0", i, n-1, m, err)
				}
			}
		}
		// A stream declaring another length, and damaged ones, fail.
		if len(src) > 0 {
			if _, err := c.Decompress(make([]byte, len(src)+1), dst[:n], 0, nil); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("input %d: wrong length: %v", i, err)
			}
			if _, err := c.Decompress(out, dst[:n-1], 0, nil); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("input %d: truncated stream: %v", i, err)
			}
		}
	}
}

// TestErrorKinds: ErrDict and ErrUnknown match their own errors and the
// root sentinels, but a corrupt stream is not a dictionary error.
func TestErrorKinds(t *testing.T) {
	dict := fmt.Errorf("%w: zstd: bad", ErrDict)
	if !errors.Is(dict, ErrDict) || !errors.Is(dict, ErrCorrupt) || dict.Error() != "blosc2: corrupt data: zstd: bad" {
		t.Errorf("dictionary error %q", dict)
	}
	if corrupt := fmt.Errorf("%w: x", ErrCorrupt); errors.Is(corrupt, ErrDict) {
		t.Error("a corrupt stream matches ErrDict")
	}
	if _, err := Lookup(7); !errors.Is(err, ErrUnknown) || !errors.Is(err, errs.ErrUnsupported) {
		t.Errorf("Lookup(7): %v", err)
	}
}
