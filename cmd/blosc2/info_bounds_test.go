package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framewriter"
	"github.com/blosc2go/blosc2/internal/race"
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

// TestB2ndFromPipeIsBounded: a b2nd array read from standard input is
// spooled to a temporary file, not to memory: decompressing a 32 MB array
// from a pipe allocates far less than the array, gives the bytes
// decompressing the file gives, and leaves no temporary behind.
func TestB2ndFromPipeIsBounded(t *testing.T) {
	dir := t.TempDir()
	const n = 4 << 20 // float64 values
	raw := make([]byte, 8*n)
	x := uint64(1)
	for i := 0; i < len(raw); i += 8 {
		x = x*6364136223846793005 + 1442695040888963407
		binary.LittleEndian.PutUint64(raw[i:], x) // incompressible: the file is as big as the array
	}
	in := filepath.Join(dir, "a.f8")
	os.WriteFile(in, raw, 0o644)
	arr := filepath.Join(dir, "a.b2nd")
	if _, e, err := runCmd(t, nil, "compress", "--shape", fmt.Sprint(n), "--dtype", "<f8", "--chunkshape", "262144", "-o", arr, in); err != nil {
		t.Fatalf("%v %s", err, e)
	}
	file, _ := os.ReadFile(arr)
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "blosc2-stdin-*"))
	// Allocations decompressing from the file and from a pipe: the pipe
	// may add copy buffers and noise (the race detector, goroutines), not
	// the array (reading it into memory added 2.5 times its size).
	alloc := func(args []string, stdin io.Reader) uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		start := ms.TotalAlloc
		h := sha256.New()
		var e bytes.Buffer
		err := run(args, stdin, h, &e)
		runtime.ReadMemStats(&ms)
		if want := sha256.Sum256(raw); err != nil || !bytes.Equal(h.Sum(nil), want[:]) {
			t.Fatalf("%v: %v %s", args, err, e.String())
		}
		return ms.TotalAlloc - start
	}
	// Under the race detector sync.Pool drops a quarter of what is put
	// back, at random, so each count varies by a few chunks' buffers (CI
	// saw the pipe's 19 MB above the file's); that noise only adds, so
	// the least of three runs is the measure there.
	rounds := 1
	if race.Enabled {
		rounds = 3
	}
	fromFile, fromPipe := uint64(math.MaxUint64), uint64(math.MaxUint64)
	for range rounds {
		fromFile = min(fromFile, alloc([]string{"decompress", "-c", arr}, nil))
		fromPipe = min(fromPipe, alloc([]string{"decompress", "-c"}, bytes.NewReader(file)))
	}
	if fromPipe > fromFile+uint64(len(file))/2 {
		t.Fatalf("a %d-byte array: %d bytes allocated from a pipe, %d from the file", len(file), fromPipe, fromFile)
	}
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "blosc2-stdin-*"))
	if len(after) != len(before) {
		t.Fatalf("temporary files left: %v", after)
	}
}
