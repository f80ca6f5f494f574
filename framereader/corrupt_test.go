package framereader

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// exercise opens b and reads everything it can, returning the first error.
func exercise(b []byte) error {
	dp := blosc2.DParams{MaxNbytes: 8 << 20}
	r, err := NewReaderBytes(b, WithDParams(dp))
	if err == nil {
		for i := range r.NumChunks() {
			if _, err = r.DecodeChunk(nil, i); err != nil {
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
	s, serr := NewStreamReader(bytes.NewReader(b), WithDParams(dp))
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
	sentinels := []error{blosc2.ErrHeader, blosc2.ErrCorrupt, blosc2.ErrTruncated, blosc2.ErrUnsupported,
		blosc2.ErrInvalidOption, blosc2.ErrTooLarge}
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
					ok := false
					for _, s := range sentinels {
						ok = ok || errors.Is(err, s)
					}
					if !ok {
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
