package framewriter

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
)

// testData returns n bytes of smooth float64s with some noise.
func testData(n int, seed uint64) []byte {
	b := make([]byte, n+8)
	x := seed
	for i := 0; i < n; i += 8 {
		x = x*6364136223846793005 + 1442695040888963407
		v := math.Sin(float64(i)/800) + float64(x>>54)/1e4
		binary.LittleEndian.PutUint64(b[i:], math.Float64bits(v))
	}
	return b[:n]
}

// piece is one chunk of a round-trip frame: raw data, or a special.
type piece struct {
	raw   []byte
	kind  blosc2.Special
	n     int
	value []byte
}

// expected is what a piece decodes to.
func (p piece) expected(typesize int) []byte {
	switch p.kind {
	case blosc2.SpecialNone:
		return p.raw
	case blosc2.SpecialZero, blosc2.SpecialUninit:
		return make([]byte, p.n)
	case blosc2.SpecialNaN:
		out := make([]byte, p.n)
		for i := 0; i+typesize <= p.n; i += typesize {
			if typesize == 4 {
				binary.LittleEndian.PutUint32(out[i:], 0x7FC00000)
			} else {
				binary.LittleEndian.PutUint64(out[i:], 0x7FF8000000000000)
			}
		}
		return out
	}
	return bytes.Repeat(p.value, p.n/len(p.value))
}

type rtCase struct {
	name     string
	cp       blosc2.CParams
	pieces   []piece
	metas    [][2]string
	vlmetas  [][2]string
	specials SpecialMode
}

func rtCases() []rtCase {
	codecs := []blosc2.CParams{}
	for _, c := range []struct {
		id    codec.ID
		level int
	}{{blosc2.BloscLZ, 5}, {blosc2.LZ4, 5}, {blosc2.LZ4HC, 9}, {blosc2.Zlib, 1}, {blosc2.Zstd, 3}} {
		p := blosc2.DefaultCParams()
		p.Codec = c.id
		p.Level = c.level
		codecs = append(codecs, p)
	}
	filters := [][blosc2.MaxFilters]blosc2.Filter{
		{},
		blosc2.Pipeline(blosc2.Filter{ID: blosc2.Shuffle}),
		blosc2.Pipeline(blosc2.Filter{ID: blosc2.BitShuffle}),
		blosc2.Pipeline(blosc2.Filter{ID: blosc2.Delta}, blosc2.Filter{ID: blosc2.Shuffle}),
	}
	layouts := []struct {
		name  string
		sizes []int
	}{
		{"fixed", []int{8000, 8000, 8000, 8000, 2400}},
		{"variable", []int{1000, 8000, 304, 4000, 8000}},
		{"one", []int{5000}},
		{"empty", nil},
	}
	specialSets := []struct {
		name string
		at   map[int]piece // inserted before piece k (len(sizes) = at the end)
	}{
		{"plain", nil},
		{"specials", map[int]piece{1: {kind: blosc2.SpecialZero}, 3: {kind: blosc2.SpecialNaN}, 99: {kind: blosc2.SpecialUninit}}},
		{"repeat", map[int]piece{0: {kind: blosc2.SpecialValue, value: []byte{1, 2, 3, 4, 5, 6, 7, 8}}, 2: {kind: blosc2.SpecialZero}}},
	}
	var out []rtCase
	k := 0
	for ci, cp := range codecs {
		for fi, f := range filters {
			for li, l := range layouts {
				s := specialSets[(ci+fi+li)%len(specialSets)]
				k++
				p := cp
				p.Filters = f
				c := rtCase{name: fmt.Sprintf("c%d-f%d-%s-%s", p.Codec, fi, l.name, s.name), cp: p}
				seed := uint64(k)
				add := func(at int) {
					sp, ok := s.at[at]
					if !ok {
						return
					}
					sp.n = 8000
					if l.name == "variable" {
						sp.n = 1600
					}
					c.pieces = append(c.pieces, sp)
				}
				for j, n := range l.sizes {
					add(j)
					c.pieces = append(c.pieces, piece{raw: testData(n, seed+uint64(j))})
				}
				if len(l.sizes) > 0 {
					add(99)
				}
				if k%2 == 0 {
					c.metas = [][2]string{{"first", "\x93\x01\x02\x03"}, {"b2nd-like", string(make([]byte, 40))}}
				}
				if k%3 != 0 {
					c.vlmetas = [][2]string{{"note", "hello"}, {"big", string(testData(3000, seed))}}
				}
				c.specials = SpecialMode(k % 3)
				out = append(out, c)
			}
		}
	}
	return out
}

