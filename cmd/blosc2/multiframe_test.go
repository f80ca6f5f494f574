package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sh runs a shell command line with $B set to the built command, in dir.
func sh(t *testing.T, dir, line string) (string, error) {
	t.Helper()
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "B="+binPath)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestAppendAndConcatenate: the gzip habits of appending with >> and
// concatenating with cat, through a real shell and the built command:
// every day's data comes back, from the file and from a pipe; info lists
// every frame; join makes one frame that C-Blosc2 reads.
func TestAppendAndConcatenate(t *testing.T) {
	dir := t.TempDir()
	days := [][]byte{input(300000), input(5000), input(1200000)}
	var want []byte
	for i, d := range days {
		os.WriteFile(filepath.Join(dir, "day"+string(rune('0'+i))), d, 0o644)
		want = append(want, d...)
	}
	// Day 0 written to a file (patched), the others appended with >>.
	if out, err := sh(t, dir, `"$B" compress -k --chunksize 100000 day0 && mv day0.b2frame archive.b2frame &&
		"$B" compress -c --codec zstd day1 >> archive.b2frame && "$B" compress -c day2 >> archive.b2frame`); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, line := range []string{`"$B" decompress -c archive.b2frame`, `cat archive.b2frame | "$B" decompress -c`, `"$B" decompress -c < archive.b2frame`} {
		out, err := sh(t, dir, line)
		if err != nil || out != string(want) {
			t.Fatalf("%s: %d bytes of %d (%v)", line, len(out), len(want), err)
		}
	}
	// cat of two archives.
	if out, err := sh(t, dir, `cat archive.b2frame archive.b2frame | "$B" decompress -c > twice && cat archive.b2frame archive.b2frame > cat.b2frame`); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "twice")); !bytes.Equal(got, append(append([]byte(nil), want...), want...)) {
		t.Fatalf("cat a a | decompress: %d bytes", len(got))
	}
	out, err := sh(t, dir, `"$B" info --json cat.b2frame`)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var mi multiInfo
	if err := json.Unmarshal([]byte(out), &mi); err != nil || mi.NFrames != 6 || mi.Nbytes != 2*int64(len(want)) {
		t.Fatalf("info: %d frames, nbytes %d (%v)", mi.NFrames, mi.Nbytes, err)
	}
	if mi.Frames[0].Unpatched || !mi.Frames[1].Unpatched {
		t.Fatalf("info: frame 0 unpatched %v, frame 1 unpatched %v", mi.Frames[0].Unpatched, mi.Frames[1].Unpatched)
	}
	if out, err := sh(t, dir, `"$B" info cat.b2frame`); err != nil || !strings.Contains(out, "6 concatenated frames") {
		t.Fatalf("info: %v %s", err, out)
	}
	if mi.Frames[0].Checksums != "crc32c" {
		t.Fatalf("info: checksums %q", mi.Frames[0].Checksums)
	}
	// join makes one frame, which C-Blosc2 decodes (when present) and
	// repair refuses to half-repair.
	if out, err := sh(t, dir, `"$B" join -o one.b2frame cat.b2frame && "$B" info --json one.b2frame > one.json`); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var fi frameInfo
	js, _ := os.ReadFile(filepath.Join(dir, "one.json"))
	if err := json.Unmarshal(js, &fi); err != nil || fi.Nbytes != 2*int64(len(want)) || fi.Unpatched || fi.Checksums != "crc32c" {
		t.Fatalf("joined: %+v %v", fi, err)
	}
	cDecodes(t, filepath.Join(dir, "one.b2frame"), append(append([]byte(nil), want...), want...))
	if out, err := sh(t, dir, `"$B" repair cat.b2frame`); err == nil || !strings.Contains(out, "join") {
		t.Fatalf("repair of several frames: %v %s", err, out)
	}
	if out, err := sh(t, dir, `"$B" join archive.b2frame && "$B" decompress -c archive.b2frame > back`); err != nil {
		t.Fatalf("join in place: %v %s", err, out)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "back")); !bytes.Equal(got, want) {
		t.Fatalf("join in place changed the data: %d bytes", len(got))
	}
	// Trailing garbage is an error that names its offset.
	st, _ := os.Stat(filepath.Join(dir, "archive.b2frame"))
	out, err = sh(t, dir, `(cat archive.b2frame; echo junk) | "$B" decompress -c > /dev/null`)
	if err == nil || !strings.Contains(out, "offset "+itoa(st.Size())) {
		t.Fatalf("trailing junk: %v %s", err, out)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
