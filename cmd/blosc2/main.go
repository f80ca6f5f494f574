// Command blosc2 compresses and decompresses Blosc2 data with the habits
// of gzip and zstd: chunks, contiguous frames (.b2frame), sparse frames
// (directories), b2nd arrays (.b2nd), and it reads the older beta-era
// frames and packed super-chunks.
//
//	blosc2 compress [-1…-9] [-k] [-f] [-c | -o OUT] [--format cframe|sframe|chunk] [--chunksize N] [--meta NAME=HEX]... [--vlmeta NAME=VALUE]... [--shape A,B --dtype '<f8'] [flags] [FILE]
//	blosc2 decompress [-k] [-f] [-c | -o OUT] [--threads N] [FILE]
//	blosc2 info [--json] [--max-chunks N] FILE
//	blosc2 repair [-o OUT] FILE
//	blosc2 recover [-o OUT] FILE
//	blosc2 bench [compress flags] [--reps N] [FILE]
//
// compress FILE writes FILE.b2frame and removes FILE (-k keeps it);
// decompress FILE.b2frame writes FILE. Without FILE, standard input goes
// to standard output; -c writes to standard output; -o names the output
// (and keeps the input, as zstd -o). Existing outputs are kept unless -f.
// On a terminal, long jobs show their progress on standard error.
//
// A frame written to a pipe has its header sizes unpatched: this command
// and the Go readers read it, C-Blosc2 does not until 'blosc2 repair'
// patches it. 'blosc2 recover' rebuilds a valid frame from one whose
// writer died, keeping every whole chunk. 'blosc2 bench' compresses a file
// (or an embedded ECG sample) into a frame in memory and back, and prints
// one JSON line.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

const usage = `usage:
  blosc2 compress [-1..-9] [-k] [-f] [-c | -o OUT] [--format cframe|sframe|chunk] [flags] [FILE]
  blosc2 decompress [-k] [-f] [-c | -o OUT] [--threads N] [FILE]
  blosc2 info [--json] [--max-chunks N] FILE
  blosc2 repair [-o OUT] FILE
  blosc2 recover [-o OUT] FILE
  blosc2 bench [compress flags] [--reps N] [FILE]

compress FILE writes FILE.b2frame and removes FILE (-k keeps it); without
FILE, standard input goes to standard output.
Run 'blosc2 COMMAND -h' for a command's flags.
`

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "blosc2:", err)
		}
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	cmd, args := args[0], args[1:]
	switch cmd {
	case "compress", "c":
		return cmdCompress(args, stdin, stdout, stderr)
	case "decompress", "d":
		return cmdDecompress(args, stdin, stdout, stderr)
	case "info":
		return cmdInfo(args, stdout, stderr)
	case "bench":
		return cmdBench(args, stdout, stderr)
	case "repair":
		return cmdRepair(args, stdin, stdout, stderr)
	case "recover":
		return cmdRecover(args, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments (Go's flag package stops at the first positional).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "-" || !strings.HasPrefix(args[0], "-") {
			pos = append(pos, args[0])
			args = args[1:]
			continue
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
	}
}

// openInput opens the named file, or stdin for "" and "-".
func openInput(name string, stdin io.Reader) (io.ReadCloser, error) {
	if name == "" || name == "-" {
		return io.NopCloser(stdin), nil
	}
	return os.Open(name)
}

// writeOutput writes data to the named file, or stdout for "" and "-".
func writeOutput(name string, stdout io.Writer, data []byte) error {
	if name == "" || name == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return os.WriteFile(name, data, 0o644)
}
