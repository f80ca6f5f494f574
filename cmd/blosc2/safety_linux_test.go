package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNeverDestroys runs every way the command used to destroy data
// (issue 12) and checks that each fails and leaves every path that
// existed before byte-identical, with no temporary left behind.
func TestNeverDestroys(t *testing.T) {
	src := input(400000)
	for _, tc := range []struct {
		name string
		args []string
		want string // in the error line
	}{
		{"compress -f -o DIR", []string{"compress", "-f", "-o", "precious", "x"}, "precious is a directory"},
		{"compress -f onto a DIR named like the output", []string{"compress", "-f", "y"}, "y.b2frame is a directory"},
		{"decompress -f -o DIR bad frame", []string{"decompress", "-f", "-o", "precious", "bad.b2frame"}, "precious is a directory"},
		{"decompress -f -o DIR good frame", []string{"decompress", "-f", "-o", "precious", "x.b2frame"}, "precious is a directory"},
		{"sframe -f -o DIR", []string{"compress", "--format", "sframe", "-f", "-o", "precious", "x"}, "precious is a directory"},
		{"same file via ./x", []string{"compress", "-f", "-o", "./x", "x"}, "same file"},
		{"same file via hard link", []string{"compress", "-f", "-o", "hard", "x"}, "same file"},
		{"same file via symlink", []string{"compress", "-f", "-o", "soft", "x"}, "same file"},
		{"decompress -f -o onto its input", []string{"decompress", "-f", "-o", "./x.b2frame", "x.b2frame"}, "same file"},
		{"decompress -f -o onto its input via hard link", []string{"decompress", "-f", "-o", "xhard.b2frame", "x.b2frame"}, "same file"},
		{"symlink input without -f", []string{"compress", "soft"}, "symbolic link"},
		{"decompress a bad frame", []string{"decompress", "bad.b2frame"}, "not a Blosc2"},
		{"existing output without -f", []string{"decompress", "-k", "x.b2frame"}, "already exists"},
		{"-o existing without -f", []string{"compress", "-o", "x.b2frame", "x"}, "already exists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name string, b []byte) {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("x", src)
			mustRun(t, dir, "compress", "-k", "x")
			os.Mkdir(filepath.Join(dir, "precious"), 0o755)
			write("precious/keep", []byte("the user's data"))
			os.Mkdir(filepath.Join(dir, "y.b2frame"), 0o755)
			write("y.b2frame/keep", []byte("more data"))
			write("y", src[:1000])
			write("bad.b2frame", bytes.Repeat([]byte("not blosc "), 100))
			os.Link(filepath.Join(dir, "x"), filepath.Join(dir, "hard"))
			os.Link(filepath.Join(dir, "x.b2frame"), filepath.Join(dir, "xhard.b2frame"))
			os.Symlink("x", filepath.Join(dir, "soft"))
			before := snapshot(t, dir)
			r := runBin(t, dir, nil, tc.args...)
			if r.code != 1 {
				t.Errorf("exit %d, want 1 (stderr %q)", r.code, r.stderr)
			}
			oneLine(t, r, "", tc.want)
			if after := snapshot(t, dir); after != before {
				t.Errorf("the directory changed:\nbefore\n%s\nafter\n%s", before, after)
			}
		})
	}
}

// TestSignalCleanup interrupts a compress that is certainly mid-run: its
// input is a FIFO the test writes to, and the signal comes once the
// command has read more than a pipe holds, with more to come. The
// temporary output must be gone, the input (the FIFO, which success would
// have removed) still there, and the exit status 128+signal.
func TestSignalCleanup(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			fifo := filepath.Join(dir, "in")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skipf("no FIFO: %v", err)
			}
			cmd := exec.Command(binPath, "compress", "-f", "--chunksize", "1MiB", "in")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// 8 MiB: several chunks, far more than a pipe buffers, so once
			// written the command is reading and writing its temporary
			// output, with more input to come.
			fed := make(chan error, 1)
			var w *os.File
			go func() {
				var err error
				if w, err = os.OpenFile(fifo, os.O_WRONLY, 0); err == nil { // waits for the command to open it
					_, err = w.Write(input(8 << 20))
				}
				fed <- err
			}()
			select {
			case err := <-fed:
				if err != nil {
					t.Fatal(err)
				}
			case err := <-done:
				// Unblock the writer, then fail.
				if r, oerr := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); oerr == nil {
					r.Close()
				}
				t.Fatalf("the command ended before the signal: %v %s", err, stderr.String())
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("the command did not read its input")
			}
			defer w.Close()
			tmps, _ := filepath.Glob(filepath.Join(dir, ".in.b2frame.blosc2-*"))
			if len(tmps) != 1 {
				t.Fatalf("no temporary output mid-run: %v", tmps)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			var werr error
			select {
			case werr = <-done:
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("the command did not exit on the signal")
			}
			if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
				t.Errorf("exit %d (%v), want %d; stderr %q", code, werr, 128+int(sig), stderr.String())
			}
			ents, _ := os.ReadDir(dir)
			if len(ents) != 1 || ents[0].Name() != "in" || ents[0].Type()&os.ModeNamedPipe == 0 {
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				t.Errorf("left behind %v, want only the input FIFO", names)
			}
		})
	}
}

