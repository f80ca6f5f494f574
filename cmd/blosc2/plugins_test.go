package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2/internal/testvec"
)

// The plugin codecs and filters by their command-line names: b2nd arrays
// compress and decompress (lossless ones exactly), info names the codec,
// plain frames refuse the codecs that need a block shape, and every C
// plugin vector decompresses to C's digest.
func TestPluginNames(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join(testvec.DataDir(), "rainfall_grid_150x150.f32.bin"))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "r.f32")
	if err := os.WriteFile(in, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args     []string
		lossless bool
		name     string
	}{
		{[]string{"--shape", "150,150", "--dtype", "<f4", "--codec", "zfp_acc:-3"}, false, "zfp_acc"},
		{[]string{"--shape", "150,150", "--dtype", "<f4", "--codec", "zfp_prec:12"}, false, "zfp_prec"},
		{[]string{"--shape", "150,150", "--dtype", "<f4", "--codec", "zfp_rate:25"}, false, "zfp_rate"},
		{[]string{"--shape", "150,600", "--dtype", "|u1", "--codec", "ndlz:8"}, true, "ndlz"},
		{[]string{"--shape", "150,150", "--dtype", "<f4", "--codec", "zstd", "--filter", "ndcell:4"}, true, "ndcell"},
		{[]string{"--shape", "150,150", "--dtype", "<f4", "--codec", "lz4", "--filter", "ndmean:2"}, false, "ndmean"},
		{[]string{"--shape", "150,150", "--dtype", "<i4", "--codec", "zstd", "--filter", "int_trunc:-4"}, false, "int_trunc"},
	} {
		out := filepath.Join(dir, c.name+".b2nd")
		args := append([]string{"compress", "-k", "-f"}, c.args...)
		if _, stderr, err := runCmd(t, nil, append(args, "-o", out, in)...); err != nil {
			t.Fatalf("%s: %v %s", c.name, err, stderr)
		}
		info, _, err := runCmd(t, nil, "info", out)
		if err != nil || !strings.Contains(info, c.name) {
			t.Fatalf("%s: info does not name it (%v):\n%s", c.name, err, info)
		}
		if c.name == "zfp_acc" && !strings.Contains(info, "zfp_acc (meta -3)") {
			t.Fatalf("info does not give zfp_acc's signed meta:\n%s", info)
		}
		back := filepath.Join(dir, c.name+".raw")
		if _, stderr, err := runCmd(t, nil, "decompress", "-f", "-o", back, out); err != nil {
			t.Fatalf("%s: %v %s", c.name, err, stderr)
		}
		got, _ := os.ReadFile(back)
		if len(got) != len(raw) || c.lossless && !bytes.Equal(got, raw) {
			t.Fatalf("%s: %d bytes back, lossless %v", c.name, len(got), c.lossless)
		}
	}
	_, stderr, err := runCmd(t, nil, "compress", "-k", "-f", "--typesize", "4", "--codec", "zfp_acc:-2", "-o", filepath.Join(dir, "plain"), in)
	if err == nil || !strings.Contains(stderr+err.Error(), "b2nd") {
		t.Fatalf("a plain frame with zfp_acc: %v %s", err, stderr)
	}
	if _, _, err := runCmd(t, nil, "compress", "-k", "-f", "--shape", "150,150", "--dtype", "<f4", "--codec", "zfp_acc", "-o", filepath.Join(dir, "nometa"), in); err == nil {
		t.Fatal("zfp_acc without its meta accepted")
	}
	for i, v := range testvec.LoadPlugins(t) {
		if testing.Short() && i%4 != 0 {
			continue
		}
		back := filepath.Join(dir, "v.raw")
		if _, stderr, err := runCmd(t, nil, "decompress", "-f", "-o", back, v.Path()); err != nil {
			t.Fatalf("%s: %v %s", v.File, err, stderr)
		}
		got, _ := os.ReadFile(back)
		if testvec.SHA256(got) != v.RawSHA256 {
			t.Fatalf("%s: digest %s, C's %s", v.File, testvec.SHA256(got), v.RawSHA256)
		}
	}
}
