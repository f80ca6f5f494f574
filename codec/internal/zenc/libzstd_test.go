package zenc

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

// TestLibzstdDecodes: libzstd itself (the zstd command) decodes every
// frame we write, at every level, to its input; and at level 1, whose
// algorithm libzstd has kept since 1.5.1, its frames are no smaller than
// ours by more than 2% where there is something to compress. Skipped,
// saying so, where the zstd command is missing (CI installs it).
func TestLibzstdDecodes(t *testing.T) {
	zstdCmd, err := exec.LookPath("zstd")
	if err != nil {
		t.Skip("the zstd command (libzstd) is not installed: apt-get install zstd")
	}
	dir := t.TempDir()
	var e Encoder
	eachFrame(t, &e, func(name string, level int, in, frame []byte) {
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
			t.Fatalf("level %d %s: libzstd decodes %d bytes of %d (%v)", level, name, len(got), len(in), err)
		}
		if level != 1 {
			return
		}
		theirs, err := exec.Command(zstdCmd, "-q", "-1", "--no-check", "-c", src).Output()
		if err != nil {
			t.Fatalf("%s: zstd -1: %v", name, err)
		}
		if len(in) >= 1024 && float64(len(frame)) > 1.02*float64(len(theirs)) {
			t.Errorf("level 1 %s: %d bytes, libzstd %d: over 1.02×", name, len(frame), len(theirs))
		}
	})
}

// goldenSizes is where TestLibzstdSizes keeps the sizes of libzstd
// 1.5.6's frames of the test inputs (the zstd command of that version,
// at each level, --no-check): the libzstd C-Blosc2 3.3.2 bundles. From
// 1.5.5 on, its lazy levels stop inserting every position over data
// that does not match, so the zstd of older systems is not the
// reference for them.
const goldenSizes = "testdata/libzstd-1.5.6-sizes.txt"

// TestLibzstdSizes: our frames of the test inputs are at most 2% larger
// than libzstd 1.5.6's at the same level, where there is something to
// compress. With ZENC_ZSTD156 naming a zstd 1.5.6 command, it rewrites
// the golden sizes from it instead.
func TestLibzstdSizes(t *testing.T) {
	in := inputs(t)
	if cmd := os.Getenv("ZENC_ZSTD156"); cmd != "" {
		writeGolden(t, cmd, in)
	}
	var e Encoder
	checked := 0
	for _, g := range readGolden(t) {
		src, ok := in[g.name]
		if !ok {
			t.Fatalf("%s names an input %q the test no longer has", goldenSizes, g.name)
		}
		if !slices.Contains(testLevels(), g.level) {
			continue
		}
		frame, ok := encode(t, &e, src, g.level)
		if !ok {
			continue
		}
		checked++
		if len(src) >= 1024 && float64(len(frame)) > 1.02*float64(g.size) {
			t.Errorf("level %d %s: %d bytes, libzstd 1.5.6 %d: over 1.02×", g.level, g.name, len(frame), g.size)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d frames checked", checked)
	}
}

// golden is a line of goldenSizes: libzstd 1.5.6's frame of an input
// at a level is size bytes.
type golden struct {
	level int
	name  string
	size  int
}

func readGolden(t *testing.T) []golden {
	f, err := os.Open(goldenSizes)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var gs []golden
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var g golden
		if _, err := fmt.Sscan(sc.Text(), &g.level, &g.name, &g.size); err != nil {
			t.Fatalf("%s: %q: %v", goldenSizes, sc.Text(), err)
		}
		gs = append(gs, g)
	}
	return gs
}

func writeGolden(t *testing.T, cmd string, in map[string][]byte) {
	dir := t.TempDir()
	names := make([]string, 0, len(in))
	for name := range in {
		names = append(names, name)
	}
	sort.Strings(names)
	var out bytes.Buffer
	for _, level := range levels {
		for _, name := range names {
			src := filepath.Join(dir, name)
			if err := os.WriteFile(src, in[name], 0o644); err != nil {
				t.Fatal(err)
			}
			frame, err := exec.Command(cmd, "-q", fmt.Sprintf("-%d", level), "--no-check", "-c", src).Output()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%d %s %d\n", level, name, len(frame))
		}
	}
	if err := os.WriteFile(goldenSizes, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
