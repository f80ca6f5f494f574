//go:build unix

package framewriter

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/hostile/traps"
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
	for _, c := range traps.Sparse() {
		dir := make3(c.Name)
		if err := read(dir); err != nil {
			t.Fatalf("%s before planting: %v", c.Name, err)
		}
		if err := c.Plant(dir, outside); err != nil {
			t.Fatal(err)
		}
		if err := read(dir); !errors.Is(err, blosc2.ErrUnsupported) {
			t.Fatalf("%s: %v, want a refusal", c.Name, err)
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

	// Hard links where Append writes: its next chunk, and the index it
	// rewrites. Append writes new files and renames them into place, so
	// the linked files keep their bytes. (Reading through a hard link is
	// not refused: backups made with cp -al or rsnapshot are hard links.)
	dir = make3("append-hard")
	victim2 := filepath.Join(root, "victim2.txt")
	os.WriteFile(victim2, []byte("precious too"), 0o644)
	if err := os.Link(victim2, filepath.Join(dir, frame.ChunkFileName(3))); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, frame.SparseIndexName)
	indexBytes, _ := os.ReadFile(index)
	linkedIndex := filepath.Join(root, "index-copy")
	os.WriteFile(linkedIndex, indexBytes, 0o644)
	os.Remove(index)
	if err := os.Link(linkedIndex, index); err != nil {
		t.Fatal(err)
	}
	if w, err = Append(dir, WithoutSync()); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteChunk(sine(5000, 9)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim2); !bytes.Equal(b, []byte("precious too")) {
		t.Fatal("Append wrote through a hard-linked chunk file")
	}
	if b, _ := os.ReadFile(linkedIndex); !bytes.Equal(b, indexBytes) {
		t.Fatal("Append rewrote a hard-linked index in place")
	}
	if err := read(dir); err != nil {
		t.Fatalf("after Append over hard links: %v", err)
	}
}
