package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framewriter"
	"github.com/blosc2go/blosc2/internal/errs"
	"github.com/blosc2go/blosc2/internal/hostile"
	"github.com/blosc2go/blosc2/internal/testvec"
	"github.com/blosc2go/blosc2/stream"
)

// FuzzInfo runs info (the hundred-row text form) on arbitrary bytes as a
// frame file: it never panics or hangs, and fails only with the module's
// sentinel errors. Seeds: C-Blosc2's frames, a concatenation, a frame
// recording a million zero chunks in a few hundred bytes.
func FuzzInfo(f *testing.F) {
	var small [][]byte
	for _, v := range testvec.Kind(f, "cframe") {
		if b := v.Read(f); len(b) <= 1<<14 {
			f.Add(b)
			small = append(small, b)
		}
	}
	if len(small) >= 2 {
		f.Add(append(append([]byte(nil), small[0]...), small[1]...))
	}
	a, _ := stream.EncodeAll(bytes.Repeat([]byte("abc"), 1000), nil, stream.WithChunkSize(700))
	f.Add(a)
	dir := f.TempDir()
	fill := filepath.Join(dir, "fill.b2frame")
	w, err := framewriter.Create(fill, framewriter.WithoutChecksums(), framewriter.WithoutSync())
	if err == nil && w.FillSpecial(1_000_000, blosc2.SpecialZero, 8) == nil && w.Close() == nil {
		if b, err := os.ReadFile(fill); err == nil {
			f.Add(b) // a few hundred bytes: the index is one repeated entry
		}
	}
	for _, h := range hostile.Frames(268_435_450) {
		if len(h.Data) < 64<<10 {
			f.Add(h.Data)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(dir, "f.b2frame")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		err := infoFrame(path, false, 100, io.Discard, blosc2.DParams{MaxMemory: 64 << 20})
		if err != nil && !errs.IsBadInput(err) {
			t.Fatalf("error wraps no sentinel: %v", err)
		}
	})
}
