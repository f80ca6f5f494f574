package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGzipHabits: FILE → FILE.b2frame replacing FILE, -k, -f, -c, -o,
// stdin → stdout, -1…-9, and decompress back by suffix.
func TestGzipHabits(t *testing.T) {
	dir := t.TempDir()
	src := input(300000)
	file := filepath.Join(dir, "data.log")
	os.WriteFile(file, src, 0o644)

	if _, e, err := runCmd(t, nil, "compress", "-9", "--codec", "zstd", file); err != nil {
		t.Fatalf("%v %s", err, e)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatal("compress FILE kept FILE (gzip replaces it)")
	}
	frame := file + ".b2frame"
	if _, _, err := runCmd(t, nil, "decompress", "-k", frame); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file); !bytes.Equal(got, src) {
		t.Fatal("decompress FILE.b2frame did not restore FILE")
	}
	if _, err := os.Stat(frame); err != nil {
		t.Fatal("decompress -k removed the frame")
	}
	// The output exists now: refused without -f, done with -f.
	if _, _, err := runCmd(t, nil, "decompress", frame); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("overwrite without -f: %v", err)
	}
	if _, _, err := runCmd(t, nil, "decompress", "-f", frame); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(frame); !os.IsNotExist(err) {
		t.Fatal("decompress FILE.b2frame kept the frame")
	}
	// -k keeps the input; -c writes to stdout and keeps it.
	if _, _, err := runCmd(t, nil, "compress", "-k", "-1", file); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal("compress -k removed FILE")
	}
	out, _, err := runCmd(t, nil, "compress", "-c", "--codec", "lz4", file)
	if err != nil || len(out) == 0 {
		t.Fatal(err)
	}
	back, _, err := runCmd(t, []byte(out), "decompress")
	if err != nil || back != string(src) {
		t.Fatalf("stdin → stdout round trip: %v", err)
	}
	// Unknown suffix without -o or -c.
	if _, _, err := runCmd(t, nil, "decompress", file); err == nil || !strings.Contains(err.Error(), "suffix") {
		t.Fatalf("unknown suffix: %v", err)
	}
	// -o keeps the input (as zstd -o).
	o := filepath.Join(dir, "x.b2frame")
	if _, _, err := runCmd(t, nil, "compress", "-o", o, file); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatal("compress -o removed the input")
	}
}
