package b2nd

import (
	"errors"
	"os"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// Every array C-Blosc2 3.3.2 wrote with a plugin codec (ZFP in its three
// modes, NDLZ) or filter (NDCELL, NDMEAN, INT_TRUNC) decodes to exactly the
// bytes C-Blosc2 decodes it to, with one goroutine and with three.
func TestPluginVectors(t *testing.T) {
	for _, v := range testvec.LoadPlugins(t) {
		t.Run(v.File, func(t *testing.T) {
			for _, threads := range []int{1, 3} {
				a, err := Open(v.Path(), WithDParams(blosc2.DParams{Threads: threads}))
				if err != nil {
					t.Fatal(err)
				}
				all, err := a.ReadAll(nil)
				a.Close()
				if err != nil {
					t.Fatalf("threads %d: %v", threads, err)
				}
				if len(all) != v.RawLen || testvec.SHA256(all) != v.RawSHA256 {
					t.Fatalf("threads %d: %d bytes, digest %s, want %d bytes, C's %s", threads, len(all), testvec.SHA256(all), v.RawLen, v.RawSHA256)
				}
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
		a, err := NewReaderBytes(b, WithDParams(blosc2.DParams{MaxNbytes: 1 << 20}))
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

func knownErr(err error) bool {
	for _, s := range []error{blosc2.ErrHeader, blosc2.ErrCorrupt, blosc2.ErrTruncated, blosc2.ErrUnsupported,
		blosc2.ErrInvalidOption, blosc2.ErrTooLarge, blosc2.ErrChecksum} {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
