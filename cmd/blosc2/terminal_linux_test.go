package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair (Linux /dev/ptmx): the command
// under test gets the terminal side as stdin or stdout.
func openPTY(t *testing.T) (tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("ptsname: %v", e)
	}
	tty, err = os.OpenFile("/dev/pts/"+itoaU(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

func itoaU(n uint32) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

// TestTerminals: decompress refuses a terminal on stdin as zstd does
// ("stdin is a console, aborting") instead of waiting; compress refuses
// a terminal on stdout; /dev/null, a character device but no terminal,
// is a fine stdout (isTerminal asks isatty, not "character device").
func TestTerminals(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), input(10000), 0o644)
	tty := openPTY(t)

	cmd := exec.Command(binPath, "decompress")
	cmd.Dir, cmd.Stdin = dir, tty
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 || !strings.Contains(stderr.String(), "stdin is a console, aborting") {
		t.Errorf("decompress with a terminal on stdin: %v %q", err, stderr.String())
	}

	cmd = exec.Command(binPath, "compress", "-c", "x")
	cmd.Dir, cmd.Stdout = dir, tty
	stderr.Reset()
	cmd.Stderr = &stderr
	err = cmd.Run()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 || !strings.Contains(stderr.String(), "not written to a terminal") {
		t.Errorf("compress -c to a terminal: %v %q", err, stderr.String())
	}

	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	cmd = exec.Command(binPath, "compress", "-c", "x")
	cmd.Dir, cmd.Stdout = dir, null
	stderr.Reset()
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Errorf("compress -c > /dev/null: %v %s", err, stderr.String())
	}
}
