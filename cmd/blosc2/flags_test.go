package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2/internal/testvec"
)

// frameInfoOf is 'blosc2 info --json' of a frame.
func frameInfoOf(t *testing.T, dir, name string) frameInfo {
	t.Helper()
	var fi frameInfo
	if err := json.Unmarshal([]byte(mustRun(t, dir, "info", "--json", name).stdout), &fi); err != nil {
		t.Fatal(err)
	}
	return fi
}

func exists(dir, name string) bool {
	_, err := os.Lstat(filepath.Join(dir, name))
	return err == nil
}

// TestShortFlagClusters: -9k, -kc, -dc, -T0, -T N, -dkc, and the
// zstd-style 'blosc2 -d FILE' without a command.
func TestShortFlagClusters(t *testing.T) {
	dir := t.TempDir()
	src := input(500000)
	os.WriteFile(filepath.Join(dir, "x"), src, 0o644)
	mustRun(t, dir, "compress", "-9k", "-T0", "x")
	if !exists(dir, "x") {
		t.Fatal("-9k removed the input")
	}
	// -9 picks the automatic mode's best tier (zstd, clevel 6)…
	if fi := frameInfoOf(t, dir, "x.b2frame"); fi.Clevel != 6 || fi.Codec != "zstd" {
		t.Fatalf("-9k wrote %s clevel %d, want the best tier's zstd 6", fi.Codec, fi.Clevel)
	}
	// … and clevel 9 with the fixed parameters.
	mustRun(t, dir, "compress", "-9kf", "--tier", "off", "x")
	if fi := frameInfoOf(t, dir, "x.b2frame"); fi.Clevel != 9 {
		t.Fatalf("--tier off -9k wrote clevel %d", fi.Clevel)
	}
	r := mustRun(t, dir, "compress", "-kc", "-T", "2", "-3", "x")
	if !exists(dir, "x") || len(r.stdout) == 0 {
		t.Fatal("-kc")
	}
	if r := runBin(t, dir, []byte(r.stdout), "-dc"); r.code != 0 || r.stdout != string(src) {
		t.Fatalf("blosc2 -dc from stdin: %d %s", r.code, r.stderr)
	}
	if r := mustRun(t, dir, "-dkcT1", "x.b2frame"); r.stdout != string(src) || !exists(dir, "x.b2frame") {
		t.Fatal("-dkcT1")
	}
	os.Remove(filepath.Join(dir, "x"))
	mustRun(t, dir, "-d", "x.b2frame")
	if got, _ := os.ReadFile(filepath.Join(dir, "x")); !bytes.Equal(got, src) || exists(dir, "x.b2frame") {
		t.Fatal("blosc2 -d FILE")
	}
	mustRun(t, dir, "-z", "x")
	if !exists(dir, "x.b2frame") || exists(dir, "x") {
		t.Fatal("blosc2 -z FILE")
	}
	if r := runBin(t, dir, nil, "-d", "-z", "x.b2frame"); r.code != 1 || !strings.Contains(r.stderr, "conflict") {
		t.Fatalf("-d -z: %d %s", r.code, r.stderr)
	}
}

// TestDashDash: a file whose name starts with - after --.
func TestDashDash(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "-k"), input(1000), 0o644)
	mustRun(t, dir, "compress", "--", "-k")
	if exists(dir, "-k") || !exists(dir, "-k.b2frame") {
		t.Fatal("compress -- -k")
	}
	mustRun(t, dir, "-d", "--", "-k.b2frame")
	if !exists(dir, "-k") {
		t.Fatal("-d -- -k.b2frame")
	}
}

// TestSizeSuffixes: 4MiB, 4M, 4m, 4MB and 4194304 are the same size.
func TestSizeSuffixes(t *testing.T) {
	for _, s := range []string{"4194304", "4MiB", "4Mi", "4M", "4m", "4MB", "4096K", "4096k", "4096KiB", "0.5Mi"} {
		n, err := parseSize(s)
		want := 4 << 20
		if s == "0.5Mi" {
			want = 1 << 19
		}
		if err != nil || n != want {
			t.Errorf("parseSize(%q) = %d, %v", s, n, err)
		}
	}
	for _, s := range []string{"", "x", "-1", "1.5", "4Q", "3Gi", "1e30"} {
		if n, err := parseSize(s); err == nil {
			t.Errorf("parseSize(%q) = %d, no error", s, n)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), input(300000), 0o644)
	mustRun(t, dir, "compress", "-k", "--chunksize", "64KiB", "--blocksize", "16k", "x")
	if fi := frameInfoOf(t, dir, "x.b2frame"); fi.ChunkSize != 65536 || fi.NChunks != 5 {
		t.Fatalf("--chunksize 64KiB: chunksize %d, %d chunks", fi.ChunkSize, fi.NChunks)
	}
}

