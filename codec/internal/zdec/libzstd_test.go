package zdec

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLibzstdFrames: frames written by libzstd itself (the zstd command,
// as C-Blosc2 and C-Blosc 1.x write theirs) at levels 1 to 22, without a
// checksum, decode to their input. libzstd's encoder uses what
// klauspost's does not (treeless literals, repeated FSE tables, RLE
// symbol modes, its own block splitting), so this is the independent
// check. Skipped, saying so, where the zstd command is missing (CI
// installs it).
func TestLibzstdFrames(t *testing.T) {
	zstdCmd, err := exec.LookPath("zstd")
	if err != nil {
		t.Skip("the zstd command (libzstd) is not installed: apt-get install zstd")
	}
	dir := t.TempDir()
	var d Decoder
	for name, in := range inputs() {
		if len(in) == 0 {
			continue
		}
		src := filepath.Join(dir, name)
		if err := os.WriteFile(src, in, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, level := range []int{1, 3, 5, 9, 13, 19, 22} {
			out := filepath.Join(dir, fmt.Sprintf("%s.%d.zst", name, level))
			args := []string{"-q", "-f", "--no-check", "-o", out, src}
			if level > 19 {
				args = append([]string{"--ultra"}, args...)
			}
			args = append([]string{fmt.Sprintf("-%d", level)}, args...)
			if msg, err := exec.Command(zstdCmd, args...).CombinedOutput(); err != nil {
				t.Fatalf("zstd -%d %s: %v\n%s", level, name, err, msg)
			}
			frame, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(in))
			if err := d.DecodeAll(got, frame); err != nil {
				t.Fatalf("%s at libzstd level %d: %v", name, level, err)
			}
			if !bytes.Equal(got, in) {
				t.Fatalf("%s at libzstd level %d: output differs", name, level)
			}
		}
	}
}