// TestMetadataKept: mode 0600, a 2020 mtime, an atime and (as root) the
// owner survive compress and decompress, as with gzip and zstd.
func TestMetadataKept(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x")
	src := input(300000)
	if err := os.WriteFile(x, src, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(x, 0o600) // whatever the umask
	mtime := time.Date(2020, 3, 4, 5, 6, 7, 0, time.UTC)
	atime := time.Date(2021, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(x, atime, mtime); err != nil {
		t.Fatal(err)
	}
	root := os.Geteuid() == 0
	if root {
		if err := os.Chown(x, 1234, 5678); err != nil {
			t.Fatal(err)
		}
	}
	check := func(path string) {
		t.Helper()
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", path, st.Mode())
		}
		if !st.ModTime().Equal(mtime) {
			t.Errorf("%s: mtime %v, want %v", path, st.ModTime(), mtime)
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); ok {
			if !atimeOf(sys).Equal(atime) {
				t.Errorf("%s: atime %v, want %v", path, atimeOf(sys), atime)
			}
			if root && (sys.Uid != 1234 || sys.Gid != 5678) {
				t.Errorf("%s: owner %d:%d, want 1234:5678", path, sys.Uid, sys.Gid)
			}
		}
	}
	mustRun(t, dir, "compress", "x")
	check(x + ".b2frame")
	mustRun(t, dir, "decompress", "x.b2frame")
	check(x)
	if got, _ := os.ReadFile(x); !bytes.Equal(got, src) {
		t.Fatal("round trip changed the data")
	}
	// A sparse frame is a directory: the mode gains x where it has r.
	mustRun(t, dir, "compress", "-k", "--format", "sframe", "x")
	if st, err := os.Stat(x + ".b2frame"); err != nil || st.Mode().Perm() != 0o700 || !st.ModTime().Equal(mtime) {
		t.Errorf("sparse frame directory: %v %v", st.Mode(), err)
	}
	// Standard input has no metadata: the output gets a new file's mode.
	r := runBin(t, dir, src, "compress", "-o", "stdin.b2frame")
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	if st, _ := os.Stat(filepath.Join(dir, "stdin.b2frame")); st.Mode().Perm() != 0o666&^umask {
		t.Errorf("output from stdin: mode %v, want %v", st.Mode().Perm(), 0o666&^umask)
	}
}

func atimeOf(st *syscall.Stat_t) time.Time { return time.Unix(int64(st.Atim.Sec), int64(st.Atim.Nsec)) }

// TestBigChunkRoundTrip: compress accepts chunks up to
// blosc2.MaxBufferSize, so decompress must take a frame whose chunks pass
// the stream Reader's default 1 GiB cap (issue 12: the input was already
// gone when decompress refused). The input is a sparse file, zeros but a
// marked tail, so the big chunk compresses to a special chunk fast; its
// decoding still allocates the whole 1.1 GB.
func TestBigChunkRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a 1.1 GB chunk")
	}
	const chunk int64 = 1_100_000_000
	if mem := physicalMemory(); mem != 0 && mem < 8*chunk {
		t.Skipf("this machine has %d bytes of memory; the test wants about %d", mem, 8*chunk)
	}
	dir := t.TempDir()
	x := filepath.Join(dir, "x")
	tail := []byte("the end of a big file")
	f, err := os.Create(x)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(tail, chunk+1000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	mustRun(t, dir, "compress", "-T1", "--chunksize", "1100000000", "x")
	if _, err := os.Stat(x); err == nil {
		t.Fatal("input kept")
	}
	cmd := exec.Command(binPath, "decompress", "-c", "x.b2frame")
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	n, err := io.Copy(h, out)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("decompress: %v %s", err, stderr.String())
	}
	want := sha256.New()
	io.Copy(want, io.LimitReader(zeros{}, chunk+1000))
	want.Write(tail)
	if n != chunk+1000+int64(len(tail)) || !bytes.Equal(h.Sum(nil), want.Sum(nil)) {
		t.Fatalf("decompressed %d bytes, other than the input", n)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestErrorLines: one line per failure, the file named once, no repeated
// "blosc2: ", flags out of range rejected with their range.
func TestErrorLines(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), input(100000), 0o644)
	for _, tc := range []struct {
		args       []string
		name, want string
	}{
		{[]string{"compress", "--typesize", "300", "x"}, "", "--typesize 300 outside 1-255"},
		{[]string{"compress", "--typesize", "0", "x"}, "", "outside 1-255"},
		{[]string{"compress", "--clevel", "12", "x"}, "", "--clevel 12 outside 0-9"},
		{[]string{"compress", "--chunksize", "-5", "x"}, "", "outside 0-"},
		{[]string{"compress", "--chunksize", "0", "x"}, "", "--chunksize 0 outside 1-"},
		{[]string{"compress", "--blocksize", "-1", "x"}, "", "outside 0-"},
		{[]string{"compress", "-T", "-2", "x"}, "", "negative"},
		{[]string{"compress", "--codec", "nope", "x"}, "", "unknown codec"},
		{[]string{"compress", "--bogus", "x"}, "", "not defined"},
		{[]string{"decompress", "missing.b2frame"}, "missing.b2frame", "no such file"},
	} {
		r := runBin(t, dir, nil, tc.args...)
		if r.code != 1 {
			t.Errorf("%v: exit %d", tc.args, r.code)
		}
		oneLine(t, r, tc.name, tc.want)
	}
	// A corrupt chunk: the line names the file, the chunk and what is
	// wrong; first with the checksums every frame carries, then without.
	mustRun(t, dir, "compress", "-k", "--chunksize", "64KiB", "x")
	b, _ := os.ReadFile(filepath.Join(dir, "x.b2frame"))
	var fi frameInfo
	js := mustRun(t, dir, "info", "--json", "x.b2frame").stdout
	if err := json.Unmarshal([]byte(js), &fi); err != nil {
		t.Fatal(err)
	}
	c := fi.Chunks[1]
	copy(b[int64(fi.HeaderLen)+c.Entry+32:], []byte{0xff, 0xff, 0xff, 0x7f}) // block 0 starts past the chunk
	os.WriteFile(filepath.Join(dir, "bad.b2frame"), b, 0o644)
	for _, args := range [][]string{{"test", "bad.b2frame"}, {"decompress", "-k", "bad.b2frame"}} {
		r := runBin(t, dir, nil, args...)
		if r.code != 1 {
			t.Errorf("%v: exit %d", args, r.code)
		}
		oneLine(t, r, "bad.b2frame: frame 0: checksum mismatch: chunk 1", "recorded")
	}
	if _, err := os.Stat(filepath.Join(dir, "bad")); err == nil {
		t.Error("decompress of a corrupt frame left its output")
	}
	if strings.Contains(mustRun(t, dir, "test", "x.b2frame").stderr, "blosc2") {
		t.Error("test of a good frame said something")
	}
	// Without checksums the decoder finds the damage: the line names the
	// chunk and its offset.
	mustRun(t, dir, "compress", "-f", "-k", "--no-checksum", "--chunksize", "64KiB", "x")
	b, _ = os.ReadFile(filepath.Join(dir, "x.b2frame"))
	copy(b[int64(fi.HeaderLen)+c.Entry+32:], []byte{0xff, 0xff, 0xff, 0x7f})
	os.WriteFile(filepath.Join(dir, "bad.b2frame"), b, 0o644)
	r := runBin(t, dir, nil, "test", "bad.b2frame")
	oneLine(t, r, fmt.Sprintf("bad.b2frame: frame 0, chunk 1 at frame offset %d: corrupt data", int64(fi.HeaderLen)+c.Entry), "block 0")
}
