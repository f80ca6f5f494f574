package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framewriter"
)

// TestInfoKeepsOnlyWhatItPrints: info on a frame of a few hundred bytes
// that records a million zero chunks (blosc2_schunk_fill_special's layout)
// describes the hundred it prints, allocating little; the JSON form writes
// every row without holding them.
func TestInfoKeepsOnlyWhatItPrints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fill.b2frame")
	p := blosc2.DefaultCParams()
	p.TypeSize = 8
	w, err := framewriter.Create(path, framewriter.WithCParams(p), framewriter.WithoutSync(), framewriter.WithoutChecksums())
	if err != nil {
		t.Fatal(err)
	}
	const n = 1_000_000
	if err := w.FillSpecial(n, blosc2.SpecialZero, 8); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	out, _, err := runCmd(t, nil, "info", path)
	runtime.ReadMemStats(&ms)
	if err != nil || !strings.Contains(out, "999900 more") {
		t.Fatalf("info: %v\n%.300s", err, out)
	}
	if alloc := ms.TotalAlloc - before; alloc > 8<<20 {
		t.Fatalf("info of 100 rows allocated %d bytes", alloc)
	}
	if testing.Short() {
		return // the million JSON rows take seconds; the full run checks them
	}
	var buf bytes.Buffer
	if err := run([]string{"info", "--json", path}, nil, &buf, &buf); err != nil {
		t.Fatal(err)
	}
	var fi frameInfo
	if err := json.Unmarshal(buf.Bytes(), &fi); err != nil || len(fi.Chunks) != n || fi.Chunks[n-1].Special != "zeros" {
		t.Fatalf("info --json: %d rows, %v", len(fi.Chunks), err)
	}
}
