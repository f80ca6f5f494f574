package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// binPath is the command built once by TestMain: the tests that concern
// exit codes, signals, terminals and the file system run the real binary.
var binPath string

// launcherPath is testdata/launcher, built by TestMain: it runs a command
// and reports its peak resident memory (see runMeasured).
var launcherPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "blosc2-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "blosc2")
	launcherPath = filepath.Join(dir, "launcher")
	for _, b := range [][2]string{{binPath, "."}, {launcherPath, "./testdata/launcher"}} {
		if out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build %s: %v\n%s", b[1], err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what a run of the binary did.
type result struct {
	code           int
	stdout, stderr string
}

// runBin runs the built command in dir with stdin (nil: empty).
func runBin(t *testing.T, dir string, stdin []byte, args ...string) result {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("%v: %v", args, err)
	}
	return result{cmd.ProcessState.ExitCode(), o.String(), e.String()}
}

// mustRun runs the command and fails the test unless it exits 0.
func mustRun(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := runBin(t, dir, nil, args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
	}
	return r
}

// snapshot describes every path under dir: type, mode, and the SHA-256
// of each file's bytes or each symlink's target. Two equal snapshots mean
// nothing was created, removed or changed (times aside).
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		what := ""
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			what, _ = os.Readlink(p)
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			what = hex.EncodeToString(sum[:])
		}
		lines = append(lines, fmt.Sprintf("%s %v %s", rel, info.Mode(), what))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// oneLine checks that a failure was reported as one line
// "blosc2: NAME: ..." holding want, with no repeated prefix.
func oneLine(t *testing.T, r result, name, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "blosc2: "+name) || !strings.Contains(lines[0], want) ||
		strings.Contains(lines[0], "blosc2: blosc2") {
		t.Errorf("stderr %q: want one line \"blosc2: %s…%s…\"", r.stderr, name, want)
	}
}
