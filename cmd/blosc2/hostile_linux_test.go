package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blosc2go/blosc2/framewriter"
	"github.com/blosc2go/blosc2/internal/hostile"
	"github.com/blosc2go/blosc2/internal/hostile/traps"
)

// hostileCap is the --memory the hostile-input tests give the command,
// and hostileSlack what the process may take beyond it: the Go runtime,
// buffers, a compressed chunk being read.
const (
	hostileCap   = 64 << 20
	hostileSlack = 64 << 20
	hostileTime  = 60 * time.Second // generous: every case takes under 3 s here
)

// measured is one run of the command under measurement.
type measured struct {
	code    int
	out     int64  // bytes written to standard output
	nonZero bool   // some byte of the output was not 0
	head    []byte // the first MiB of the output
	stderr  string
	maxRSS  int64 // bytes
	took    time.Duration
}

// runMeasured runs the built command with stdin (nil: none) through the
// launcher (testdata/launcher: the test process's own memory would count
// in a child it starts) and reports its peak resident memory (ru_maxrss,
// what /usr/bin/time -f %M prints) and its time; it kills it past
// hostileTime.
func runMeasured(t *testing.T, stdin io.Reader, args ...string) measured {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostileTime)
	defer cancel()
	cmd := exec.CommandContext(ctx, launcherPath, append([]string{binPath}, args...)...)
	cmd.Stdin = stdin
	var e bytes.Buffer
	cmd.Stderr = &e
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	reportR, reportW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer reportR.Close()
	cmd.ExtraFiles = []*os.File{reportW}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reportW.Close()
	var m measured
	buf := make([]byte, 1<<20)
	zeros := make([]byte, len(buf))
	for {
		n, err := stdout.Read(buf)
		m.out += int64(n)
		if k := min(n, 1<<20-len(m.head)); k > 0 {
			m.head = append(m.head, buf[:k]...)
		}
		m.nonZero = m.nonZero || !bytes.Equal(buf[:n], zeros[:n])
		if err != nil {
			break
		}
	}
	report, _ := io.ReadAll(reportR)
	err = cmd.Wait()
	m.took = time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("%v: still running after %v", args, hostileTime)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%v: %v", args, err)
	}
	m.code, m.stderr = cmd.ProcessState.ExitCode(), e.String()
	if _, err := fmt.Sscan(string(report), &m.maxRSS); err != nil {
		t.Fatalf("%v: no memory report from the launcher (%q): %s", args, report, m.stderr)
	}
	return m
}

// TestHostileFramesBounded runs info, info --json and decompress (from
// the path and from a pipe) on each crafted frame of internal/hostile
// with --memory 64MiB: every run ends in time, within 64 MiB of the cap
// (peak RSS, as /usr/bin/time -f %M measures it), and either fails with
// an error message or writes exactly the bytes the frame holds; frames
// whose sizes lie always fail.
func TestHostileFramesBounded(t *testing.T) {
	dir := t.TempDir()
	frames := hostile.Frames(268_435_450)
	for _, f := range frames {
		path := filepath.Join(dir, f.Name+".b2frame")
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		check := func(how string, m measured) {
			t.Helper()
			if m.maxRSS > hostileCap+hostileSlack {
				t.Errorf("%s %s: peak RSS %d MiB, more than the cap %d MiB + %d MiB", f.Name, how, m.maxRSS>>20, hostileCap>>20, hostileSlack>>20)
			}
			if strings.Contains(m.stderr, "panic") || strings.Contains(m.stderr, "goroutine ") {
				t.Errorf("%s %s: %s", f.Name, how, m.stderr)
			}
			if m.code != 0 && !strings.HasPrefix(m.stderr, "blosc2: ") {
				t.Errorf("%s %s: exit %d without a message: %q", f.Name, how, m.code, m.stderr)
			}
			t.Logf("%-17s %-22s exit %d, %4d MiB peak, %6.2f s, %d bytes out", f.Name, how, m.code, m.maxRSS>>20, m.took.Seconds(), m.out)
		}
		mem := "--memory=64MiB"
		check("info", runMeasured(t, nil, "info", mem, path))
		if f.Name != "fill-zeros" { // 268 million rows: TestInfoKeepsOnlyWhatItPrints streams a million
			check("info --json", runMeasured(t, nil, "info", "--json", mem, path))
		}
		if testing.Short() {
			continue // gigabytes of output
		}
		for _, how := range []string{"decompress path", "decompress pipe"} {
			var m measured
			if how == "decompress path" {
				m = runMeasured(t, nil, "decompress", mem, "-c", path)
			} else {
				m = runMeasured(t, bytes.NewReader(f.Data), "decompress", mem, "-c")
			}
			check(how, m)
			switch {
			case m.code == 0 && (f.Out < 0 || m.out != f.Out):
				t.Errorf("%s %s: exit 0 with %d bytes, want %d bytes or an error", f.Name, how, m.out, f.Out)
			case m.code == 0 && m.nonZero && (f.Name == "fill-zeros" || f.Name == "huge-special"):
				t.Errorf("%s %s: bytes that are not zeros", f.Name, how)
			case m.code != 0 && f.Out >= 0 && !f.TooLarge && how == "decompress path":
				t.Errorf("%s %s: %s", f.Name, how, m.stderr)
			case m.code != 0 && f.TooLarge && !strings.Contains(m.stderr, "exceeds limit"):
				t.Errorf("%s %s: %s, want success or a size refusal", f.Name, how, m.stderr)
			}
		}
	}
}

// TestHostileSparseDirs: info and decompress on sparse frame directories
// holding links and FIFOs (internal/hostile/traps.Sparse) fail at once
// with a message, never hang or write the bytes a link points at (info
// describes the chunks it can read first).
func TestHostileSparseDirs(t *testing.T) {
	root := t.TempDir()
	mk := func(name string, fill byte) string {
		dir := filepath.Join(root, name)
		w, err := framewriter.CreateSparse(dir, framewriter.WithoutSync())
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := w.WriteChunk(bytes.Repeat([]byte{fill + byte(i)}, 100_000)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	outside := mk("outside", 0xE0)
	for _, trap := range traps.Sparse() {
		dir := mk(trap.Name, 1)
		if err := trap.Plant(dir, outside); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"info", dir}, {"decompress", "-c", dir}} {
			m := runMeasured(t, nil, args...)
			if m.code == 0 || bytes.Contains(m.head, []byte{0xE1}) || !strings.HasPrefix(m.stderr, "blosc2: ") || m.took > 10*time.Second {
				t.Errorf("%s %v: exit %d, %d bytes out, %v: %q", trap.Name, args, m.code, m.out, m.took, m.stderr)
			}
		}
	}
}
