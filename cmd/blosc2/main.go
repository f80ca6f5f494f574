// Command blosc2 compresses and decompresses Blosc2 data with the habits
// of gzip and zstd: chunks, contiguous frames (.b2frame), sparse frames
// (directories), b2nd arrays (.b2nd), and it reads the older beta-era
// frames and packed super-chunks.
//
//	blosc2 compress [-1…-9] [-k] [-f] [-c | -o OUT] [--format cframe|sframe|chunk|blosc1] [--chunksize N] [flags] [FILE...]
//	blosc2 decompress [-k] [-f] [-c | -o OUT] [-T N] [FILE...]   (also blosc2 -d)
//	blosc2 test [FILE...]                                         (also blosc2 -t)
//	blosc2 list FILE...                                           (also blosc2 -l)
//	blosc2 info [--json] [--max-chunks N] FILE
//	blosc2 repair [-o OUT] FILE
//	blosc2 recover [-o OUT] FILE
//	blosc2 join [-o OUT] FILE...
//	blosc2 bench [compress flags] [--reps N] [FILE]
//
// compress FILE writes FILE.b2frame and removes FILE (-k keeps it);
// decompress FILE.b2frame writes FILE. Without FILE, standard input goes
// to standard output; -c writes to standard output; -o names the output
// (and keeps the input, as zstd -o). Existing outputs are kept unless -f.
// One-letter flags combine (-9k, -dc, -T0) and sizes take suffixes (4M,
// 4MiB). Outputs are written under a temporary name, synced and renamed
// into place before the input is removed; an interrupted run leaves
// nothing behind. On a terminal, long jobs show their progress on
// standard error. Exit status: 0 success, 1 error, 2 warning (a file
// skipped), 128+N killed by signal N.
//
// A frame written to a pipe has its header sizes unpatched: this command
// and the Go readers read it, C-Blosc2 does not until 'blosc2 repair'
// patches it; C-Blosc2 reads only the first frame of a file holding
// several (appends with >>, cat), which 'blosc2 join' makes one frame.
// 'blosc2 recover' rebuilds a valid frame from one whose
// writer died, keeping every whole chunk. 'blosc2 bench' compresses a file
// (or an embedded ECG sample) into a frame in memory and back, and prints
// one JSON line.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

const usage = `usage:
  blosc2 compress [-1..-9] [-k] [-f] [-c | -o OUT] [--format cframe|sframe|chunk|blosc1] [flags] [FILE...]
  blosc2 decompress [-k] [-f] [-c | -o OUT] [-T N] [FILE...]     (or blosc2 -d)
  blosc2 test [FILE...]                                          (or blosc2 -t)
  blosc2 list FILE...                                            (or blosc2 -l)
  blosc2 info [--json] [--max-chunks N] FILE
  blosc2 repair [-o OUT] FILE
  blosc2 recover [-o OUT] FILE
  blosc2 join [-o OUT] FILE...
  blosc2 bench [compress flags] [--reps N] [FILE]
  blosc2 --version

compress FILE writes FILE.b2frame and removes FILE (-k keeps it); without
FILE, standard input goes to standard output.
Run 'blosc2 help COMMAND' for a command's flags.
`

func main() {
	// An interrupted run removes its temporary outputs and exits as the
	// signal would have killed it.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-sigs
		removePending()
		os.Exit(signalExitCode(s))
	}()
	err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	pending.Lock() // a signal from here on finds nothing to clean
	var st *exitStatus
	switch {
	case err == nil:
		os.Exit(0)
	case errors.As(err, &st):
		os.Exit(st.code) // each failure is already on stderr
	}
	fmt.Fprintln(os.Stderr, "blosc2: "+clean(err.Error()))
	os.Exit(1)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "compress", "c":
		return cmdGzip(modeCompress, rest, stdin, stdout, stderr)
	case "decompress", "d":
		return cmdGzip(modeDecompress, rest, stdin, stdout, stderr)
	case "test", "t":
		return cmdGzip(modeTest, rest, stdin, stdout, stderr)
	case "list", "l":
		return cmdGzip(modeList, rest, stdin, stdout, stderr)
	case "info":
		return cmdInfo(rest, stdout, stderr)
	case "bench":
		return cmdBench(rest, stdout, stderr)
	case "repair":
		return cmdRepair(rest, stdin, stdout, stderr)
	case "recover":
		return cmdRecover(rest, stdout, stderr)
	case "join":
		return cmdJoin(rest, stdout, stderr)
	case "version", "--version", "-V":
		fmt.Fprintln(stdout, versionLine())
		return nil
	case "help", "-h", "--help":
		if len(rest) == 1 {
			for m, name := range modeNames {
				if rest[0] == name {
					printHelp(stdout, mode(m))
					return nil
				}
			}
			if rest[0] == "info" || rest[0] == "bench" || rest[0] == "repair" || rest[0] == "recover" || rest[0] == "join" {
				return run([]string{rest[0], "-h"}, stdin, stdout, stderr)
			}
		}
		fmt.Fprint(stdout, usage)
		return nil
	}
	if strings.HasPrefix(cmd, "-") && cmd != "-" {
		// gzip and zstd style: 'blosc2 -d FILE', 'blosc2 -9k FILE'.
		return cmdGzip(modeCompress, args, stdin, stdout, stderr)
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q (see 'blosc2 help')", cmd)
}

// openNamed opens the named file, or stdin for "-".
func openNamed(name string, stdin io.Reader) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(stdin), nil
	}
	return os.Open(name)
}