// write writes c through w.
func (c *rtCase) write(t *testing.T, w *Writer) {
	t.Helper()
	for i, p := range c.pieces {
		var err error
		if p.kind == blosc2.SpecialNone {
			err = w.WriteChunk(p.raw)
		} else {
			err = w.WriteSpecial(p.kind, p.n, p.value)
		}
		if err != nil {
			t.Fatalf("piece %d: %v", i, err)
		}
	}
	for _, m := range c.vlmetas {
		if err := w.SetVLMetalayer(m[0], []byte(m[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := w.WriteChunk([]byte{1}); err == nil {
		t.Fatal("WriteChunk after Close succeeded")
	}
}

func (c *rtCase) options() []WriterOption {
	opts := []WriterOption{WithCParams(c.cp), WithSpecials(c.specials), WithoutSync()}
	for _, m := range c.metas {
		opts = append(opts, WithMetalayer(m[0], []byte(m[1])))
	}
	return opts
}

// check reads the frame back field by field.
func (c *rtCase) check(t *testing.T, r *framereader.Reader, unpatched bool) {
	t.Helper()
	var want []byte
	for _, p := range c.pieces {
		want = append(want, p.expected(c.cp.TypeSize)...)
	}
	if r.NumChunks() != len(c.pieces) {
		t.Fatalf("%d chunks, wrote %d", r.NumChunks(), len(c.pieces))
	}
	if r.Size() != int64(len(want)) {
		t.Fatalf("size %d, wrote %d", r.Size(), len(want))
	}
	var got []byte
	var err error
	for i := range r.NumChunks() {
		ci, err := r.ChunkInfo(i)
		if err != nil {
			t.Fatalf("chunk %d info: %v", i, err)
		}
		if n := len(c.pieces[i].expected(c.cp.TypeSize)); ci.Nbytes != n {
			t.Fatalf("chunk %d: %d bytes, wrote %d", i, ci.Nbytes, n)
		}
		if got, err = r.DecodeChunk(got, i); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("decoded data differs")
	}
	all := make([]byte, len(want))
	if n, err := r.ReadAt(all, 0); n != len(want) || (err != nil && err != io.EOF) || !bytes.Equal(all, want) {
		t.Fatalf("ReadAt: %d %v", n, err)
	}
	if len(want) > 100 {
		p := make([]byte, len(want)/3)
		if _, err := r.ReadAt(p, int64(len(want)/4)); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		if !bytes.Equal(p, want[len(want)/4:len(want)/4+len(p)]) {
			t.Fatal("ReadAt range differs")
		}
	}
	in := r.Info()
	if in.TypeSize != c.cp.TypeSize || in.Codec != c.cp.Codec || in.Clevel != c.cp.Level || in.Filters != c.cp.Filters {
		t.Errorf("info %+v does not match cparams %+v", in, c.cp)
	}
	if in.Unpatched != unpatched {
		t.Errorf("Unpatched = %v, want %v", in.Unpatched, unpatched)
	}
	wantVersion := 2
	if in.ChunkSize == 0 {
		wantVersion = 3
	}
	if in.Version != wantVersion {
		t.Errorf("version %d with chunksize %d", in.Version, in.ChunkSize)
	}
	if len(c.pieces) == 0 && in.ChunkSize != -1 {
		t.Errorf("empty frame with chunksize %d", in.ChunkSize)
	}
	metas := r.Metalayers()
	if len(metas) != len(c.metas) {
		t.Fatalf("%d metalayers, wrote %d", len(metas), len(c.metas))
	}
	for i, m := range c.metas {
		if metas[i].Name != m[0] || string(metas[i].Content) != m[1] {
			t.Errorf("metalayer %d = %q, wrote %q", i, metas[i].Name, m[0])
		}
	}
	names := r.VLMetalayerNames()
	// The checksum record is a vlmetalayer too, hidden from the names.
	if len(names) != len(c.vlmetas) || in.HasVLMeta != (len(c.vlmetas) > 0 || r.Checksums() != "none") {
		t.Fatalf("vlmetalayers %v (flag %v), wrote %d", names, in.HasVLMeta, len(c.vlmetas))
	}
	for _, m := range c.vlmetas {
		b, err := r.VLMetalayer(m[0])
		if err != nil || string(b) != m[1] {
			t.Errorf("vlmetalayer %q: %v", m[0], err)
		}
	}
	_ = err
}

// TestRoundTrip writes frames over codecs, filters, fixed and variable
// chunk sizes, special chunks, metalayers and vlmetalayers to a WriterAt,
// a WriteSeeker (file), a plain stream and a sparse directory, and reads
// every field back.
func TestRoundTrip(t *testing.T) {
	for _, c := range rtCases() {
		t.Run(c.name, func(t *testing.T) {
			// io.WriterAt.
			m := &memFile{}
			w, err := NewWriterAt(m, 0, c.options()...)
			if err != nil {
				t.Fatal(err)
			}
			c.write(t, w)
			r, err := framereader.NewReaderBytes(m.b)
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, r, false)

			// A file through New (io.WriteSeeker), after a 5-byte prefix.
			f, err := os.CreateTemp(t.TempDir(), "f")
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("12345")
			w, err = NewWriter(f, c.options()...)
			if err != nil {
				t.Fatal(err)
			}
			c.write(t, w)
			if pos, _ := f.Seek(0, io.SeekCurrent); pos != 5+int64(len(m.b)) {
				t.Fatalf("file left at %d, frame ends at %d", pos, 5+len(m.b))
			}
			f.Close()
			fb, _ := os.ReadFile(f.Name())
			if !bytes.Equal(fb[5:], m.b) {
				t.Fatalf("file frame differs from WriterAt frame")
			}

			// A plain stream: unpatched header.
			var buf bytes.Buffer
			w, err = NewWriter(struct{ io.Writer }{&buf}, c.options()...)
			if err != nil {
				t.Fatal(err)
			}
			c.write(t, w)
			r, err = framereader.NewReaderBytes(buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, r, true)

			// Sparse.
			dir := filepath.Join(t.TempDir(), "sf")
			w, err = CreateSparse(dir, c.options()...)
			if err != nil {
				t.Fatal(err)
			}
			c.write(t, w)
			r, err = framereader.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, r, false)
		})
	}
}
