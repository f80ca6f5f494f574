package blosc2_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
)

// What a Blosc1 chunk cannot express is refused, by name.
func TestBlosc1Refusals(t *testing.T) {
	type tc struct {
		name string
		edit func(p *blosc2.CParams)
		want string
	}
	tests := []tc{
		{"delta", func(p *blosc2.CParams) {
			p.Filters = blosc2.Pipeline(blosc2.Filter{ID: blosc2.Delta}, blosc2.Filter{ID: blosc2.Shuffle})
		}, "delta"},
		{"truncprec", func(p *blosc2.CParams) {
			p.Filters = blosc2.Pipeline(blosc2.Filter{ID: blosc2.TruncPrec, Meta: 10}, blosc2.Filter{ID: blosc2.Shuffle})
		}, "trunc_prec"},
		{"bytedelta", func(p *blosc2.CParams) {
			p.Filters = blosc2.Pipeline(blosc2.Filter{ID: blosc2.Shuffle}, blosc2.Filter{ID: blosc2.ByteDelta})
		}, "bytedelta"},
		{"two shuffles", func(p *blosc2.CParams) {
			p.Filters = blosc2.Pipeline(blosc2.Filter{ID: blosc2.Shuffle}, blosc2.Filter{ID: blosc2.BitShuffle})
		}, "one filter"},
		{"shuffle width", func(p *blosc2.CParams) {
			p.Filters = blosc2.Pipeline(blosc2.Filter{ID: blosc2.Shuffle, Meta: 4})
		}, "width 4"},
		{"dictionary", func(p *blosc2.CParams) { p.Codec, p.UseDict = blosc2.Zstd, true }, "dictionaries"},
		{"typesize", func(p *blosc2.CParams) { p.TypeSize = 256 }, "typesize"},
		{"codec meta", func(p *blosc2.CParams) { p.CodecMeta = 3 }, "codec meta"},
		{"user codec", func(p *blosc2.CParams) { p.Codec = 200 }, "codec"},
		{"user filter", func(p *blosc2.CParams) { p.Filters = blosc2.Pipeline(blosc2.Filter{ID: 200}) }, "filter id 200"},
	}
	src := make([]byte, 4096)
	for _, tt := range tests {
		p := blosc2.DefaultCParams()
		p.Format = blosc2.ChunkBlosc1
		tt.edit(&p)
		_, err := blosc2.Compress(nil, src, &p)
		if !errors.Is(err, blosc2.ErrInvalidOption) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want ErrInvalidOption naming %q", tt.name, err, tt.want)
		}
		if _, err := blosc2.BlockSize(&p, len(src)); !errors.Is(err, blosc2.ErrInvalidOption) {
			t.Errorf("%s: BlockSize: got %v, want ErrInvalidOption", tt.name, err)
		}
	}
	// The same options are fine in a Blosc2 chunk (user ids aside).
	p := blosc2.DefaultCParams()
	p.Filters = blosc2.Pipeline(blosc2.Filter{ID: blosc2.Delta}, blosc2.Filter{ID: blosc2.Shuffle})
	p.TypeSize = 256
	if _, err := blosc2.Compress(nil, src, &p); err != nil {
		t.Fatal(err)
	}
}

// Snappy exists in Blosc1 chunks only: Compress refuses it in a Blosc2
// chunk, and a Blosc2 chunk that names it decodes to an error that says
// why.
func TestSnappyOnlyInBlosc1(t *testing.T) {
	src := bytes.Repeat([]byte("snappy chunk "), 1000)
	p := blosc2.DefaultCParams()
	p.Codec = blosc2.Snappy
	if _, err := blosc2.Compress(nil, src, &p); !errors.Is(err, blosc2.ErrInvalidOption) || !strings.Contains(err.Error(), "C-Blosc2 has no snappy") {
		t.Fatalf("Blosc2 snappy chunk: got %v", err)
	}
	p.Format = blosc2.ChunkBlosc1
	chunk, err := blosc2.Compress(nil, src, &p)
	if err != nil {
		t.Fatal(err)
	}
	h, err := blosc2.ParseHeader(chunk)
	if err != nil || h.Version != blosc2.VersionBlosc1 || h.Codec != blosc2.Snappy || h.Format() != blosc2.FormatSnappy || h.HeaderLen() != 16 {
		t.Fatalf("header %+v, %v", h, err)
	}
	// A Blosc2 chunk with Snappy's format: made from an LZ4 chunk by
	// rewriting its codec format and id, as a corrupt or foreign writer
	// might.
	p = blosc2.DefaultCParams()
	p.Codec = blosc2.LZ4
	b2, err := blosc2.Compress(nil, src, &p)
	if err != nil {
		t.Fatal(err)
	}
	b2[2] = b2[2]&^0xE0 | blosc2.FormatSnappy<<5
	b2[22] = uint8(blosc2.Snappy)
	_, err = blosc2.Decompress(nil, b2, nil)
	if !errors.Is(err, blosc2.ErrUnsupported) || !strings.Contains(err.Error(), "C-Blosc2 has no snappy codec") {
		t.Fatalf("Blosc2 chunk with snappy: got %v", err)
	}
}

