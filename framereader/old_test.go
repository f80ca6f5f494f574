package framereader

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/blosc2go/blosc2"
)

func oldData(n int, seed int) []byte {
	b := make([]byte, n)
	for i := 0; i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], math.Float64bits(math.Sin(float64(i+seed)/300)))
	}
	return b
}

func compress(t testing.TB, raw []byte, p blosc2.CParams) []byte {
	t.Helper()
	c, err := blosc2.Compress(nil, raw, &p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// betaFrame builds a frame laid out as v2.0.0-beta.5 wrote them
// (C-Blosc2 2.0.0-beta frame.c): 13-element header, compacted filters,
// metalayers at 82, chunks with version byte 4, usermeta trailer.
func betaFrame(t testing.TB, raws [][]byte, chunksize int, usermeta []byte) []byte {
	p := blosc2.DefaultCParams()
	p.Codec = blosc2.LZ4
	var chunks []byte
	var offsets []int64
	var nbytes int64
	for _, raw := range raws {
		c := compress(t, raw, p)
		c[0] = 4 // BLOSC2_VERSION_FORMAT_BETA1
		offsets = append(offsets, int64(len(chunks)))
		chunks = append(chunks, c...)
		nbytes += int64(len(raw))
	}
	idxRaw := make([]byte, 8*len(offsets))
	for i, o := range offsets {
		binary.LittleEndian.PutUint64(idxRaw[8*i:], uint64(o))
	}
	ip := blosc2.DefaultCParams()
	index := compress(t, idxRaw, ip)
	if len(raws) == 0 {
		index = nil
	}
	// Metalayer section: one metalayer "beta" = 3 bytes.
	name, content := "beta", []byte{0x93, 1, 2}
	headerLen := 92 + (len(name) + 6) + (len(content) + 5)
	h := []byte{0x9D, 0xA8}
	h = append(h, "b2frame\x00"...)
	h = append(h, 0xD2)
	h = binary.BigEndian.AppendUint32(h, uint32(headerLen))
	h = append(h, 0xCF)
	h = binary.BigEndian.AppendUint64(h, 0) // frame_len, below
	h = append(h, 0xA4, 0x21, 0, 0x51, 0)   // flags: v1 + 64-bit, codec LZ4 clevel 5
	h = append(h, 0xD3)
	h = binary.BigEndian.AppendUint64(h, uint64(nbytes))
	h = append(h, 0xD3)
	h = binary.BigEndian.AppendUint64(h, uint64(len(chunks)))
	h = append(h, 0xD2, 0, 0, 0, 8, 0xD2)
	h = binary.BigEndian.AppendUint32(h, uint32(chunksize))
	h = append(h, 0xD1, 0, 1, 0xD1, 0, 1)
	if usermeta != nil {
		h = append(h, 0xC3)
	} else {
		h = append(h, 0xC2)
	}
	h = append(h, 0xD8, 1, 1, 0, 0, 0, 0, 0, 0, 0) // one filter: shuffle, compacted
	h = append(h, make([]byte, 8)...)
	if len(h) != 82 {
		t.Fatalf("beta fixed header is %d bytes", len(h))
	}
	h = append(h, 0x93, 0xCD, 0, byte(7+len(name)+6), 0xDE, 0, 1, 0xA0|byte(len(name)))
	h = append(h, name...)
	h = append(h, 0xD2)
	h = binary.BigEndian.AppendUint32(h, uint32(len(h)+4+3))
	h = append(h, 0xDC, 0, 1, 0xC6)
	h = binary.BigEndian.AppendUint32(h, uint32(len(content)))
	h = append(h, content...)
	if len(h) != headerLen {
		t.Fatalf("beta header is %d bytes, want %d", len(h), headerLen)
	}
	tr := []byte{0x94, 1, 0xC6}
	tr = binary.BigEndian.AppendUint32(tr, uint32(len(usermeta)))
	tr = append(tr, usermeta...)
	tr = append(tr, 0xCE)
	tr = binary.BigEndian.AppendUint32(tr, uint32(30+len(usermeta)))
	tr = append(tr, 0xD8, 0)
	tr = append(tr, make([]byte, 16)...)
	f := append(append(append(h, chunks...), index...), tr...)
	binary.BigEndian.PutUint64(f[16:], uint64(len(f)))
	return f
}

// TestBetaFrame reads beta-era frames built from the documented layout.
func TestBetaFrame(t *testing.T) {
	raws := [][]byte{oldData(16000, 0), oldData(16000, 1), oldData(5000, 2)}
	um := compress(t, []byte("user meta"), blosc2.DefaultCParams())
	for _, tc := range []struct {
		name     string
		raws     [][]byte
		usermeta []byte
	}{{"data", raws, um}, {"no-usermeta", raws, nil}, {"empty", nil, nil}} {
		t.Run(tc.name, func(t *testing.T) {
			b := betaFrame(t, tc.raws, 16000, tc.usermeta)
			if f := Detect(b, int64(len(b))); f != Beta {
				t.Fatalf("detected %v", f)
			}
			r, err := NewReaderBytes(b)
			if err != nil {
				t.Fatal(err)
			}
			if r.Format() != Beta || r.NumChunks() != len(tc.raws) {
				t.Fatalf("format %v, %d chunks", r.Format(), r.NumChunks())
			}
			want := bytes.Join(tc.raws, nil)
			got := make([]byte, len(want))
			if n, err := r.ReadAt(got, 0); n != len(want) || (err != nil && err != io.EOF) || !bytes.Equal(got, want) {
				t.Fatalf("ReadAt: %d %v", n, err)
			}
			if m, ok := r.Metalayer("beta"); !ok || !bytes.Equal(m, []byte{0x93, 1, 2}) {
				t.Fatalf("metalayer %x %v", m, ok)
			}
			in := r.Info()
			if in.Codec != blosc2.LZ4 || in.Clevel != 5 || in.TypeSize != 8 || in.Filters[0].ID != blosc2.Shuffle {
				t.Fatalf("info %+v", in)
			}
			if tc.usermeta != nil {
				v, err := r.VLMetalayer("usermeta")
				if err != nil || string(v) != "user meta" {
					t.Fatalf("usermeta %q %v", v, err)
				}
			}
		})
	}
}

// blosc1Chunk turns an extended-header chunk compressed without split
// streams into the 16-byte-header form of C-Blosc 1.x / C-Blosc2 2.0.0a2.
func blosc1Chunk(t testing.TB, c []byte, shuffle bool) []byte {
	h, err := blosc2.ParseHeader(c)
	if err != nil {
		t.Fatal(err)
	}
	if h.Special() != blosc2.SpecialNone {
		// Blosc1 has no special chunks: store the content.
		raw, err := blosc2.Decompress(nil, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		p := blosc2.DefaultCParams()
		p.Level = 0
		c = compress(t, raw, p)
		h, _ = blosc2.ParseHeader(c)
	}
	out := make([]byte, 16, len(c))
	copy(out, c[:16])
	out[0] = 2
	flags := byte(h.Format() << 5)
	if shuffle {
		flags |= 0x01
	}
	if h.Memcpyed() {
		flags |= 0x02
		out = append(out, c[32:]...)
	} else {
		flags |= 0x10
		for j := range h.NBlocks() {
			s := binary.LittleEndian.Uint32(c[32+4*j:])
			out = binary.LittleEndian.AppendUint32(out, s-16)
		}
		out = append(out, c[32+4*h.NBlocks():]...)
	}
	out[2] = flags
	binary.LittleEndian.PutUint32(out[12:], uint32(len(out)))
	return out
}

// packedSchunk builds a packed super-chunk as blosc2_pack_schunk of
// v2.0.0a2 laid it out (C-Blosc2 2.0.0-alpha super-chunks), with a delta reference in
// a filters chunk when ref is set.
func packedSchunk(t testing.TB, raws [][]byte, ref []byte) []byte {
	p := blosc2.DefaultCParams()
	p.Codec = blosc2.LZ4
	p.SplitMode = blosc2.SplitNever
	b := make([]byte, 96)
	for i := 80; i < 96; i++ {
		b[i] = 0xAA // uninitialised memory
	}
	binary.LittleEndian.PutUint16(b[4:], 1) // LZ4
	binary.LittleEndian.PutUint16(b[6:], 5)
	var nbytes int64 = 96
	if ref != nil {
		binary.LittleEndian.PutUint16(b[8:], 3) // delta in filter slot 0
		fc := make([]byte, 16, 16+len(ref))
		fc[0], fc[1], fc[2], fc[3] = 2, 1, 0x02, 1
		binary.LittleEndian.PutUint32(fc[4:], uint32(len(ref)))
		binary.LittleEndian.PutUint32(fc[8:], uint32(len(ref)))
		binary.LittleEndian.PutUint32(fc[12:], uint32(16+len(ref)))
		fc = append(fc, ref...)
		binary.LittleEndian.PutUint64(b[40:], uint64(len(b)))
		b = append(b, fc...)
		nbytes += int64(len(ref))
	}
	var offs []int64
	for _, raw := range raws {
		data := raw
		if ref != nil {
			data = bytes.Clone(raw)
			for k := range min(len(data), len(ref)) {
				data[k] -= ref[k]
			}
		}
		c := blosc1Chunk(t, compress(t, data, p), true)
		if ref != nil {
			c[2] |= 0x08
		}
		offs = append(offs, int64(len(b)))
		b = append(b, c...)
		nbytes += int64(len(raw))
	}
	binary.LittleEndian.PutUint64(b[72:], uint64(len(b)))
	for _, o := range offs {
		b = binary.LittleEndian.AppendUint64(b, uint64(o))
	}
	nbytes += 8 * int64(len(raws))
	binary.LittleEndian.PutUint64(b[16:], uint64(len(raws)))
	binary.LittleEndian.PutUint64(b[24:], uint64(nbytes))
	binary.LittleEndian.PutUint64(b[32:], uint64(len(b)))
	return b
}

// TestPackedSchunk reads packed super-chunks built from the documented
// layout, with and without the super-chunk delta filter.
func TestPackedSchunk(t *testing.T) {
	raws := [][]byte{oldData(20000, 5), oldData(20000, 6), oldData(7000, 7), oldData(20, 8)}
	for _, ref := range [][]byte{nil, oldData(30000, 5)} {
		b := packedSchunk(t, raws, ref)
		if f := Detect(b, int64(len(b))); f != Packed {
			t.Fatalf("detected %v", f)
		}
		r, err := NewReaderBytes(b)
		if err != nil {
			t.Fatal(err)
		}
		if r.Format() != Packed || r.NumChunks() != len(raws) {
			t.Fatalf("format %v, %d chunks", r.Format(), r.NumChunks())
		}
		want := bytes.Join(raws, nil)
		var got []byte
		for i := range r.NumChunks() {
			if got, err = r.DecodeChunk(got, i); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("ref %v: decoded data differs", ref != nil)
		}
		p := make([]byte, 30000)
		if _, err := r.ReadAt(p, 3333); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		if !bytes.Equal(p, want[3333:33333]) {
			t.Fatalf("ref %v: ReadAt differs", ref != nil)
		}
		part, err := r.DecodeChunkItems(nil, 1, 100, 200)
		if err != nil || !bytes.Equal(part, raws[1][800:2400]) {
			t.Fatalf("items: %v", err)
		}
	}
}

// TestDetectAndRefuse checks that every format is told apart from its
// first bytes and that what no reader handles gets a clear error.
func TestDetectAndRefuse(t *testing.T) {
	chunk := compress(t, oldData(1000, 1), blosc2.DefaultCParams())
	pre := betaFrame(t, nil, 100, nil)
	pre[0] = 0x9C
	pre[25] = 0x24
	for _, tc := range []struct {
		name string
		b    []byte
		f    Format
		err  error
	}{
		{"chunk", chunk, Chunk, blosc2.ErrInvalidOption},
		{"pre-trailer", pre, PreTrailer, blosc2.ErrUnsupported},
		{"text", []byte("this is not a frame at all, just some text of enough length to look at........................"), Unknown, blosc2.ErrHeader},
		{"empty", nil, Unknown, blosc2.ErrHeader},
		{"zip", append([]byte("PK\x03\x04"), make([]byte, 200)...), Unknown, blosc2.ErrHeader},
	} {
		if f := Detect(tc.b, int64(len(tc.b))); f != tc.f {
			t.Errorf("%s: detected %v, want %v", tc.name, f, tc.f)
		}
		_, err := NewReaderBytes(tc.b)
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.err)
		}
	}
}
