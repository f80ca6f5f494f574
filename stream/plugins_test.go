package stream

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2/internal/testvec"
)

// Frames of b2nd arrays whose chunks need the block shape (ZFP, NDLZ,
// NDCELL, NDMEAN) read through a Reader, front to back from a plain
// io.Reader (one and two goroutines) and through ReadAt on a file, giving
// the chunks' bytes exactly as C-Blosc2 decodes them (b2c
// decompress-frame). Skipped without the C build.
func TestPluginFramesAgainstC(t *testing.T) {
	b2c := testvec.B2C(t)
	dir := t.TempDir()
	for i, v := range testvec.LoadPlugins(t) {
		if testing.Short() && i%3 != 0 {
			continue
		}
		out := filepath.Join(dir, "c.raw")
		if msg, err := exec.Command(b2c, "decompress-frame", v.Path(), out).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v: %s", v.File, err, msg)
		}
		want, _ := os.ReadFile(out)
		b, err := os.ReadFile(v.Path())
		if err != nil {
			t.Fatal(err)
		}
		for _, conc := range []int{1, 2} {
			r, err := NewReader(bytes.NewReader(b), WithReaderConcurrency(conc))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(struct{ io.Reader }{r})
			r.Close()
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s, %d goroutines: %d bytes, %v; C decodes %d", v.File, conc, len(got), err, len(want))
			}
		}
		f, err := os.Open(v.Path())
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(want)/3)
		if _, err := r.ReadAt(got, int64(len(want)/2)); err != nil && err != io.EOF {
			t.Fatalf("%s: ReadAt: %v", v.File, err)
		}
		if !bytes.Equal(got, want[len(want)/2:len(want)/2+len(got)]) {
			t.Fatalf("%s: ReadAt differs from C's decode", v.File)
		}
		r.Close()
		f.Close()
	}
}
