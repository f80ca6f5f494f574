package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/framewriter"
	"github.com/blosc2go/blosc2/internal/testvec"
)

func runCmd(t *testing.T, stdin []byte, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(args, bytes.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), err
}

func input(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		b.WriteString("line ")
		b.WriteString(strings.Repeat("x", i%37))
		b.WriteString("\n")
	}
	return b.Bytes()[:n]
}

// TestCompressDecompressFrames round-trips data through every output
// format, to files and to standard output, with metalayers.
func TestCompressDecompressFrames(t *testing.T) {
	dir := t.TempDir()
	src := input(700000)
	in := filepath.Join(dir, "in")
	os.WriteFile(in, src, 0o644)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"cframe", []string{"--format", "cframe"}},
		{"default", nil},
		{"sframe", []string{"--format", "sframe"}},
		{"chunk", []string{"--format", "chunk"}},
		{"zstd-small-chunks", []string{"--codec", "zstd", "--chunksize", "65536", "--typesize", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.name+".b2")
			args := append([]string{"compress", "-o", out}, tc.args...)
			if tc.name != "chunk" {
				args = append(args, "--meta", "m=93010203", "--vlmeta", "who=cli", "--vlmeta", "n=42")
			}
			if _, e, err := runCmd(t, nil, append(args, in)...); err != nil {
				t.Fatalf("%v: %s", err, e)
			}
			got, e, err := runCmd(t, nil, "decompress", "-c", out)
			if err != nil || got != string(src) {
				t.Fatalf("decompress: %v %s (%d bytes)", err, e, len(got))
			}
			if tc.name == "chunk" {
				return
			}
			js, _, err := runCmd(t, nil, "info", "--json", out)
			if err != nil {
				t.Fatal(err)
			}
			var fi frameInfo
			if err := json.Unmarshal([]byte(js), &fi); err != nil {
				t.Fatal(err)
			}
			if fi.Nbytes != int64(len(src)) || fi.NChunks != len(fi.Chunks) || len(fi.Metalayers) != 1 ||
				fi.Metalayers[0].Hex != "93010203" || len(fi.VLMetalayers) != 2 || fi.VLMetalayers[0].Value != "cli" {
				t.Fatalf("info: %+v", fi)
			}
			if txt, _, err := runCmd(t, nil, "info", out); err != nil || !strings.Contains(txt, "vlmetalayers: 2") {
				t.Fatalf("info text: %v\n%s", err, txt)
			}
			cDecodes(t, out, src)
		})
	}
	// Through pipes: stdin to stdout, then stdin back.
	frame, e, err := runCmd(t, src, "compress", "--chunksize", "100000")
	if err != nil {
		t.Fatalf("%v %s", err, e)
	}
	got, _, err := runCmd(t, []byte(frame), "decompress")
	if err != nil || got != string(src) {
		t.Fatalf("pipe round trip: %v", err)
	}
}

// cDecodes has C-Blosc2 decode path when its reference CLI is present.
func cDecodes(t *testing.T, path string, want []byte) {
	t.Helper()
	bin := "/work/cref/bin/b2c"
	if p := os.Getenv("BLOSC2_B2C"); p != "" {
		bin = p
	}
	if _, err := os.Stat(bin); err != nil {
		return
	}
	out := filepath.Join(t.TempDir(), "c.out")
	if b, err := exec.Command(bin, "decompress-frame", path, out).CombinedOutput(); err != nil {
		t.Fatalf("C-Blosc2: %v %s", err, b)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
		t.Fatal("C-Blosc2 decodes other bytes")
	}
}

// TestDecompressVectors decodes C-Blosc2's frames, sparse frames and
// chunks by content.
func TestDecompressVectors(t *testing.T) {
	n := 0
	for _, v := range testvec.Load(t) {
		if v.Kind == "b2nd" || (v.Kind == "chunk" && n%5 != 0) {
			n++
			continue
		}
		n++
		got, e, err := runCmd(t, nil, "decompress", "-c", v.Path())
		if err != nil {
			t.Fatalf("%s: %v %s", v.File, err, e)
		}
		if len(got) != v.RawLen {
			t.Fatalf("%s: %d bytes, want %d", v.File, len(got), v.RawLen)
		}
		if v.Kind != "chunk" && testvec.SHA256([]byte(got)) != v.RawSHA256 {
			t.Fatalf("%s: digest differs", v.File)
		}
		if _, _, err := runCmd(t, nil, "info", "--json", v.Path()); err != nil {
			t.Fatalf("%s: info: %v", v.File, err)
		}
	}
}

