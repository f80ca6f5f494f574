package b2nd

import (
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
