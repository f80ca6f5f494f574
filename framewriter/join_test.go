package framewriter

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// sine is n float64 samples of a slow sine: typed data that compresses.
func sine(n int, phase float64) []byte {
	b := make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(math.Sin(phase+float64(i)/300)))
	}
	return b
}

// TestJoin joins a patched frame (zstd, typesize 4, metalayer,
// vlmetalayers), an unpatched one written to a pipe (LZ4, a zero special
// chunk, a disagreeing vlmetalayer), an empty frame and a frame C-Blosc2
// wrote, and checks the result with our reader and with C-Blosc2 3.3.2
// when it is present. The multi-frame input is refused by Repair and
// RepairFile, which would otherwise fix only its first frame.
func TestJoin(t *testing.T) {
	dir := t.TempDir()
	a, b := sine(30000, 0), sine(20000, 1)
	var want []byte

	pa := filepath.Join(dir, "a.b2frame")
	cp := blosc2.DefaultCParams()
	cp.Codec, cp.TypeSize = blosc2.Zstd, 4
	w, err := Create(pa, WithCParams(cp), WithMetalayer("m1", []byte{1, 2, 3}),
		WithVLMetalayer("v", []byte("same")), WithVLMetalayer("w", []byte("first")), WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(a); i += 50000 {
		if err := w.WriteChunk(a[i:min(i+50000, len(a))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want = append(want, a...)
	fa, _ := os.ReadFile(pa)

	var pipe bytes.Buffer
	cp.Codec, cp.TypeSize = blosc2.LZ4, 8
	w, err = NewWriter(struct{ *bytes.Buffer }{&pipe}, WithCParams(cp), WithVLMetalayer("v", []byte("same")), WithVLMetalayer("w", []byte("second")))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(b[:80000]); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteSpecial(blosc2.SpecialZero, 80000, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(b[80000:]); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want = append(append(append(want, b[:80000]...), make([]byte, 80000)...), b[80000:]...)

	var empty bytes.Buffer
	w, _ = NewWriter(struct{ *bytes.Buffer }{&empty})
	w.Close()

	var cv testvec.Vector
	for _, v := range testvec.Kind(t, "cframe") {
		if v.RawLen > 0 && len(v.Params.VLBlocks) == 0 && len(v.Params.Specials) == 0 && !strings.Contains(v.File, "vlblocks") {
			cv = v
			break
		}
	}
	cframe := cv.Read(t)
	cr, err := framereader.NewReaderBytes(cframe)
	if err != nil {
		t.Fatal(err)
	}
	craw := make([]byte, cr.Size())
	if _, err := cr.ReadAt(craw, 0); err != nil || testvec.SHA256(craw) != cv.RawSHA256 {
		t.Fatalf("%s: %v", cv.File, err)
	}
	want = append(want, craw...)

	cat := slices.Concat(fa, pipe.Bytes(), empty.Bytes(), cframe)
	in := filepath.Join(dir, "cat.b2frame")
	os.WriteFile(in, cat, 0o644)

	if err := RepairFile(in); !errors.Is(err, blosc2.ErrUnsupported) {
		t.Fatalf("RepairFile of 4 frames: %v", err)
	}
	out := filepath.Join(dir, "out.b2frame")
	f, _ := os.Create(out)
	if err := Repair(f, bytes.NewReader(cat)); !errors.Is(err, blosc2.ErrUnsupported) {
		t.Fatalf("Repair of 4 frames: %v", err)
	}
	f.Close()

	f, _ = os.Create(out)
	rep, err := Join(f, bytes.NewReader(cat), int64(len(cat)))
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Frames != 4 || rep.Nbytes != int64(len(want)) || !slices.Equal(rep.DroppedVLMeta, []string{"w"}) {
		t.Fatalf("report %+v", rep)
	}
	r, err := framereader.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := make([]byte, r.Size())
	if _, err := r.ReadAt(got, 0); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("joined frame decodes to %d bytes (%v), want %d", len(got), err, len(want))
	}
	if r.Info().Unpatched || r.Info().TypeSize != 4 || r.Info().Codec != blosc2.Zstd {
		t.Fatalf("joined header %+v", r.Info())
	}
	if m, ok := r.Metalayer("m1"); !ok || !bytes.Equal(m, []byte{1, 2, 3}) {
		t.Fatal("metalayer of the first frame lost")
	}
	if v, err := r.VLMetalayer("v"); err != nil || string(v) != "same" {
		t.Fatalf("vlmetalayer v: %q %v", v, err)
	}
	if _, err := r.VLMetalayer("w"); err == nil {
		t.Fatal("disagreeing vlmetalayer kept")
	}
	if _, err := os.Stat(b2cPath()); err != nil {
		t.Skipf("C-Blosc2 reference CLI not found (%s): the joined frame was checked by this package only", b2cPath())
	}
	info, _ := cCheck(t, out, want, false)
	if info.Nbytes != int64(len(want)) || len(info.Metalayers) != 1 || len(info.VLMetalayers) != 2 || // v, the checksums
		info.VLMetalayers[0].Hex != hex.EncodeToString([]byte("same")) {
		t.Fatalf("C-Blosc2 sees %+v", info)
	}
}
