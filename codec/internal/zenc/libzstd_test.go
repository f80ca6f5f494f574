package zenc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLibzstd: libzstd itself (the zstd command) decodes every frame we
// write to its input, and its own level 1 frames of the same inputs
// (C-Blosc2's clevel 1) are no smaller than ours by more than 2% where
// there is something to compress. Skipped, saying so, where the zstd
// command is missing (CI installs it).
func TestLibzstd(t *testing.T) {
	zstdCmd, err := exec.LookPath("zstd")
	if err != nil {
		t.Skip("the zstd command (libzstd) is not installed: apt-get install zstd")
	}
	dir := t.TempDir()
	var e Encoder
	for name, in := range inputs(t) {
		frame, err := e.EncodeAll(nil, in, 1)
		if err != nil {
			t.Fatal(err)
		}
		src := filepath.Join(dir, name)
		ours := src + ".ours.zst"
		if err := os.WriteFile(src, in, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ours, frame, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := exec.Command(zstdCmd, "-q", "-d", "-c", ours).Output()
		if err != nil || !bytes.Equal(got, in) {
			t.Fatalf("%s: libzstd decodes %d bytes of %d (%v)", name, len(got), len(in), err)
		}
		theirs, err := exec.Command(zstdCmd, "-q", "-1", "--no-check", "-c", src).Output()
		if err != nil {
			t.Fatalf("%s: zstd -1: %v", name, err)
		}
		t.Logf("%-8s %8d bytes: ours %8d, libzstd -1 %8d (%.4f)", name, len(in), len(frame), len(theirs), float64(len(frame))/float64(len(theirs)))
		if len(in) >= 1024 && float64(len(frame)) > 1.02*float64(len(theirs)) {
			t.Errorf("%s: %d bytes, libzstd -1 %d: over 1.02×", name, len(frame), len(theirs))
		}
	}
}
