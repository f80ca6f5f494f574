package frame

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/blosc2go/blosc2/internal/errs"
)

// The msgpack markers the frame header and trailer use (README_CFRAME_FORMAT.rst).
const (
	mpFixArray = 0x90
	mpFixStr   = 0xA0
	mpFixMap   = 0x80
	mpNil      = 0xC0
	mpFalse    = 0xC2
	mpTrue     = 0xC3
	mpBin8     = 0xC4
	mpBin16    = 0xC5
	mpBin32    = 0xC6
	mpExt8     = 0xC7
	mpExt16    = 0xC8
	mpExt32    = 0xC9
	mpFloat32  = 0xCA
	mpFloat64  = 0xCB
	mpUint8    = 0xCC
	mpUint16   = 0xCD
	mpUint32   = 0xCE
	mpUint64   = 0xCF
	mpInt8     = 0xD0
	mpInt16    = 0xD1
	mpInt32    = 0xD2
	mpInt64    = 0xD3
	mpFixExt1  = 0xD4
	mpFixExt16 = 0xD8
	mpStr8     = 0xD9
	mpStr16    = 0xDA
	mpStr32    = 0xDB
	mpArray16  = 0xDC
	mpArray32  = 0xDD
	mpMap16    = 0xDE
	mpMap32    = 0xDF
)

func appendU16(b []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(b, v) }
func appendU32(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }
func appendU64(b []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(b, v) }

// Ext is a msgpack extension value: a type byte and its payload.
type Ext struct {
	Type int8
	Data []byte
}

// maxDepth bounds the nesting DecodeMsgpack follows, so that hostile input
// cannot exhaust the stack.
const maxDepth = 64

// DecodeMsgpack decodes the single msgpack value that makes up b (trailing
// bytes are an error). Values map to Go as: nil, bool, int64 (every signed
// and unsigned integer that fits, else uint64), float32, float64, string,
// []byte (bin), []any, map[string]any (when every key is a string, else
// map[any]any) and Ext. Sizes are checked against len(b) before anything is
// allocated.
func DecodeMsgpack(b []byte) (any, error) {
	v, n, err := decodeValue(b, 0, 0)
	if err != nil {
		return nil, err
	}
	if n != len(b) {
		return nil, fmt.Errorf("%w: msgpack value of %d bytes followed by %d more", errs.ErrCorrupt, n, len(b)-n)
	}
	return v, nil
}

func mpErr(off int, format string, a ...any) error {
	return fmt.Errorf("%w: msgpack at offset %d: %s", errs.ErrCorrupt, off, fmt.Sprintf(format, a...))
}

// need checks that n bytes follow position p.
func need(b []byte, p, n int) error {
	if n < 0 || p > len(b) || n > len(b)-p {
		return mpErr(p, "%d bytes needed, %d left", n, len(b)-min(p, len(b)))
	}
	return nil
}

// decodeValue decodes the value at b[p:] and returns it with the position
// after it.
func decodeValue(b []byte, p, depth int) (any, int, error) {
	if depth > maxDepth {
		return nil, p, mpErr(p, "nesting deeper than %d", maxDepth)
	}
	if err := need(b, p, 1); err != nil {
		return nil, p, err
	}
	c := b[p]
	p++
	// sized reads the big-endian length of width w at p.
	sized := func(w int) (int, error) {
		if err := need(b, p, w); err != nil {
			return 0, err
		}
		var n uint64
		for i := range w {
			n = n<<8 | uint64(b[p+i])
		}
		p += w
		if n > uint64(len(b)) {
			return 0, mpErr(p, "length %d exceeds the %d-byte input", n, len(b))
		}
		return int(n), nil
	}
	bytesAt := func(n int) ([]byte, error) {
		if err := need(b, p, n); err != nil {
			return nil, err
		}
		v := b[p : p+n : p+n]
		p += n
		return v, nil
	}
	switch {
	case c <= 0x7F:
		return int64(c), p, nil
	case c >= 0xE0:
		return int64(int8(c)), p, nil
	case c&0xF0 == mpFixMap:
		return decodeMap(b, p, int(c&0x0F), depth)
	case c&0xF0 == mpFixArray:
		return decodeArray(b, p, int(c&0x0F), depth)
	case c&0xE0 == mpFixStr:
		v, err := bytesAt(int(c & 0x1F))
		return string(v), p, err
	}
	switch c {
	case mpNil:
		return nil, p, nil
	case mpFalse:
		return false, p, nil
	case mpTrue:
		return true, p, nil
	case mpBin8, mpBin16, mpBin32, mpStr8, mpStr16, mpStr32:
		w := map[byte]int{mpBin8: 1, mpBin16: 2, mpBin32: 4, mpStr8: 1, mpStr16: 2, mpStr32: 4}[c]
		n, err := sized(w)
		if err != nil {
			return nil, p, err
		}
		v, err := bytesAt(n)
		if err != nil {
			return nil, p, err
		}
		if c >= mpStr8 {
			return string(v), p, nil
		}
		return v, p, nil
	case mpExt8, mpExt16, mpExt32:
		w := map[byte]int{mpExt8: 1, mpExt16: 2, mpExt32: 4}[c]
		n, err := sized(w)
		if err != nil {
			return nil, p, err
		}
		if err := need(b, p, 1); err != nil {
			return nil, p, err
		}
		t := int8(b[p])
		p++
		v, err := bytesAt(n)
		return Ext{Type: t, Data: v}, p, err
	case 0xD4, 0xD5, 0xD6, 0xD7, 0xD8:
		n := 1 << (c - mpFixExt1)
		if err := need(b, p, 1+n); err != nil {
			return nil, p, err
		}
		t := int8(b[p])
		p++
		v, err := bytesAt(n)
		return Ext{Type: t, Data: v}, p, err
	case mpFloat32:
		v, err := bytesAt(4)
		if err != nil {
			return nil, p, err
		}
		return math.Float32frombits(binary.BigEndian.Uint32(v)), p, nil
	case mpFloat64:
		v, err := bytesAt(8)
		if err != nil {
			return nil, p, err
		}
		return math.Float64frombits(binary.BigEndian.Uint64(v)), p, nil
	case mpUint8, mpUint16, mpUint32, mpUint64:
		w := 1 << (c - mpUint8)
		v, err := bytesAt(w)
		if err != nil {
			return nil, p, err
		}
		var n uint64
		for _, x := range v {
			n = n<<8 | uint64(x)
		}
		if n > math.MaxInt64 {
			return n, p, nil
		}
		return int64(n), p, nil
	case mpInt8, mpInt16, mpInt32, mpInt64:
		w := 1 << (c - mpInt8)
		v, err := bytesAt(w)
		if err != nil {
			return nil, p, err
		}
		var n uint64
		for _, x := range v {
			n = n<<8 | uint64(x)
		}
		shift := 64 - 8*w
		return int64(n<<shift) >> shift, p, nil
	case mpArray16, mpArray32:
		n, err := sized(map[byte]int{mpArray16: 2, mpArray32: 4}[c])
		if err != nil {
			return nil, p, err
		}
		return decodeArray(b, p, n, depth)
	case mpMap16, mpMap32:
		n, err := sized(map[byte]int{mpMap16: 2, mpMap32: 4}[c])
		if err != nil {
			return nil, p, err
		}
		return decodeMap(b, p, n, depth)
	}
	return nil, p, mpErr(p-1, "marker %#02x is not msgpack", c)
}

