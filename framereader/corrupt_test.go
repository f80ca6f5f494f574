package framereader

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/errs"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// exercise opens b and reads everything it can, returning the first error.
func exercise(b []byte) error {
	dp := blosc2.DParams{MaxMemory: 8 << 20}
	r, err := NewReaderBytes(b, WithMaxMemory(dp.MaxMemory))
	if err == nil {
		// A few hundred bytes can declare a million chunks of zeros
		// (a run in the index): decoding them is work in proportion to
		// the output, not a hang, so the harness stops at 64 MiB.
		decoded := 0
		for i := range r.NumChunks() {
			var out []byte
			if out, err = r.DecodeChunk(nil, i); err != nil {
				break
			}
			if decoded += len(out); decoded > 64<<20 {
				break
			}
			if _, err = r.ChunkInfo(i); err != nil {
				break
			}
		}
		if err == nil && r.Size() < 64<<20 {
			p := make([]byte, r.Size())
			if _, err = r.ReadAt(p, 0); err == io.EOF {
				err = nil
			}
		}
		for _, n := range r.VLMetalayerNames() {
			r.VLMetalayer(n)
		}
	}
	s, serr := NewChunkReader(bytes.NewReader(b), WithMaxMemory(dp.MaxMemory))
	if serr == nil {
		for {
			if _, serr = s.Next(); serr != nil {
				break
			}
		}
	}
	return err
}

// TestCorruptFields damages every byte of the header, of the index and
// of the trailer of several C-Blosc2 frames, one at a time and in several
// ways, and checks that reading them gives errors (wrapping the module's
// sentinels) or correct data, never a panic, and that no attempt allocates
// far more than the input justifies.
func TestCorruptFields(t *testing.T) {
	files := map[string]bool{
		"frames/fr-blosclz-meta.b2frame": true, "frames/fr-varchunks-lz4.b2frame": true,
		"frames/fr-special-append-blosclz.b2frame": true, "frames/fr-fill-zeros-blosclz.b2frame": true,
		"frames/fr-lz4-empty.b2frame": true, "frames/fr-zstd-ts7.b2frame": true,
	}
	tried := 0
	for _, v := range testvec.Kind(t, "cframe") {
		if !files[v.File] {
			continue
		}
		orig := v.Read(t)
		r, err := NewReaderBytes(orig)
		if err != nil {
			t.Fatal(err)
		}
		in := r.Info()
		idxStart := in.HeaderLen + int(in.Cbytes)
		tl := int(binary.BigEndian.Uint32(orig[len(orig)-22:]))
		// Positions: the header, the index chunk's header and the trailer.
		var pos []int
		for p := range in.HeaderLen {
			pos = append(pos, p)
		}
		if in.Nbytes > 0 {
			for p := idxStart; p < min(idxStart+48, len(orig)-tl); p++ {
				pos = append(pos, p)
			}
		}
		for p := len(orig) - tl; p < len(orig); p++ {
			pos = append(pos, p)
		}
		var ms runtime.MemStats
		for k, p := range pos {
			if testing.Short() && k%4 != 0 {
				continue
			}
			for _, f := range []func(byte) byte{
				func(byte) byte { return 0 }, func(byte) byte { return 0xFF },
				func(x byte) byte { return x ^ 0x80 }, func(x byte) byte { return x + 1 },
				func(x byte) byte { return x ^ 0x7F },
			} {
				b := bytes.Clone(orig)
				b[p] = f(b[p])
				if bytes.Equal(b, orig) {
					continue
				}
				runtime.ReadMemStats(&ms)
				before := ms.TotalAlloc
				err := exercise(b)
				runtime.ReadMemStats(&ms)
				if alloc := ms.TotalAlloc - before; alloc > 64<<20+uint64(100*len(b))+uint64(8*in.Nbytes) {
					t.Errorf("%s byte %d: %d bytes allocated", v.File, p, alloc)
				}
				if err != nil {
					if !errs.IsBadInput(err) {
						t.Errorf("%s byte %d: error wraps no sentinel: %v", v.File, p, err)
					}
				}
				tried++
			}
		}
	}
	t.Logf("%d corrupted frames read without a panic", tried)
}

// FuzzReader feeds arbitrary bytes to every reader.
func FuzzReader(f *testing.F) {
	for _, v := range testvec.Kind(f, "cframe") {
		if b := v.Read(f); len(b) < 4096 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		exercise(b)
	})
}

// FuzzSparseIndex fuzzes the index file of a sparse frame (chunks.b2frame)
// over real chunk files: the index is copied from an sframe vector and
// mutated, then the directory is opened and every chunk decoded.
func FuzzSparseIndex(f *testing.F) {
	var dir string
	for _, v := range testvec.Kind(f, "sframe") {
		if dir == "" {
			dir = v.Path()
		}
		if b, err := os.ReadFile(filepath.Join(v.Path(), "chunks.b2frame")); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, index []byte) {
		tmp := t.TempDir()
		files, _ := filepath.Glob(filepath.Join(dir, "*.chunk"))
		for _, src := range files {
			if err := os.Symlink(src, filepath.Join(tmp, filepath.Base(src))); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(tmp, "chunks.b2frame"), index, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Open(tmp, WithMaxMemory(8<<20))
		if err != nil {
			return
		}
		defer r.Close()
		for i := range min(r.NumChunks(), 64) {
			if _, err := r.DecodeChunk(nil, i); err != nil {
				break
			}
		}
	})
}

// FuzzOldFormats fuzzes the beta-era frame and the packed super-chunk
// readers, seeded with the frames built by hand from the old layouts.
func FuzzOldFormats(f *testing.F) {
	raws := [][]byte{oldData(3000, 1), oldData(3000, 2), oldData(1000, 3)}
	f.Add(betaFrame(f, raws, 3000, []byte("usermeta")))
	f.Add(packedSchunk(f, raws, nil))
	f.Add(packedSchunk(f, raws, oldData(3000, 1)))
	f.Fuzz(func(t *testing.T, b []byte) {
		exercise(b)
	})
}
