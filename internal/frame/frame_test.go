package frame

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func defaultHeader() Header {
	return Header{GeneralFlags: 0x12, CodecFlags: 0x50, OtherFlags: 3, TypeSize: 4, ChunkSize: -1,
		TComp: 1, TDecomp: 1, NFilters: 6, Filters: [6]uint8{0, 0, 0, 0, 0, 1}}
}

// TestEmptyFrameBytes reproduces the 132-byte empty frame C-Blosc2 3.3.2
// writes (layout: README_CFRAME_FORMAT.rst).
func TestEmptyFrameBytes(t *testing.T) {
	want := unhex(t, `9e a8 62 32 66 72 61 6d 65 00 d2 00 00 00 61 cf 00 00 00 00 00 00 00 84
		a4 12 00 50 03 d3 00 00 00 00 00 00 00 00 d3 00 00 00 00 00 00 00 00
		d2 00 00 00 04 d2 00 00 00 00 d2 ff ff ff ff d1 00 01 d1 00 01 c2
		d8 06 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00
		93 cd 00 07 de 00 00 dc 00 00
		94 01 93 cd 00 06 de 00 00 dc 00 00 ce 00 00 00 23 d8 00`+strings.Repeat(" 00", 16))
	h := defaultHeader()
	h.FrameLen = 132
	got := AppendTrailer(h.Append(nil), nil, Fingerprint{})
	if !bytes.Equal(got, want) {
		t.Fatalf("empty frame:\n got % x\nwant % x", got, want)
	}
	p, err := ParseFixed(got)
	if err != nil {
		t.Fatal(err)
	}
	if err := ParseMetalayers(&p, got); err != nil {
		t.Fatal(err)
	}
	p.Metalayers = nil
	h.HeaderLen = 97
	h.Metalayers = nil
	if !reflect.DeepEqual(p, h) {
		t.Fatalf("parsed %+v\nwant %+v", p, h)
	}
}

// TestMetalayerBytes reproduces a metalayer section as C-Blosc2 3.3.2
// writes it (README_CFRAME_FORMAT.rst).
func TestMetalayerBytes(t *testing.T) {
	h := defaultHeader()
	h.Metalayers = []Metalayer{{Name: "abc", Content: []byte{0x93, 1, 2, 3, 0xa1}}}
	b := h.Append(nil)
	want := unhex(t, `93 cd 00 10 de 00 01 a3 61 62 63 d2 00 00 00 6a dc 00 01 c6 00 00 00 05 93 01 02 03 a1`)
	if h.HeaderLen != 116 || len(b) != 116 || !bytes.Equal(b[87:], want) {
		t.Fatalf("header_len %d, meta % x", h.HeaderLen, b[87:])
	}
	var p Header
	p.HeaderLen = 116
	if err := ParseMetalayers(&p, b); err != nil || p.Metalayers[0].Offset != 106 || !bytes.Equal(p.Metalayers[0].Content, h.Metalayers[0].Content) {
		t.Fatalf("parsed %+v %v", p.Metalayers, err)
	}
}

// TestTrailerBytes reproduces a trailer as C-Blosc2 3.3.2 writes it
// (README_CFRAME_FORMAT.rst).
func TestTrailerBytes(t *testing.T) {
	p := blosc2.DefaultCParams()
	c, err := blosc2.Compress(nil, []byte("hello\x00"), &p)
	if err != nil {
		t.Fatal(err)
	}
	tr := AppendTrailer(nil, []VLMeta{{Name: "vlm", Chunk: c}}, Fingerprint{})
	want := unhex(t, `94 01 93 cd 00 0f de 00 01 a3 76 6c 6d d2 00 00 00 15 dc 00 01 c6 00 00 00 26
		05 01 07 08 06 00 00 00 01 00 00 00 26 00 00 00`)
	if len(tr) != 87 || !bytes.HasPrefix(tr, want) {
		t.Fatalf("trailer % x", tr)
	}
	if n, err := TrailerLenAt(tr); err != nil || n != 87 {
		t.Fatalf("trailer_len %d %v", n, err)
	}
	vl, err := ParseTrailer(tr)
	if err != nil || len(vl) != 1 || vl[0].Name != "vlm" || !bytes.Equal(vl[0].Chunk, c) {
		t.Fatalf("parsed %v %v", vl, err)
	}
	rt, err := ReadTrailer(bytes.NewReader(append(bytes.Clone(tr), 1, 2, 3)), -1)
	if err != nil || !bytes.Equal(rt, tr) {
		t.Fatalf("ReadTrailer %v", err)
	}
	for cut := range len(tr) {
		if _, err := ReadTrailer(bytes.NewReader(tr[:cut]), -1); err == nil {
			t.Fatalf("ReadTrailer of %d bytes succeeded", cut)
		}
	}
	// A vlmetalayer that declares 4 GiB, read from a stream of unknown
	// length: what is allocated follows the bytes that arrive (at most
	// exactAlloc ahead), and the trailer is truncated.
	huge := bytes.Clone(tr)
	copy(huge[21:], []byte{0xc6, 0xff, 0xff, 0xff, 0xf0})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = ReadTrailer(bytes.NewReader(huge), -1)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, blosc2.ErrTruncated) {
		t.Fatalf("4 GiB vlmetalayer value: %v", err)
	}
	// TotalAlloc counts the whole process (tests running in parallel,
	// the race detector's runs): the bound is loose, but 4 GiB, or a
	// step of 256 MiB, passes it.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8*exactAlloc {
		t.Fatalf("4 GiB vlmetalayer value: %d bytes allocated for a %d-byte trailer", grew, len(huge))
	}
}

