//go:build unix

package framewriter

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/frame"
)

// TestSparseLinks: a sparse frame directory whose index or chunk files
// are links (to /dev/zero, to a chunk outside the directory) or FIFOs is
// refused at once with an error, never read through or waited on; Append
// replaces a link planted where its next chunk goes instead of writing
// through it.
func TestSparseLinks(t *testing.T) {
	root := t.TempDir()
	make3 := func(name string) string {
		dir := filepath.Join(root, name)
		w, err := CreateSparse(dir, WithoutSync())
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := w.WriteChunk(sine(5000, float64(i))); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	outside := make3("outside")
	read := func(dir string) error {
		done := make(chan error, 1)
		go func() {
			r, err := framereader.Open(dir)
			if err == nil {
				p := make([]byte, r.Size())
				_, err = r.ReadAt(p, 0)
				r.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: reading hangs", dir)
			return nil
		}
	}
	cases := []struct {
		name  string
		plant func(dir string) error
	}{
		{"index-to-dev-zero", func(dir string) error {
			p := filepath.Join(dir, frame.SparseIndexName)
			os.Remove(p)
			return os.Symlink("/dev/zero", p)
		}},
		{"chunk-to-outside", func(dir string) error {
			p := filepath.Join(dir, frame.ChunkFileName(1))
			os.Remove(p)
			return os.Symlink(filepath.Join(outside, frame.ChunkFileName(1)), p)
		}},
		{"chunk-fifo", func(dir string) error {
			p := filepath.Join(dir, frame.ChunkFileName(2))
			os.Remove(p)
			return syscall.Mkfifo(p, 0o644)
		}},
	}
	for _, c := range cases {
		dir := make3(c.name)
		if err := read(dir); err != nil {
			t.Fatalf("%s before planting: %v", c.name, err)
		}
		if err := c.plant(dir); err != nil {
			t.Fatal(err)
		}
		if err := read(dir); !errors.Is(err, blosc2.ErrUnsupported) {
			t.Fatalf("%s: %v, want a refusal", c.name, err)
		}
	}

	// A link planted where Append writes its next chunk.
	dir := make3("append")
	victim := filepath.Join(root, "victim.txt")
	os.WriteFile(victim, []byte("precious"), 0o644)
	if err := os.Symlink(victim, filepath.Join(dir, frame.ChunkFileName(3))); err != nil {
		t.Fatal(err)
	}
	w, err := Append(dir, WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(sine(5000, 9)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); !bytes.Equal(b, []byte("precious")) {
		t.Fatal("Append wrote through a planted link")
	}
	if err := read(dir); err != nil {
		t.Fatalf("after Append: %v", err)
	}
}
