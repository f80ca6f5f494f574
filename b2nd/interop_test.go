package b2nd

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// TestCInterop writes arrays of many shapes, dtypes, chunk and block
// shapes, codecs and filters (fixed, growing, sparse, 0-d, empty) and has
// C-Blosc2 read them back with b2nd_to_cbuffer. It needs the b2c tool of
// a C-Blosc2 build, found as the other C checks find it (testvec.B2C),
// whose command "b2nd-decompress IN OUT" opens IN with b2nd_open and
// writes the C-order array; without one it skips, saying so.
func TestCInterop(t *testing.T) {
	b2c := testvec.B2C(t)
	dir := t.TempDir()
	if d := os.Getenv("B2ND_KEEP"); d != "" {
		dir = d
	}
	rng := rand.New(rand.NewPCG(11, 12))
	dtypes := []string{"|u1", "|i1", "<i2", ">i4", "<u8", "<f4", ">f8", "<c8", "<c16", "|b1", "|S5", "<U2", "<M8[ns]",
		"[('a', '<i4'), ('b', '<f8')]", "|V3"}
	codecs := []codec.ID{blosc2.BloscLZ, blosc2.LZ4, blosc2.LZ4HC, blosc2.Zlib, blosc2.Zstd}
	filters := [][]blosc2.Filter{{{ID: blosc2.Shuffle}}, {{ID: blosc2.BitShuffle}}, nil,
		{{ID: blosc2.Delta}, {ID: blosc2.Shuffle}}, {{ID: blosc2.Shuffle}, {ID: blosc2.ByteDelta}}}
	n, deltaDefect := 0, 0
	for it := range 120 {
		nd := rng.IntN(5)
		shape := make([]int64, nd)
		var cs, bs []int32
		for i := range nd {
			shape[i] = 1 + rng.Int64N(40)
			c := 1 + rng.Int32N(20)
			cs = append(cs, c)
			bs = append(bs, 1+rng.Int32N(c))
		}
		if nd > 1 && it%17 == 0 {
			shape[nd-1] = 0
		}
		dtype := dtypes[rng.IntN(len(dtypes))]
		cp := blosc2.DefaultCParams()
		cp.Codec = codecs[rng.IntN(len(codecs))]
		cp.Level = rng.IntN(10)
		cp.Filters = blosc2.Pipeline(filters[rng.IntN(len(filters))]...)
		growing := nd > 0 && it%3 == 0 && shape[nd-1] != 0
		sparse := it%5 == 0
		opts := []WriterOption{WithChunkShape(cs...), WithBlockShape(bs...), WithCParams(cp), WithSparse(sparse)}
		if it%11 == 0 {
			opts = []WriterOption{WithCParams(cp), WithSparse(sparse)}
		}
		if it%13 == 0 {
			opts = append(opts, WithMetalayer("user", []byte{0x93, 1, 2, 3}))
		}
		name := fmt.Sprintf("a%03d.b2nd", it)
		path := filepath.Join(dir, name)
		declared := shape
		if growing {
			declared = append([]int64{-1}, shape[1:]...)
		}
		w, err := Create(path, declared, dtype, opts...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		size := int64(w.spec.dtype.Size)
		for _, x := range shape {
			size *= x
		}
		arr := make([]byte, size)
		for i := range arr {
			arr[i] = byte(rng.Uint32() >> 8 & 0x7f)
		}
		if growing {
			for p := arr; len(p) > 0; p = p[w.rowBytes:] {
				if err := w.AppendRows(p[:w.rowBytes]); err != nil {
					t.Fatal(err)
				}
			}
		} else if _, err := w.Write(arr); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a, err := Open(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if own, err := a.ReadAll(nil); err != nil || !bytes.Equal(own, arr) {
			t.Fatalf("%s: we do not read back what we wrote: %v", name, err)
		}
		a.Close()
		out := path + ".out"
		cmd := exec.Command(b2c, "b2nd-decompress", path, out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s (shape %v chunks %v blocks %v %s %+v sparse %v): C-Blosc2 fails: %v\n%s",
				name, shape, cs, bs, dtype, cp, sparse, err, msg)
			continue
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if hasDelta(cp) && cCompactPath(a.g) && !bytes.Equal(got, arr) {
			// C-Blosc2 3.3.2 decodes the chunks of which a read needs at
			// most a quarter of the blocks one block at a time with
			// blosc2_getitem_bytes_ctx (b2nd.c, get_set_slice, "compact
			// get path"), which treats every block as DELTA's reference
			// block (a C-Blosc2 defect): such chunks come back wrong.
			// Its whole-chunk decoder reads the same chunks right
			// (checked with b2c decompress-frame).
			t.Logf("%s: C-Blosc2's DELTA defect on partly read chunks (expected)", name)
			deltaDefect++
			continue
		}
		if !bytes.Equal(got, arr) {
			t.Errorf("%s (shape %v chunks %v blocks %v %s %+v): C-Blosc2 reads %d bytes that differ from the %d written, first at %d",
				name, shape, cs, bs, dtype, cp, len(got), len(arr), firstDiff(got, arr))
		}
		n++
	}
	t.Logf("C-Blosc2 read back %d arrays; %d more hit its DELTA defect", n, deltaDefect)
}

func hasDelta(cp blosc2.CParams) bool {
	for _, f := range cp.Filters {
		if f.ID == blosc2.Delta {
			return true
		}
	}
	return false
}

// cCompactPath reports whether C-Blosc2, reading the whole file-backed
// array, decodes some chunk block by block (needed blocks × 4 ≤ blocks in
// a chunk) and needs a block other than block 0 there.
func cCompactPath(g *geom) bool {
	if g.nitems == 0 || g.ndim == 0 {
		return false
	}
	for k := range g.nchunks {
		c := make([]int64, g.ndim)
		lo := make([]int64, g.ndim)
		hi := make([]int64, g.ndim)
		g.chunkBox(k, c, lo, hi)
		needed := int64(1)
		for i := range g.ndim {
			needed *= (hi[i] - lo[i] + g.bs[i] - 1) / g.bs[i]
		}
		if needed*4 <= g.nblocks && needed > 1 {
			return true
		}
	}
	return false
}
