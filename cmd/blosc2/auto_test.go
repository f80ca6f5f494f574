package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTier: --tier compresses each chunk with the automatic mode's
// choice, which info lists per chunk and in summary; -1 … -9 pick the
// tier, --codec stays fixed, and the frames decode (in C-Blosc2 too).
func TestTier(t *testing.T) {
	dir := t.TempDir()
	text := input(200000)
	f64 := make([]byte, 8*40000)
	for i := range 40000 {
		binary.LittleEndian.PutUint64(f64[8*i:], math.Float64bits(20+5*math.Sin(float64(i)/300)))
	}
	data := append(append([]byte(nil), text...), f64...)
	os.WriteFile(filepath.Join(dir, "x"), data, 0o644)
	mustRun(t, dir, "compress", "-k", "--tier", "default", "--chunksize", "200000", "x")
	fi := frameInfoOf(t, dir, "x.b2frame")
	if fi.NChunks != 3 || len(fi.Chunks) != 3 {
		t.Fatalf("%d chunks, want 3", fi.NChunks)
	}
	if c := fi.Chunks[0].Choice; c != "zstd nofilter/1" {
		t.Errorf("text chunk: choice %q", c)
	}
	// The sine's low mantissa bytes are noise: under 2:1, where LZ4
	// comes close to zstd, the default tier takes LZ4.
	if c := fi.Chunks[2].Choice; !strings.HasPrefix(c, "lz4 ") || !strings.HasSuffix(c, "/8") {
		t.Errorf("float64 chunk: choice %q, want lz4 with 8-byte elements", c)
	}
	out := mustRun(t, dir, "info", "x.b2frame").stdout
	if !strings.Contains(out, "choices (of the 3 chunks listed): ") {
		t.Errorf("info gives no summary of the choices:\n%s", out)
	}
	cDecodes(t, filepath.Join(dir, "x.b2frame"), data)
	mustRun(t, dir, "decompress", "-f", "x.b2frame")
	if got, _ := os.ReadFile(filepath.Join(dir, "x")); !bytes.Equal(got, data) {
		t.Fatal("round trip differs")
	}

	mustRun(t, dir, "compress", "-k", "-f", "--tier", "default", "-1", "--chunksize", "200000", "x")
	if c := frameInfoOf(t, dir, "x.b2frame").Chunks[0].Choice; !strings.HasPrefix(c, "lz4 ") {
		t.Errorf("-1: text chunk choice %q, want the fastest tier's lz4", c)
	}
	mustRun(t, dir, "compress", "-k", "-f", "--tier", "best", "--codec", "zlib", "--chunksize", "200000", "x")
	for _, c := range frameInfoOf(t, dir, "x.b2frame").Chunks {
		if !strings.HasPrefix(c.Choice, "zlib ") {
			t.Errorf("--codec zlib: chunk choice %q", c.Choice)
		}
	}
	mustRun(t, dir, "compress", "-k", "-f", "--tier", "fastest", "--format", "chunk", "-o", "x.chunk", "x")
	mustRun(t, dir, "decompress", "-f", "-o", "y", "x.chunk")
	if got, _ := os.ReadFile(filepath.Join(dir, "y")); !bytes.Equal(got, data) {
		t.Fatal("chunk round trip differs")
	}
	// The default is the automatic mode; naming codec and filter is not.
	mustRun(t, dir, "compress", "-k", "-f", "--chunksize", "200000", "x")
	if c := frameInfoOf(t, dir, "x.b2frame").Chunks[0].Choice; c != "zstd nofilter/1" {
		t.Errorf("default: text chunk choice %q, want the automatic mode's", c)
	}
	mustRun(t, dir, "compress", "-k", "-f", "--codec", "lz4", "--filter", "shuffle", "--chunksize", "200000", "x")
	for _, c := range frameInfoOf(t, dir, "x.b2frame").Chunks {
		if c.Choice != "lz4 shuffle/8" {
			t.Errorf("--codec lz4 --filter shuffle: chunk choice %q, want the fixed lz4 shuffle/8", c.Choice)
		}
	}
	for _, args := range [][]string{
		{"compress", "-k", "-f", "--tier", "quick", "x"},
		{"compress", "-k", "-f", "--tier", "default", "--format", "blosc1", "x"},
		{"compress", "-k", "-f", "--tier", "best", "--format", "sframe", "-o", "x.sframe", "x"},
	} {
		if r := runBin(t, dir, nil, args...); r.code == 0 {
			t.Errorf("%v accepted", args)
		}
	}
}