// TestIndexBytes reproduces a 3-entry index as C-Blosc2 3.3.2 writes it
// (README_CFRAME_FORMAT.rst) and one with a special entry.
func TestIndexBytes(t *testing.T) {
	b, err := AppendIndex(nil, []int64{0, 355, 758})
	if err != nil {
		t.Fatal(err)
	}
	want := unhex(t, `05 01 07 08 18 00 00 00 18 00 00 00 38 00 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00
		00 00 00 00 00 00 00 00 63 01 00 00 00 00 00 00 f6 02 00 00 00 00 00 00`)
	if !bytes.Equal(b, want) {
		t.Fatalf("index % x", b)
	}
	if e := SpecialEntry(blosc2.SpecialZero); uint64(e) != 0x8100000000000000 || EntryKind(e) != blosc2.SpecialZero {
		t.Fatalf("zero entry %#x", uint64(e))
	}
	x, err := DecodeIndex(b, 3, 0)
	if err != nil || !reflect.DeepEqual(x.Entries(), []int64{0, 355, 758}) {
		t.Fatalf("decoded %v %v", x.Entries(), err)
	}
	if _, err := DecodeIndex(b, 4, 0); !errors.Is(err, blosc2.ErrCorrupt) {
		t.Fatalf("wrong count accepted: %v", err)
	}
	r, err := AppendRepeatIndex(nil, 13, SpecialEntry(blosc2.SpecialZero))
	if err != nil || len(r) != 40 {
		t.Fatal(err)
	}
	x, err = DecodeIndex(r, 13, 0)
	if err != nil || !x.Repeated() || x.At(12) != SpecialEntry(blosc2.SpecialZero) {
		t.Fatalf("repeated index: %v", err)
	}
	// A big index decodes in steps.
	big := make([]int64, 300000)
	for i := range big {
		big[i] = int64(i) * 40
	}
	b, _ = AppendIndex(nil, big)
	x, err = DecodeIndex(b, -1, 0)
	if err != nil || !reflect.DeepEqual(x.Entries(), big) {
		t.Fatalf("big index: %v", err)
	}
	// The caller's cap: 2.4 MB of entries against 1 MiB allowed.
	if _, err := DecodeIndex(b, -1, 1<<20); !errors.Is(err, blosc2.ErrTooLarge) {
		t.Fatalf("index over the cap: %v", err)
	}
	// Steps hold whole entries whatever the index chunk's typesize.
	raw := make([]byte, 8*len(big))
	for i, e := range big {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(e))
	}
	for _, ts := range []int{1, 3, 7, 12} {
		p := IndexCParams()
		p.TypeSize = ts
		c, err := blosc2.Compress(nil, raw, &p)
		if err != nil {
			t.Fatal(err)
		}
		if x, err := DecodeIndex(c, -1, 0); err != nil || !reflect.DeepEqual(x.Entries(), big) {
			t.Fatalf("typesize %d index: %v", ts, err)
		}
	}
}

