package b2nd

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/errs"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// Every array C-Blosc2 3.3.2 wrote with a plugin codec (ZFP in its three
// modes, NDLZ) or filter (NDCELL, NDMEAN, INT_TRUNC) decodes to exactly the
// bytes C-Blosc2 decodes it to, with one goroutine and with three.
func TestPluginVectors(t *testing.T) {
	for _, v := range testvec.LoadPlugins(t) {
		t.Run(v.File, func(t *testing.T) {
			for _, threads := range []int{1, 3} {
				a, err := Open(v.Path(), WithConcurrency(threads))
				if err != nil {
					t.Fatal(err)
				}
				all, err := a.ReadAll(nil)
				if err != nil {
					t.Fatalf("threads %d: %v", threads, err)
				}
				if len(all) != v.RawLen || testvec.SHA256(all) != v.RawSHA256 {
					t.Fatalf("threads %d: %d bytes, digest %s, want %d bytes, C's %s", threads, len(all), testvec.SHA256(all), v.RawLen, v.RawSHA256)
				}
				// Slices decode only the blocks they touch (GetItems).
				rng := rand.New(rand.NewPCG(uint64(len(v.File)), uint64(threads)))
				for range 10 {
					start, stop := randomSlice(rng, a.Shape())
					got, err := a.ReadSlice(nil, start, stop)
					if err != nil {
						t.Fatalf("slice %v-%v: %v", start, stop, err)
					}
					if !bytes.Equal(got, refSlice(all, a.Shape(), start, stop, a.ItemSize())) {
						t.Fatalf("slice %v-%v differs from the whole array", start, stop)
					}
				}
				a.Close()
			}
		})
	}
}

// FuzzPluginArrays opens damaged copies of C-Blosc2's plugin arrays (lying
// metalayers, block shapes, ZFP and NDLZ streams, filter metas) and reads
// them whole: never a panic, a hang or a runaway allocation, and every
// error wraps one of the package's sentinels. Seeds: the plugin vectors.
func FuzzPluginArrays(f *testing.F) {
	for i, v := range testvec.LoadPlugins(f) {
		if testing.Short() && i%4 != 0 {
			continue
		}
		b, err := os.ReadFile(v.Path())
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := NewReaderBytes(b, WithMaxMemory(1<<20))
		if err != nil {
			return
		}
		defer a.Close()
		if a.Info().NBytes > 1<<20 {
			return
		}
		if _, err := a.ReadAll(nil); err != nil && !knownErr(err) {
			t.Fatalf("error %v wraps no sentinel", err)
		}
	})
}

func knownErr(err error) bool { return errs.IsBadInput(err) }

// A zfp_rate array of real data (the rainfall grid) takes exactly meta % of
// the raw size per block, when the block sides are multiples of 4: every
// chunk is the header, the block starts and one stream of that size per
// block. Its zfp_acc twin keeps every value within the tolerance.
func TestZFPPromisesOnGrid(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(testvec.DataDir(), "rainfall_grid_150x150.f32.bin"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shape, cs, bs := []int64{150, 150}, []int32{64, 80}, []int32{32, 40}
	for _, pct := range []uint8{25, 50} {
		cp := blosc2.CParams{Codec: codec.ZFPRate, CodecMeta: pct, Level: 5}
		path := filepath.Join(dir, "rate.b2nd")
		if err := WriteFile(path, raw, shape, "<f4", WithChunkShape(cs...), WithBlockShape(bs...), WithCParams(cp)); err != nil {
			t.Fatal(err)
		}
		fr, err := framereader.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		nblocks := 2 * 2
		stream := 32 * 40 * 4 * int(pct) / 100
		total := 0
		for i := range fr.NumChunks() {
			c, err := fr.Chunk(i)
			if err != nil {
				t.Fatal(err)
			}
			h, err := blosc2.ParseHeader(c)
			if err != nil {
				t.Fatal(err)
			}
			// Each block is one stream: a run (a block of one value,
			// csize ≤ 0, as Blosc2 stores it whatever the codec) or ZFP's.
			zfpBlocks := 0
			for j := range h.NBlocks() {
				start := int(binary.LittleEndian.Uint32(c[blosc2.ExtendedHeaderLen+4*j:]))
				csize := int(int32(binary.LittleEndian.Uint32(c[start:])))
				switch {
				case csize == stream:
					zfpBlocks++
				case csize > 0:
					t.Errorf("zfp_rate:%d chunk %d block %d: %d-byte stream, want %d", pct, i, j, csize, stream)
				}
			}
			if h.NBlocks() != nblocks || zfpBlocks == 0 && i == 0 {
				t.Errorf("zfp_rate:%d chunk %d: %d blocks, %d coded by ZFP", pct, i, h.NBlocks(), zfpBlocks)
			}
			total += zfpBlocks
		}
		if total < 8 {
			t.Errorf("zfp_rate:%d: only %d blocks coded by ZFP", pct, total)
		}
		fr.Close()
	}
	for _, k := range []int8{-1, -2, -3} {
		cp := blosc2.CParams{Codec: codec.ZFPAccuracy, CodecMeta: uint8(k), Level: 5}
		path := filepath.Join(dir, "acc.b2nd")
		if err := WriteFile(path, raw, shape, "<f4", WithChunkShape(cs...), WithBlockShape(bs...), WithCParams(cp)); err != nil {
			t.Fatal(err)
		}
		got, _, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tol := math.Pow(10, float64(k))
		for i := 0; i < len(raw); i += 4 {
			a := math.Float32frombits(binary.LittleEndian.Uint32(raw[i:]))
			b := math.Float32frombits(binary.LittleEndian.Uint32(got[i:]))
			if math.Abs(float64(a)-float64(b)) > tol {
				t.Fatalf("zfp_acc:%d: element %d: %g decoded as %g", k, i/4, a, b)
			}
		}
	}
}