// Blosc1 chunks do not depend on the thread count, decode back, and keep
// the 16-byte header through every path: memcpy (level 0, small inputs,
// incompressible data) and compressed.
func TestBlosc1RoundTrip(t *testing.T) {
	inputs := map[string][]byte{"empty": nil, "small": []byte("a short input"), "text": bytes.Repeat([]byte("zarr v2 chunk "), 10000)}
	noise := make([]byte, 150001)
	x := uint32(1)
	for i := range noise {
		x = x*1664525 + 1013904223
		noise[i] = byte(x >> 24)
	}
	inputs["noise"] = noise
	nums := make([]byte, 8*20000)
	for i := range 20000 {
		binary.LittleEndian.PutUint64(nums[8*i:], uint64(i*i))
	}
	inputs["numbers"] = nums
	levels := []int{0, 1, 9}
	if testing.Short() {
		levels = []int{0, 5}
	}
	for name, src := range inputs {
		for _, id := range []codec.ID{blosc2.BloscLZ, blosc2.LZ4, blosc2.LZ4HC, blosc2.Snappy, blosc2.Zlib, blosc2.Zstd} {
			for _, f := range []blosc2.FilterID{blosc2.NoFilter, blosc2.Shuffle, blosc2.BitShuffle} {
				for _, lv := range levels {
					p := blosc2.CParams{Codec: id, Level: lv, TypeSize: 8, Filters: blosc2.Pipeline(blosc2.Filter{ID: f}), Format: blosc2.ChunkBlosc1, Concurrency: 1}
					one, err := blosc2.Compress(nil, src, &p)
					if err != nil {
						t.Fatal(err)
					}
					p.Concurrency = 4
					four, err := blosc2.Compress(nil, src, &p)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(one, four) {
						t.Fatalf("%s %s filter %d level %d: the chunk depends on the thread count", name, codec.Name(id), f, lv)
					}
					if len(one) > len(src)+16 || one[0] != blosc2.VersionBlosc1 || one[2]&0x05 == 0x05 {
						t.Fatalf("%s %s filter %d level %d: %d bytes for %d, header % x", name, codec.Name(id), f, lv, len(one), len(src), one[:16])
					}
					back, err := blosc2.Decompress(nil, one, &blosc2.DParams{Concurrency: 3})
					if err != nil || !bytes.Equal(back, src) {
						t.Fatalf("%s %s filter %d level %d: round trip: %v", name, codec.Name(id), f, lv, err)
					}
				}
			}
		}
	}
}

// TestBlosc1CVectors checks Blosc1 chunks that C-Blosc 1.21.3 wrote
// (testdata/blosc1, no Python needed): Go decodes each, snappy included;
// Go's chunk of the same data and parameters has C's header fields (those
// decided before compressing) and, with BloscLZ and LZ4, C's bytes.
func TestBlosc1CVectors(t *testing.T) {
	dir := filepath.Join("testdata", "blosc1")
	src, err := os.ReadFile(filepath.Join(dir, "src.bin"))
	if err != nil {
		t.Fatal(err)
	}
	mb, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		File     string `json:"file"`
		CName    string `json:"cname"`
		Shuffle  int    `json:"shuffle"`
		TypeSize int    `json:"typesize"`
		Level    int    `json:"clevel"`
	}
	if err := json.Unmarshal(mb, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("%d vectors", len(cases))
	}
	filters := []blosc2.FilterID{blosc2.NoFilter, blosc2.Shuffle, blosc2.BitShuffle}
	for _, c := range cases {
		theirs, err := os.ReadFile(filepath.Join(dir, c.File))
		if err != nil {
			t.Fatal(err)
		}
		got, err := blosc2.Decompress(nil, theirs, nil)
		if err != nil || !bytes.Equal(got, src) {
			t.Errorf("%s: decoding C's chunk: %v", c.File, err)
		}
		h, err := blosc2.ParseHeader(theirs)
		if want := strings.Replace(c.CName, "lz4hc", "lz4", 1); err != nil || codec.Name(h.Codec) != want {
			t.Errorf("%s: parses as codec %s (%v), want %s", c.File, codec.Name(h.Codec), err, want)
		}
		id, ok := codec.ByName(c.CName)
		if !ok {
			t.Fatalf("%s: no codec %s", c.File, c.CName)
		}
		p := blosc2.CParams{Codec: id, Level: c.Level, TypeSize: c.TypeSize, Format: blosc2.ChunkBlosc1,
			Filters: blosc2.Pipeline(blosc2.Filter{ID: filters[c.Shuffle]})}
		ours, err := blosc2.Compress(nil, src, &p)
		if err != nil {
			t.Fatal(err)
		}
		if id == blosc2.BloscLZ || id == blosc2.LZ4 {
			if !bytes.Equal(ours, theirs) {
				t.Errorf("%s: Go's chunk (%d bytes) differs from C-Blosc 1.21's (%d)", c.File, len(ours), len(theirs))
			}
			continue
		}
		a, b := bytes.Clone(ours[:12]), bytes.Clone(theirs[:12])
		a[2] &^= 0x02 // memcpyed: the codecs differ
		b[2] &^= 0x02
		if !bytes.Equal(a, b) {
			t.Errorf("%s: header % x, C's % x", c.File, ours[:16], theirs[:16])
		}
	}
}