// TestSeveralFiles: each file on its own; one failing gives exit 1 and
// one line, the others are still done; a warning alone gives exit 2, and
// -q silences it.
func TestSeveralFiles(t *testing.T) {
	dir := t.TempDir()
	a, c := input(1000), input(2000)
	os.WriteFile(filepath.Join(dir, "a"), a, 0o644)
	os.WriteFile(filepath.Join(dir, "c"), c, 0o644)
	r := runBin(t, dir, nil, "compress", "a", "missing", "c")
	if r.code != 1 {
		t.Fatalf("exit %d", r.code)
	}
	oneLine(t, r, "missing: ", "no such file")
	if !exists(dir, "a.b2frame") || !exists(dir, "c.b2frame") || exists(dir, "a") || exists(dir, "c") {
		t.Fatal("the other files were not compressed")
	}
	r = runBin(t, dir, nil, "compress", "a.b2frame")
	if r.code != 2 {
		t.Fatalf("a file with the suffix: exit %d, want 2 (a warning)", r.code)
	}
	oneLine(t, r, "a.b2frame: ", "suffix")
	if r := runBin(t, dir, nil, "compress", "-q", "a.b2frame"); r.code != 2 || r.stderr != "" {
		t.Fatalf("-q: exit %d, stderr %q", r.code, r.stderr)
	}
	// -c concatenates the frames, which decompress as one stream.
	r = mustRun(t, dir, "decompress", "-c", "a.b2frame", "c.b2frame")
	if r.stdout != string(a)+string(c) {
		t.Fatal("decompress -c of two files")
	}
	mustRun(t, dir, "decompress", "a.b2frame", "c.b2frame")
	if got, _ := os.ReadFile(filepath.Join(dir, "c")); !bytes.Equal(got, c) {
		t.Fatal("decompress of two files")
	}
	if r := runBin(t, dir, nil, "compress", "-o", "out", "a", "c"); r.code != 1 || !strings.Contains(r.stderr, "-o names one output") {
		t.Fatalf("-o with two inputs: %d %s", r.code, r.stderr)
	}
}

// TestRecursiveRmVerbose: -r over a tree (sparse frames are inputs when
// decompressing), --rm with -o, -v's line.
func TestRecursiveRmVerbose(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "t", "sub"), 0o755)
	files := map[string][]byte{"t/a": input(1000), "t/sub/b": input(3000), "t/sub/c": input(5000)}
	for n, b := range files {
		os.WriteFile(filepath.Join(dir, n), b, 0o644)
	}
	if r := runBin(t, dir, nil, "compress", "t"); r.code != 2 || !strings.Contains(r.stderr, "is a directory") {
		t.Fatalf("a directory without -r: %d %q", r.code, r.stderr)
	}
	mustRun(t, dir, "compress", "-r", "t")
	for n := range files {
		if exists(dir, n) || !exists(dir, n+".b2frame") {
			t.Fatalf("-r: %s", n)
		}
	}
	// A sparse frame in the tree is decompressed, not descended into.
	mustRun(t, dir, "compress", "--format", "sframe", "-o", "t/sub/s.b2frame", "t/a.b2frame")
	mustRun(t, dir, "decompress", "-r", "t")
	for n, b := range files {
		if got, err := os.ReadFile(filepath.Join(dir, n)); err != nil || !bytes.Equal(got, b) {
			t.Fatalf("-d -r: %s: %v", n, err)
		}
	}
	if !exists(dir, "t/sub/s") || !exists(dir, "t/sub/s.b2frame/chunks.b2frame") {
		t.Fatal("-d -r: the sparse frame was not decompressed, or was removed")
	}
	// --rm removes the input also with -o; -o alone keeps it.
	mustRun(t, dir, "compress", "-o", "o1", "t/a")
	if !exists(dir, "t/a") {
		t.Fatal("-o removed the input")
	}
	r := mustRun(t, dir, "compress", "-v", "--rm", "-o", "o2", "t/a")
	if exists(dir, "t/a") || !exists(dir, "o2") {
		t.Fatal("--rm -o kept the input")
	}
	if !strings.Contains(r.stderr, "t/a: 1000 -> ") || !strings.Contains(r.stderr, "replaced with o2") {
		t.Fatalf("-v: %q", r.stderr)
	}
}