// TestRepairRecoverCmds patches a frame written to a pipe (in place and
// from standard input) and recovers a torn one.
func TestRepairRecoverCmds(t *testing.T) {
	dir := t.TempDir()
	src := input(500000)
	frame, _, err := runCmd(t, src, "compress", "--chunksize", "60000", "--vlmeta", "k=v")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "pipe.b2frame")
	os.WriteFile(p, []byte(frame), 0o644)
	if r, _ := framereader.Open(p); !r.Info().Unpatched {
		t.Fatal("frame from a pipe is patched")
	}
	out := filepath.Join(dir, "fixed.b2frame")
	if _, e, err := runCmd(t, []byte(frame), "repair", "-o", out, "-"); err != nil {
		t.Fatalf("%v %s", err, e)
	}
	if _, e, err := runCmd(t, nil, "repair", p); err != nil {
		t.Fatalf("%v %s", err, e)
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(p)
	if !bytes.Equal(a, b) {
		t.Fatal("repair -o and repair in place differ")
	}
	if r, _ := framereader.Open(p); r.Info().Unpatched {
		t.Fatal("still unpatched")
	}
	cDecodes(t, p, src)

	// Tear it inside chunk 5 and recover.
	torn := filepath.Join(dir, "torn.b2frame")
	os.WriteFile(torn, b[:len(b)*2/3], 0o644)
	if _, _, err := runCmd(t, nil, "decompress", "-c", torn); err == nil {
		t.Fatal("torn frame decoded")
	}
	rec := filepath.Join(dir, "rec.b2frame")
	if _, e, err := runCmd(t, nil, "recover", "-o", rec, torn); err != nil || !strings.Contains(e, "recovered") {
		t.Fatalf("%v %s", err, e)
	}
	if _, e, err := runCmd(t, nil, "recover", torn); err != nil {
		t.Fatalf("%v %s", err, e)
	}
	x, _ := os.ReadFile(rec)
	y, _ := os.ReadFile(torn)
	if !bytes.Equal(x, y) {
		t.Fatal("recover -o and recover in place differ")
	}
	got, _, err := runCmd(t, nil, "decompress", "-c", torn)
	if err != nil || !strings.HasPrefix(string(src), got) || len(got)%60000 != 0 || len(got) == 0 {
		t.Fatalf("recovered %d bytes: %v", len(got), err)
	}
	cDecodes(t, torn, []byte(got))
	if _, e, _ := runCmd(t, nil, "recover", torn); !strings.Contains(e, "nothing to recover") {
		t.Fatalf("second recover: %s", e)
	}
}

// TestFrameCmdErrors checks the messages of wrong uses.
func TestFrameCmdErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte(strings.Repeat("not blosc ", 20)), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compress", "--format", "zip"}, "unknown format"},
		{[]string{"compress", "--format", "sframe"}, "-o"},
		{[]string{"compress", "--format", "chunk", "--meta", "a=00"}, "frame format"},
		{[]string{"compress", "--meta", "a=zz"}, "hex"},
		{[]string{"decompress", "-c", junk}, "not a Blosc2"},
		{[]string{"info", junk}, "not a Blosc2"},
		{[]string{"repair", junk}, "not a Blosc2 frame"},
		{[]string{"recover", junk}, "not a Blosc2 frame"},
		{[]string{"recover", "-o", filepath.Join(dir, "out"), junk}, "not a Blosc2 frame"},
		{[]string{"repair"}, "one file"},
	} {
		_, _, err := runCmd(t, nil, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("recover -o left its output after failing: %v", err)
	}
}

// TestRecoverSparseCmd recovers a sparse frame whose writer died after
// three whole chunks and one torn: the whole ones decode, also by
// C-Blosc2 when its tool is at hand.
func TestRecoverSparseCmd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.b2frame")
	w, err := framewriter.CreateSparse(dir, framewriter.WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	src := input(4 * 30000)
	for i := range 4 {
		if err := w.WriteChunk(src[i*30000 : (i+1)*30000]); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Truncate(filepath.Join(dir, "00000003.chunk"), 100); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCmd(t, nil, "recover", "-o", filepath.Join(t.TempDir(), "x"), dir); err == nil {
		t.Fatal("recover -o of a sparse frame accepted")
	}
	if _, e, err := runCmd(t, nil, "recover", dir); err != nil || !strings.Contains(e, "recovered 3 chunks (90000 bytes); cut 100 bytes") {
		t.Fatalf("%v %s", err, e)
	}
	r, err := framereader.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	for i := range r.NumChunks() {
		if got, err = r.DecodeChunk(got, i); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, src[:90000]) {
		t.Fatalf("recovered %d bytes, not the first 90000 written", len(got))
	}
	cDecodes(t, dir, src[:90000])
}