// TestSizes follows C-Blosc2's chunk-size rule.
func TestSizes(t *testing.T) {
	for _, tc := range []struct {
		sizes []int32
		cs    int32
		flags uint8
	}{
		{nil, -1, 0x12},
		{[]int32{100}, 100, 0x12},
		{[]int32{100, 100, 40}, 100, 0x12},
		{[]int32{100, 40, 100}, 0, 0x53},
		{[]int32{100, 200}, 0, 0x53},
		{[]int32{40, 100}, 0, 0x53},
	} {
		s := NewSizes()
		for _, n := range tc.sizes {
			s.Add(n)
		}
		if s.ChunkSize != tc.cs || s.GeneralFlags() != tc.flags {
			t.Errorf("%v: chunksize %d flags %#x, want %d %#x", tc.sizes, s.ChunkSize, s.GeneralFlags(), tc.cs, tc.flags)
		}
	}
}

// TestSizesAddRepeated: AddRepeated(v, k) leaves the counters as k calls
// of Add(v) do, after any earlier chunks.
func TestSizesAddRepeated(t *testing.T) {
	values := []int32{0, 40, 100, 200}
	for _, before := range [][]int32{nil, {100}, {40}, {100, 100}, {100, 40}, {200, 100}} {
		for _, v := range values {
			for k := range 6 {
				want, got := NewSizes(), NewSizes()
				for _, n := range before {
					want.Add(n)
					got.Add(n)
				}
				for range k {
					want.Add(v)
				}
				got.AddRepeated(v, k)
				if got != want {
					t.Errorf("after %v, %d× %d: %+v, want %+v", before, k, v, got, want)
				}
			}
		}
	}
	s := NewSizes()
	s.AddRepeated(8, MaxChunks)
	if s.N != MaxChunks || s.Nbytes != 8*int64(MaxChunks) || s.ChunkSize != 8 {
		t.Errorf("%d chunks of 8 bytes: %+v", MaxChunks, s)
	}
}

// TestDecodeMsgpack decodes every msgpack type and refuses bad input.
func TestDecodeMsgpack(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any
	}{
		{"c0", nil}, {"c3", true}, {"05", int64(5)}, {"ff", int64(-1)}, {"cc ff", int64(255)},
		{"cf ff ff ff ff ff ff ff ff", uint64(math.MaxUint64)}, {"d3 80 00 00 00 00 00 00 00", int64(math.MinInt64)},
		{"d1 ff fe", int64(-2)}, {"ca 3f 80 00 00", float32(1)}, {"cb 3f f0 00 00 00 00 00 00", 1.0},
		{"a3 61 62 63", "abc"}, {"c4 02 01 02", []byte{1, 2}}, {"92 01 a1 78", []any{int64(1), "x"}},
		{"81 a1 61 01", map[string]any{"a": int64(1)}}, {"81 01 02", map[any]any{int64(1): int64(2)}},
		{"d4 05 09", Ext{Type: 5, Data: []byte{9}}},
		// The b2nd metalayer of a C-Blosc2 vector.
		{"97000191d300000000000003e891d20000012c91d20000004600db000000033c6638", []any{int64(0), int64(1), []any{int64(1000)}, []any{int64(300)}, []any{int64(70)}, int64(0), "<f8"}},
	} {
		got, err := DecodeMsgpack(unhex(t, tc.in))
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v %v, want %#v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "c1", "92 01", "a3 61", "dd ff ff ff ff", "01 02", "81 92 01 02 03", strings.Repeat("91 ", 100) + "01"} {
		if _, err := DecodeMsgpack(unhex(t, bad)); !errors.Is(err, blosc2.ErrCorrupt) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// FuzzDecodeMsgpack checks that no input panics or allocates beyond its size.
func FuzzDecodeMsgpack(f *testing.F) {
	f.Add([]byte{0x92, 0x01, 0xa1, 0x78})
	f.Add([]byte{0xdd, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		DecodeMsgpack(b)
		ParseTrailer(b)
		ReadTrailer(bytes.NewReader(b), int64(len(b)))
		if h, err := ParseFixed(b); err == nil {
			ParseMetalayers(&h, b)
		}
	})
}

// TestLossyMark: the int64 -2 as the unpatched header's nbytes field.
func TestLossyMark(t *testing.T) {
	want := []byte{0xD3, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE}
	if got := LossyMark(); !bytes.Equal(got, want) {
		t.Fatalf("LossyMark() = % x, want % x", got, want)
	}
}