// TestListAndTest: -l's table (sizes, ratio, frames, codec, name; a total
// row), list on a file of two frames, -t writing nothing.
func TestListAndTest(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), input(400000), 0o644)
	os.WriteFile(filepath.Join(dir, "y"), input(100000), 0o644)
	mustRun(t, dir, "compress", "-k", "--codec", "zstd", "x")
	mustRun(t, dir, "compress", "-k", "--codec", "lz4", "y")
	xf, _ := os.ReadFile(filepath.Join(dir, "x.b2frame"))
	yf, _ := os.ReadFile(filepath.Join(dir, "y.b2frame"))
	os.WriteFile(filepath.Join(dir, "xy.b2frame"), append(append([]byte{}, xf...), yf...), 0o644)
	out := mustRun(t, dir, "-l", "x.b2frame", "xy.b2frame").stdout
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "compressed") || !strings.Contains(lines[0], "ratio") {
		t.Fatalf("list:\n%s", out)
	}
	row := strings.Fields(lines[1])
	if row[0] != strconv.Itoa(len(xf)) || row[1] != "400000" || row[3] != "1" || row[4] != "zstd" || row[5] != "x.b2frame" {
		t.Fatalf("list row %q", lines[1])
	}
	row = strings.Fields(lines[2])
	if row[0] != strconv.Itoa(len(xf)+len(yf)) || row[1] != "500000" || row[3] != "2" || row[4] != "mixed" {
		t.Fatalf("list of two frames %q", lines[2])
	}
	if row = strings.Fields(lines[3]); row[1] != "900000" || row[3] != "3" {
		t.Fatalf("total row %q", lines[3])
	}
	if out := mustRun(t, dir, "list", "y.b2frame").stdout; !strings.Contains(out, "lz4") || strings.Count(out, "\n") != 2 {
		t.Fatalf("list of one file:\n%s", out)
	}

	before := snapshot(t, dir)
	if r := mustRun(t, dir, "test", "-v", "x.b2frame", "y.b2frame"); r.stdout != "" || !strings.Contains(r.stderr, "x.b2frame: OK") {
		t.Fatalf("test -v: %q %q", r.stdout, r.stderr)
	}
	if r := mustRun(t, dir, "-t", "x.b2frame"); r.stdout != "" || r.stderr != "" {
		t.Fatalf("-t: %q %q", r.stdout, r.stderr)
	}
	if r := runBin(t, dir, nil, "-t", "x"); r.code != 1 {
		t.Fatalf("-t of a file that is no frame: exit %d", r.code)
	}
	if snapshot(t, dir) != before {
		t.Fatal("test wrote or removed something")
	}
}

// TestVersionAndHelp: --version names the module and Go; help and -h
// write the command's flags to stdout and exit 0, as gzip -h does.
func TestVersionAndHelp(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"--version"}, {"version"}, {"compress", "--version"}, {"-V"}} {
		r := mustRun(t, dir, args...)
		if !strings.Contains(r.stdout, "github.com/blosc2go/blosc2") || !strings.Contains(r.stdout, runtime.Version()) {
			t.Errorf("%v: %q", args, r.stdout)
		}
	}
	for _, args := range [][]string{{"help", "compress"}, {"compress", "-h"}, {"compress", "--help"}} {
		r := mustRun(t, dir, args...)
		if !strings.HasPrefix(r.stdout, "usage: blosc2 compress") || !strings.Contains(r.stdout, "--chunksize") || !strings.Contains(r.stdout, "  -k") {
			t.Errorf("%v: %q", args, r.stdout)
		}
	}
	if r := mustRun(t, dir, "decompress", "-h"); strings.Contains(r.stdout, "--typesize") || !strings.Contains(r.stdout, "  -T") {
		t.Errorf("decompress -h lists compression flags or misses -T:\n%s", r.stdout)
	}
	if r := mustRun(t, dir, "help"); !strings.Contains(r.stdout, "blosc2 list") {
		t.Errorf("help: %q", r.stdout)
	}
}

// TestInfoSnappyChunk: a C-Blosc 1.x chunk whose flags name Snappy (format
// 2, which no Blosc2 codec implements) is reported as snappy, not as
// blosclz. The chunk is C-Blosc 1.11.1's LZ4HC vector with the format
// bits (flags 5-7) set to Snappy's.
func TestInfoSnappyChunk(t *testing.T) {
	var v *testvec.Vector
	for _, x := range testvec.Load(t) {
		if x.File == "compat/blosc-1.11.1-lz4hc.cdata" {
			v = &x
		}
	}
	if v == nil {
		t.Skip("vector compat/blosc-1.11.1-lz4hc.cdata missing")
	}
	b := v.Read(t)
	b[2] = b[2]&0x1f | 2<<5
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "s.cdata"), b, 0o644)
	if out := mustRun(t, dir, "info", "s.cdata").stdout; !strings.Contains(out, "codec snappy") {
		t.Fatalf("info: %s", out)
	}
	var ci chunkInfo
	json.Unmarshal([]byte(mustRun(t, dir, "info", "--json", "s.cdata").stdout), &ci)
	if ci.Codec != "snappy" || ci.Nbytes != int(binary.LittleEndian.Uint32(b[4:])) {
		t.Fatalf("info --json: %+v", ci)
	}
	if out := mustRun(t, dir, "list", "s.cdata").stdout; !strings.Contains(out, "snappy") {
		t.Fatalf("list: %s", out)
	}
}
