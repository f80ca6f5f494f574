package b2nd

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/blosc2go/blosc2"
)

// FuzzMeta feeds hostile metalayers to the decoder, the geometry checks and
// the dtype parser. Whatever decodes must re-encode to the same bytes;
// whatever validates must lay out and read back a small array correctly.
func FuzzMeta(f *testing.F) {
	for _, v := range ndVectors(f) {
		b, _ := hex.DecodeString(v.Params.B2ndMetaHex)
		f.Add(b)
	}
	for _, h := range []string{
		"97000090909000db000000033c6934",
		"95000191d3000000000000000591d20000000591d200000005",
		"970001" + "91d3ffffffffffffffff" + "91d200000001" + "91d200000001" + "00db000000037c7531",
		"970001" + "91d37fffffffffffffff" + "91d200000003" + "91d200000001" + "00db000000037c7531",
		"970011",
		"970002" + "92d30000000000000005d30000000000000007" + "92d200000003d200000004" + "92d200000002d200000002" + "00db0000001d" +
			hex.EncodeToString([]byte("[('a', '<i4'), ('b', '|u1')]!")),
	} {
		b, _ := hex.DecodeString(h)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseMeta(b)
		if err != nil {
			if !errors.Is(err, blosc2.ErrHeader) {
				t.Fatalf("error %v does not wrap ErrHeader", err)
			}
			return
		}
		if enc, err := m.MarshalBinary(); err == nil {
			if len(enc) > len(b) || !bytes.Equal(enc, reencodePrefix(b, len(enc))) {
				t.Fatalf("re-encoded %x from %x", enc, b)
			}
		} else if m.Version >= 0 && m.DTypeFormat >= 0 {
			t.Fatalf("cannot re-encode %+v: %v", m, err)
		}
		T := 1
		if dt, err := ParseDType(m.DType); err == nil {
			T = dt.Size
			if d2, err := ParseDType(dt.String()); err != nil || d2.Size != dt.Size || d2.String() != dt.String() {
				t.Fatalf("dtype %q: canonical %q reparses to %q, %v", m.DType, dt.String(), d2.String(), err)
			}
		} else if !errors.Is(err, blosc2.ErrInvalidOption) && !errors.Is(err, blosc2.ErrUnsupported) {
			t.Fatalf("dtype error %v", err)
		}
		g, err := newGeom(&m, T)
		if err != nil {
			if !errors.Is(err, blosc2.ErrHeader) && !errors.Is(err, blosc2.ErrTooLarge) {
				t.Fatalf("geometry error %v", err)
			}
			return
		}
		if g.nitems*g.T > 1<<12 || g.nchunks*g.chunkBytes() > 1<<16 || g.nchunks > 256 {
			return
		}
		arr := make([]byte, g.nitems*g.T)
		for i := range arr {
			arr[i] = byte(i*7 + 1)
		}
		cp := blosc2.DefaultCParams()
		src := encodeAll(t, g, arr, cp)
		r := &sliceReader{g: g, src: src}
		out := make([]byte, len(arr))
		if err := r.readSlice(out, make([]int64, g.ndim), g.shape); err != nil || !bytes.Equal(out, arr) {
			t.Fatalf("round trip of %+v: %v", m, err)
		}
	})
}

// reencodePrefix is b's first n bytes with the markers C ignores set to
// what the encoder writes, so that only meaningful bytes are compared.
func reencodePrefix(b []byte, n int) []byte {
	p := bytes.Clone(b[:n])
	nd := int(p[2])
	arr := byte(0x90 + nd)
	if n > 6+19*nd {
		p[0] = 0x97
	} else {
		p[0] = 0x95
	}
	p[3] = arr
	for i := range nd {
		p[4+9*i] = 0xd3
	}
	p[4+9*nd] = arr
	for i := range nd {
		p[5+9*nd+5*i] = 0xd2
	}
	p[5+14*nd] = arr
	for i := range nd {
		p[6+14*nd+5*i] = 0xd2
	}
	return p
}

// FuzzDType checks that the dtype parser never panics, that its errors
// wrap the right sentinels and that canonical strings are stable.
func FuzzDType(f *testing.F) {
	for _, s := range []string{
		"<f8", "|u1", "<U5", "<M8[ns]", "[('a', '<i4'), ('b', '<f8', (2, 3))]", "i4,f8",
		"{'names': ['a'], 'formats': ['<i4'], 'offsets': [4], 'itemsize': 8}", "('<i2', (2, 2))",
		"[(('t', 'n'), [('x', '>f4')])]", "float64", "[('it\\'s', '|u1')]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDType(s)
		if err != nil {
			if !errors.Is(err, blosc2.ErrInvalidOption) && !errors.Is(err, blosc2.ErrUnsupported) {
				t.Fatalf("%q: error %v", s, err)
			}
			return
		}
		if d.Size <= 0 || d.Size > MaxItemSize {
			t.Fatalf("%q: size %d", s, d.Size)
		}
		c := d.String()
		d2, err := ParseDType(c)
		if err != nil || d2.Size != d.Size || d2.String() != c {
			t.Fatalf("%q: canonical %q reparses to %q size %d vs %d, %v", s, c, d2.String(), d2.Size, d.Size, err)
		}
	})
}
