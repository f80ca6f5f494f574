package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compress --format blosc1 writes one C-Blosc 1.x chunk (snappy allowed),
// which info describes and decompress reads; frames refuse snappy, and
// Blosc1 refuses what it cannot express.
func TestCompressBlosc1(t *testing.T) {
	dir := t.TempDir()
	src := input(300000)
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"snappy", "lz4", "blosclz", "zstd"} {
		out := filepath.Join(dir, c+".cdata")
		if _, e, err := runCmd(t, nil, "compress", "-k", "--format", "blosc1", "--codec", c, "--typesize", "1", "-o", out, in); err != nil {
			t.Fatalf("%s: %v: %s", c, err, e)
		}
		b, err := os.ReadFile(out)
		if err != nil || len(b) < 16 || b[0] != 2 {
			t.Fatalf("%s: not a version-2 chunk: %v", c, err)
		}
		txt, _, err := runCmd(t, nil, "info", out)
		if err != nil || !strings.Contains(txt, "chunk: version 2, codec "+c+",") {
			t.Fatalf("%s: info: %v\n%s", c, err, txt)
		}
		got, e, err := runCmd(t, nil, "decompress", "-c", out)
		if err != nil || got != string(src) {
			t.Fatalf("%s: decompress: %v %s", c, err, e)
		}
	}
	for _, args := range [][]string{
		{"--codec", "snappy"},
		{"--codec", "snappy", "--format", "chunk"},
		{"--format", "blosc1", "--filter", "delta", "--filter", "shuffle"},
	} {
		_, e, err := runCmd(t, nil, append(append([]string{"compress", "-c"}, args...), in)...)
		want := "snappy"
		if args[len(args)-1] == "shuffle" {
			want = "delta"
		}
		if err == nil || !strings.Contains(e+err.Error(), want) {
			t.Errorf("%v: got %v (%s), want an error naming %s", args, err, e, want)
		}
	}
}
