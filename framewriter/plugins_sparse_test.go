package framewriter

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
)

// b2ndMeta1D is the b2nd metalayer of a 1-D float32 array, written out
// by hand (this package cannot import b2nd).
func b2ndMeta1D(shape int64, chunk, block int32) []byte {
	b := []byte{0x97, 0, 1, 0x91, 0xd3}
	b = binary.BigEndian.AppendUint64(b, uint64(shape))
	b = append(b, 0x91, 0xd2)
	b = binary.BigEndian.AppendUint32(b, uint32(chunk))
	b = append(b, 0x91, 0xd2)
	b = binary.BigEndian.AppendUint32(b, uint32(block))
	b = append(b, 0, 0xdb, 0, 0, 0, 3)
	return append(b, "<f4"...)
}

// A sparse frame of ZFP chunks whose appending session dies is recovered
// whole: the writers take the block shape from the frame's b2nd
// metalayer (Create and Append, no Geometry given), and recovery checks
// the orphan chunks with it. Every value stays within ZFP's tolerance.
func TestRecoverSparseZFP(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "z.b2frame")
	const block, chunk = 256, 1024
	// 10^-2; one ZFP field per b2nd block, so the Blosc block is the b2nd one.
	cp := blosc2.CParams{Codec: codec.ZFPAccuracy, CodecMeta: uint8(0xfe), Level: 5, TypeSize: 4, BlockSize: 4 * block}
	w, err := CreateSparse(dir, WithMetalayer("b2nd", b2ndMeta1D(6*chunk, chunk, block)), WithCParams(cp), WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, 4*chunk)
	var input [][]byte
	write := func(w *Writer, i int) {
		for j := range chunk {
			v := float32(100 * math.Sin(float64(i*chunk+j)/50))
			binary.LittleEndian.PutUint32(raw[4*j:], math.Float32bits(v))
		}
		if err := w.WriteChunk(raw); err != nil {
			t.Fatal(err)
		}
		input = append(input, append([]byte(nil), raw...))
	}
	for i := range 3 {
		write(w, i)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	a, err := Append(dir, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	for i := 3; i < 6; i++ {
		write(a, i)
	}
	// The session dies: no Close.
	rep, err := RecoverSparse(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Chunks != 6 {
		t.Fatalf("%d chunks recovered, want 6", rep.Chunks)
	}
	r, err := framereader.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range 6 {
		h, _ := r.ChunkInfo(i)
		got, err := r.DecodeChunk(nil, i)
		if err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		if h.Header.Codec != codec.ZFPAccuracy || h.Header.Memcpyed() {
			t.Fatalf("chunk %d: codec %d, memcpyed %v: not coded by ZFP", i, h.Header.Codec, h.Header.Memcpyed())
		}
		for j := 0; j < len(got); j += 4 {
			x := math.Float32frombits(binary.LittleEndian.Uint32(input[i][j:]))
			y := math.Float32frombits(binary.LittleEndian.Uint32(got[j:]))
			if math.Abs(float64(x-y)) > 1e-2 {
				t.Fatalf("chunk %d value %d: %g decoded as %g", i, j/4, x, y)
			}
		}
	}
}
