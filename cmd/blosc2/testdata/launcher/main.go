// Command launcher runs the command its arguments name, as /usr/bin/time
// does, and writes the command's peak resident memory (ru_maxrss, in
// bytes) to file descriptor 3; it exits with the command's status.
//
// The hostile-input tests start the command through it rather than from
// the test process: a child inherits, in ru_maxrss, the memory of the
// process it was forked from before its exec, and the test process holds
// hundreds of megabytes of crafted frames. TestMain builds it for the
// machine it runs on.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		os.Exit(125)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		report := os.NewFile(3, "report")
		fmt.Fprint(report, ru.Maxrss<<10) // KiB on Linux
		report.Close()
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
