package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// ioPlan is where a command reads and writes, decided the way gzip and
// zstd decide: FILE → FILE.b2frame (and back), stdin → stdout, -c to
// stdout, -o to a path, -k keeps the input, -f overwrites.
type ioPlan struct {
	in       string // "" for stdin
	out      string // "" for stdout
	removeIn bool   // delete the input once the output is complete
}

// gzipFlags are the flags compress and decompress share.
type gzipFlags struct {
	out      string
	toStdout bool
	keep     bool
	force    bool
}

func (g *gzipFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
}) {
	fs.StringVar(&g.out, "o", "", "output path (\"-\": standard output)")
	fs.BoolVar(&g.toStdout, "c", false, "write to standard output, keep the input")
	fs.BoolVar(&g.keep, "k", false, "keep the input file")
	fs.BoolVar(&g.force, "f", false, "overwrite the output; write compressed data to a terminal")
}

// plan decides the output for input in ("" or "-": stdin); name derives a
// default output path from the input path, or fails.
func (g *gzipFlags) plan(in string, name func(string) (string, error)) (ioPlan, error) {
	if in == "-" {
		in = ""
	}
	p := ioPlan{in: in}
	switch {
	case g.toStdout || g.out == "-":
	case g.out != "":
		p.out = g.out
	case in == "":
	default:
		out, err := name(in)
		if err != nil {
			return p, err
		}
		p.out = out
	}
	if p.out != "" && !g.force {
		if _, err := os.Lstat(p.out); err == nil {
			return p, fmt.Errorf("%s already exists; use -f to overwrite", p.out)
		}
	}
	if p.out != "" && p.out == in {
		return p, fmt.Errorf("%s: input and output are the same file", in)
	}
	// As gzip, FILE → FILE.b2frame replaces the input unless -k; with an
	// explicit -o the input stays, as with zstd -o.
	p.removeIn = in != "" && p.out != "" && g.out == "" && !g.keep
	return p, nil
}

// compressedName is FILE.b2frame (or another extension).
func compressedName(ext string) func(string) (string, error) {
	return func(in string) (string, error) {
		if strings.HasSuffix(in, ext) {
			return "", fmt.Errorf("%s already has the %s suffix; use -o or -c", in, ext)
		}
		return in + ext, nil
	}
}

// knownSuffixes are the extensions decompress strips.
var knownSuffixes = []string{".b2frame", ".b2nd", ".cdata", ".b2"}

func decompressedName(in string) (string, error) {
	trimmed := strings.TrimSuffix(in, "/")
	for _, s := range knownSuffixes {
		if strings.HasSuffix(trimmed, s) && len(trimmed) > len(s) {
			return strings.TrimSuffix(trimmed, s), nil
		}
	}
	return "", fmt.Errorf("%s: unknown suffix (%s); use -o or -c", in, strings.Join(knownSuffixes, ", "))
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress counts bytes read and, when stderr is a terminal and the data
// does not go to stdout, prints how far a long job is once a second has
// passed.
type progress struct {
	r     io.Reader
	total int64 // -1 if unknown
	mu    sync.Mutex
	n     int64
	stop  chan struct{}
	done  sync.WaitGroup
}

func startProgress(r io.Reader, total int64, stderr io.Writer, plan ioPlan) io.Reader {
	if plan.out == "" || !isTerminal(stderr) {
		return r
	}
	p := &progress{r: r, total: total, stop: make(chan struct{})}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		start := time.Now()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		shown := false
		for {
			select {
			case <-p.stop:
				if shown {
					fmt.Fprint(stderr, "\r\033[K")
				}
				return
			case <-t.C:
			}
			el := time.Since(start)
			if el < time.Second {
				continue
			}
			p.mu.Lock()
			n := p.n
			p.mu.Unlock()
			line := fmt.Sprintf("%s: %.1f MB, %.0f MB/s", plan.in, float64(n)/1e6, float64(n)/1e6/el.Seconds())
			if p.total > 0 {
				line = fmt.Sprintf("%s: %3.0f%% %.1f/%.1f MB, %.0f MB/s", plan.in, 100*float64(n)/float64(p.total), float64(n)/1e6, float64(p.total)/1e6, float64(n)/1e6/el.Seconds())
			}
			fmt.Fprintf(stderr, "\r%s\033[K", line)
			shown = true
		}
	}()
	activeProgress = p
	return p
}

// activeProgress is stopped by stopProgress when the command ends.
var activeProgress *progress

func stopProgress() {
	if activeProgress != nil {
		close(activeProgress.stop)
		activeProgress.done.Wait()
		activeProgress = nil
	}
}

func (p *progress) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.mu.Lock()
	p.n += int64(n)
	p.mu.Unlock()
	return n, err
}

// finish removes the input when the plan says so, after a success, or
// removes a partial output after a failure.
func finish(plan ioPlan, err error) error {
	stopProgress()
	if err != nil {
		if plan.out != "" {
			os.RemoveAll(plan.out)
		}
		return err
	}
	if plan.removeIn {
		return os.RemoveAll(plan.in)
	}
	return nil
}

// inputSize is the size of the named file, or -1.
func inputSize(name string) int64 {
	if name == "" {
		return -1
	}
	st, err := os.Stat(name)
	if err != nil || !st.Mode().IsRegular() {
		return -1
	}
	return st.Size()
}