func decodeArray(b []byte, p, n, depth int) (any, int, error) {
	// Every element takes at least one byte.
	if err := need(b, p, n); err != nil {
		return nil, p, err
	}
	out := make([]any, 0, n)
	for range n {
		v, q, err := decodeValue(b, p, depth+1)
		if err != nil {
			return nil, q, err
		}
		out = append(out, v)
		p = q
	}
	return out, p, nil
}

func decodeMap(b []byte, p, n, depth int) (any, int, error) {
	if err := need(b, p, 2*n); err != nil {
		return nil, p, err
	}
	keys := make([]any, 0, n)
	vals := make([]any, 0, n)
	allStr := true
	for range n {
		k, q, err := decodeValue(b, p, depth+1)
		if err != nil {
			return nil, q, err
		}
		v, q, err := decodeValue(b, q, depth+1)
		if err != nil {
			return nil, q, err
		}
		p = q
		if _, ok := k.(string); !ok {
			allStr = false
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	if allStr {
		m := make(map[string]any, n)
		for i, k := range keys {
			m[k.(string)] = vals[i]
		}
		return m, p, nil
	}
	m := make(map[any]any, n)
	for i, k := range keys {
		switch k.(type) {
		case []any, map[string]any, map[any]any, []byte, Ext:
			return nil, p, mpErr(p, "map key of type %T", k)
		}
		m[k] = vals[i]
	}
	return m, p, nil
}

// reader is a cursor over msgpack-encoded frame structures whose layout is
// known, so every marker is checked and every length bounded.
type reader struct {
	b    []byte
	p    int
	what string // "header" or "trailer", for error messages
}

func (r *reader) fail(format string, a ...any) error {
	return fmt.Errorf("%w: frame %s at offset %d: %s", errs.ErrHeader, r.what, r.p, fmt.Sprintf(format, a...))
}

func (r *reader) byte1() (byte, error) {
	if r.p >= len(r.b) {
		return 0, r.fail("ends after %d bytes", len(r.b))
	}
	c := r.b[r.p]
	r.p++
	return c, nil
}

func (r *reader) expect(marker byte, name string) error {
	c, err := r.byte1()
	if err != nil {
		return err
	}
	if c != marker {
		r.p--
		return r.fail("%s: marker %#02x, want %#02x", name, c, marker)
	}
	return nil
}

func (r *reader) take(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.p {
		return nil, r.fail("%d bytes needed, %d left", n, len(r.b)-r.p)
	}
	v := r.b[r.p : r.p+n : r.p+n]
	r.p += n
	return v, nil
}

func (r *reader) u16() (int, error) {
	v, err := r.take(2)
	if err != nil {
		return 0, err
	}
	return int(binary.BigEndian.Uint16(v)), nil
}

func (r *reader) u32() (uint32, error) {
	v, err := r.take(4)
	if err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint32(v), nil
}

// fixstr reads a fixstr (a metalayer name).
func (r *reader) fixstr(name string) (string, error) {
	c, err := r.byte1()
	if err != nil {
		return "", err
	}
	if c&0xE0 != mpFixStr {
		r.p--
		return "", r.fail("%s: marker %#02x is not a fixstr", name, c)
	}
	v, err := r.take(int(c & 0x1F))
	return string(v), err
}
