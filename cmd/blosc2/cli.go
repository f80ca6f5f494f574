package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/b2nd"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/stream"
	"github.com/dsnet/golib/unitconv"
)

// mode is what compress, decompress, test and list do to each file; the
// flags -z, -d, -t and -l choose it, as with gzip and zstd.
type mode int

const (
	modeCompress mode = iota
	modeDecompress
	modeTest
	modeList
)

var modeNames = [...]string{"compress", "decompress", "test", "list"}

// gzOptions are the flags of compress, decompress, test and list: one
// flag set for the four, as gzip and zstd have one, so that 'blosc2 -dkc
// FILE' works like 'zstd -dkc FILE'.
type gzOptions struct {
	mode      mode
	modeSet   string // the mode flag given, for conflicts
	cf        cflags
	out       string
	toStdout  bool
	keep      bool
	force     bool
	rm        bool
	recursive bool
	verbose   bool
	quiet     bool
	version   bool
	format    string
	chunksize int
	metas     metaList
	vlmetas   vlmetaList
	nd        b2ndFlags
	// noChecksum leaves out the chunk checksums frames carry by default.
	noChecksum bool
	mem        memoryCap

	stdin          io.Reader
	stdout, stderr io.Writer
}

// modeFlag is -z, -d, -t or -l.
type modeFlag struct {
	m    mode
	name string
	o    *gzOptions
}

func (f modeFlag) String() string   { return "" }
func (f modeFlag) IsBoolFlag() bool { return true }
func (f modeFlag) Set(s string) error {
	if s != "true" {
		return fmt.Errorf("-%s takes no value", f.name)
	}
	if f.o.modeSet != "" && f.o.mode != f.m {
		return fmt.Errorf("-%s and -%s conflict", f.o.modeSet, f.name)
	}
	f.o.mode, f.o.modeSet = f.m, f.name
	return nil
}

// levelFlag is one of -1 … -9 (and --fast, --best): the tier of the
// automatic mode (blosc2.TierFromLevel), or --clevel when it is off.
type levelFlag struct {
	level int
	dst   *int
}

func (l levelFlag) String() string   { return "" }
func (l levelFlag) IsBoolFlag() bool { return true }
func (l levelFlag) Set(s string) error {
	if s != "true" {
		return fmt.Errorf("-%d takes no value", l.level)
	}
	*l.dst = l.level
	return nil
}

// sizeValue is a byte count flag: 4194304, 4MiB, 4M, 4m, 4MB (powers of
// 1024, as zstd reads them).
type sizeValue int

func (v *sizeValue) String() string { return fmt.Sprint(int(*v)) }
func (v *sizeValue) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*v = sizeValue(n)
	return nil
}

// parseSize reads a byte count with an optional binary prefix. unitconv
// reads "4M" and "4Mi" as 4<<20 (Base1024); a trailing B is a unit, not
// a prefix, and a lower-case m means mega here, never milli.
func parseSize(s string) (int, error) { return parseSizeUpTo(s, math.MaxInt32) }

// parseSizeUpTo is parseSize with another largest size.
func parseSizeUpTo(s string, most int) (int, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(s, "B"), "b")
	t = strings.ToUpper(t)
	if strings.HasSuffix(t, "I") {
		t = t[:len(t)-1] + "i"
	}
	f, err := unitconv.ParsePrefix(t, unitconv.Base1024)
	if err != nil || t == "" {
		return 0, fmt.Errorf("%q is not a size (4194304, 4MiB, 4M)", s)
	}
	if f < 0 || f != math.Trunc(f) || f > float64(most) {
		return 0, fmt.Errorf("size %q outside 0-%d bytes", s, most)
	}
	return int(f), nil
}

// compressOnly are the flags that matter only when compressing; help for
// the other modes leaves them out.
var compressOnly = map[string]bool{
	"codec": true, "clevel": true, "typesize": true, "filter": true, "blocksize": true, "splitmode": true,
	"dict": true, "format": true, "chunksize": true, "meta": true, "vlmeta": true, "shape": true,
	"dtype": true, "chunkshape": true, "blockshape": true, "fast": true, "best": true, "no-checksum": true,
	"tier": true,
}

func newGzipFlagSet(o *gzOptions) *flag.FlagSet {
	fs := flag.NewFlagSet(modeNames[o.mode], flag.ContinueOnError)
	// Errors are reported once, by the caller; help goes to stdout.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.Var(modeFlag{modeCompress, "z", o}, "z", "compress (the default)")
	fs.Var(modeFlag{modeDecompress, "d", o}, "d", "decompress")
	fs.Var(modeFlag{modeTest, "t", o}, "t", "test: decode every FILE and check it, writing nothing")
	fs.Var(modeFlag{modeList, "l", o}, "l", "list: sizes, ratio, frames and codec of every FILE")
	o.cf.register(fs)
	fs.IntVar(&o.cf.threads, "T", 0, "same as --threads (-T0: one per CPU)")
	for l := 1; l <= 9; l++ {
		fs.Var(levelFlag{l, &o.cf.clevel}, fmt.Sprint(l), fmt.Sprintf("the %v tier in the automatic mode, else --clevel %d", blosc2.TierFromLevel(l), l))
	}
	fs.Var(levelFlag{1, &o.cf.clevel}, "fast", "same as -1")
	fs.Var(levelFlag{9, &o.cf.clevel}, "best", "same as -9")
	fs.StringVar(&o.out, "o", "", "write to this path (\"-\": standard output); keeps the input, as zstd -o")
	fs.BoolVar(&o.toStdout, "c", false, "write to standard output, keep the input")
	fs.BoolVar(&o.keep, "k", false, "keep the input file")
	fs.BoolVar(&o.force, "f", false, "overwrite existing output files, follow symbolic links, read special files, write compressed data to a terminal")
	fs.BoolVar(&o.rm, "rm", false, "remove the input after success, also with -o (not with -c)")
	fs.BoolVar(&o.recursive, "r", false, "recurse into directories")
	fs.BoolVar(&o.verbose, "v", false, "tell what was done to each file")
	fs.BoolVar(&o.quiet, "q", false, "no warnings, no progress")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.BoolVar(&o.version, "V", false, "same as --version")
	fs.StringVar(&o.format, "format", "cframe", "output container: cframe (contiguous frame), sframe (sparse frame: a directory), chunk (one chunk) or blosc1 (one C-Blosc 1.x chunk, as Zarr v2 and numcodecs read)")
	o.chunksize = stream.DefaultChunkSize
	fs.Var((*sizeValue)(&o.chunksize), "chunksize", "bytes per chunk in a frame (4194304, 4MiB, 4M)")
	fs.Var(&o.metas, "meta", "fixed metalayer NAME=HEX (frames; repeatable)")
	fs.Var(&o.vlmetas, "vlmeta", "variable-length metalayer NAME=VALUE (frames; repeatable)")
	o.mem.register(fs)
	fs.BoolVar(&o.noChecksum, "no-checksum", false, "leave out the per-chunk CRC-32C checksums frames carry by default (as C-Blosc2)")
	o.nd.register(fs)
	return fs
}

// printHelp writes the flags of mode m: one-letter flags with one dash,
// the others with two.
func printHelp(w io.Writer, m mode) {
	o := &gzOptions{mode: m}
	fs := newGzipFlagSet(o)
	fmt.Fprintf(w, "usage: blosc2 %s [flags] [FILE...]\n\n%s\n\nflags:\n", modeNames[m], modeHelp[m])
	fs.VisitAll(func(f *flag.Flag) {
		if m != modeCompress && compressOnly[f.Name] || m != modeCompress && len(f.Name) == 1 && f.Name >= "1" && f.Name <= "9" {
			return
		}
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		arg := ""
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
			arg = " VALUE"
			if f.DefValue != "" && f.DefValue != "0" {
				arg += " (default " + f.DefValue + ")"
			}
		}
		fmt.Fprintf(w, "  %s%s%s\n    \t%s\n", dash, f.Name, arg, f.Usage)
	})
}

var modeHelp = [...]string{
	"Compresses each FILE into FILE.b2frame and removes FILE (-k keeps it); without FILE,\nstandard input goes to standard output. Flags combine as in gzip: -9k, -kc, -T0.",
	"Decompresses each FILE.b2frame (.b2nd, .cdata, .b2, or a sparse frame directory) into FILE\nand removes FILE.b2frame (-k keeps it); without FILE, standard input goes to standard output.",
	"Decodes each FILE and checks it, writing nothing; exit status 1 if any is damaged.",
	"Prints the compressed and uncompressed sizes, ratio, frames and codec of each FILE.",
}

// expandArgs rewrites getopt-style clusters for the flag package: -9k →
// -9 -k, -kc → -k -c, -T0 → -T 0, -To OUT → -T... only one-letter flags
// cluster. A flag's value and everything after "--" are left alone.
func expandArgs(fs *flag.FlagSet, args []string) []string {
	var out []string
	takesValue := func(f *flag.Flag) bool {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		return !ok || !b.IsBoolFlag()
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := fs.Lookup(name); f != nil || a[1] == '-' {
			out = append(out, a)
			if f != nil && takesValue(f) && !hasValue && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		var ex []string
		ok := true
		for j := 1; j < len(a); j++ {
			f := fs.Lookup(a[j : j+1])
			if f == nil {
				ok = false
				break
			}
			ex = append(ex, "-"+a[j:j+1])
			if takesValue(f) {
				if j+1 < len(a) {
					ex = append(ex, a[j+1:])
				} else if i+1 < len(args) {
					i++
					ex = append(ex, args[i])
				}
				break
			}
		}
		if !ok {
			ex = []string{a} // the flag package names the unknown flag
		}
		out = append(out, ex...)
	}
	return out
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments (Go's flag package stops at the first positional);
// everything after "--" is positional, as with getopt.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos, tail []string
	for i, a := range args {
		if a == "--" {
			args, tail = args[:i], args[i+1:]
			break
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return append(pos, tail...), nil
		}
		pos = append(pos, args[0]) // fs.Parse stopped at a positional ("-" or a name)
		args = args[1:]
	}
}

// versionLine names the module version (the tag 'go install …@latest'
// built, "(devel)" in a checkout) and the Go version.
func versionLine() string {
	v, path := "(unknown)", "github.com/blosc2go/blosc2"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		if bi.Main.Path != "" {
			path = bi.Main.Path
		}
	}
	return fmt.Sprintf("blosc2 %s (%s), %s %s/%s", v, path, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// cmdGzip runs compress, decompress, test or list (m, unless a mode flag
// says otherwise) on every file named in args, each on its own: a file
// that fails is reported and the others are still done.
func cmdGzip(m mode, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	o := &gzOptions{mode: m, stdin: stdin, stdout: stdout, stderr: stderr}
	fs := newGzipFlagSet(o)
	files, err := parseInterleaved(fs, expandArgs(fs, args))
	if errors.Is(err, flag.ErrHelp) {
		printHelp(stdout, o.mode)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v (see 'blosc2 help %s')", modeNames[o.mode], err, modeNames[o.mode])
	}
	if o.version {
		fmt.Fprintln(stdout, versionLine())
		return nil
	}
	if err := o.check(len(files)); err != nil {
		return err
	}
	if o.mode != modeCompress {
		defer o.mem.limitHeap()()
	}
	if len(files) == 0 {
		if o.mode == modeList {
			return errors.New("list: needs FILE (standard input has no sizes to list)")
		}
		files = []string{"-"}
	}
	st := &status{stderr: stderr, quiet: o.quiet}
	if o.recursive {
		files = o.walk(files, st)
	}
	var tab *listTable
	if o.mode == modeList {
		tab = newListTable(stdout, o.dparams())
	}
	for _, name := range files {
		var err error
		switch o.mode {
		case modeCompress:
			err = o.compressOne(name)
		case modeDecompress, modeTest:
			err = o.decompressOne(name)
		case modeList:
			err = tab.add(name)
		}
		st.report(name, err)
	}
	if tab != nil {
		tab.finish()
	}
	return st.result()
}

// check validates the flags together, before any file is touched.
func (o *gzOptions) check(nfiles int) error {
	if o.mode == modeCompress {
		if _, err := o.cf.params(); err != nil {
			return err
		}
		if _, err := o.cf.auto(o.autoSupported()); err != nil {
			return err
		}
		if o.chunksize < 1 || o.chunksize > blosc2.MaxBufferSize {
			return fmt.Errorf("--chunksize %d outside 1-%d", o.chunksize, blosc2.MaxBufferSize)
		}
		if _, ok := formatExt[o.format]; !ok {
			return fmt.Errorf("unknown format %q (cframe, sframe, chunk or blosc1)", o.format)
		}
		if (o.format == "chunk" || o.format == "blosc1") && (len(o.metas) > 0 || len(o.vlmetas) > 0) {
			return fmt.Errorf("--meta and --vlmeta need a frame format")
		}
	}
	if o.cf.threads < 0 {
		return fmt.Errorf("--threads %d is negative (0: one per CPU, N: N goroutines)", o.cf.threads)
	}
	if o.out != "" && o.out != "-" && nfiles > 1 {
		return fmt.Errorf("-o names one output; got %d inputs (use -c, or no -o)", nfiles)
	}
	return nil
}

// walk replaces the directories among files by the files under them (-r).
// When decompressing, a sparse frame directory is an input itself.
func (o *gzOptions) walk(files []string, st *status) []string {
	var out []string
	for _, name := range files {
		info, err := os.Lstat(name)
		if err != nil || !info.IsDir() || o.mode != modeCompress && isSparse(name) {
			out = append(out, name)
			continue
		}
		err = filepath.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				st.report(p, err)
			case d.IsDir() && p != name && o.mode != modeCompress && isSparse(p):
				out = append(out, p)
				return fs.SkipDir
			case d.IsDir():
			case o.mode == modeCompress && strings.HasPrefix(d.Name(), ".") && strings.Contains(d.Name(), ".blosc2-"):
				// another run's temporary output
			case o.mode == modeCompress || hasKnownSuffix(p):
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			st.report(name, err)
		}
	}
	return out
}

func isSparse(dir string) bool {
	f, err := framereader.DetectFile(dir)
	return err == nil && f == framereader.Sparse
}

func hasKnownSuffix(p string) bool {
	_, err := decompressedName(p)
	return err == nil
}

// warning is a failure that gzip calls a warning: the file is left alone
// and the exit status is 2 unless another file failed.
type warning struct{ msg string }

func (w *warning) Error() string { return w.msg }

func warningf(format string, args ...any) error {
	return &warning{fmt.Sprintf(format, args...)}
}

// status collects how each file went: one line on stderr per failure.
type status struct {
	stderr io.Writer
	quiet  bool
	code   int
	lines  []string
}

func (s *status) report(name string, err error) {
	if err == nil {
		return
	}
	line := describe(name, err)
	var w *warning
	if errors.As(err, &w) {
		if s.code == 0 {
			s.code = 2
		}
		if s.quiet {
			return
		}
	} else {
		s.code = 1
	}
	fmt.Fprintln(s.stderr, line)
	s.lines = append(s.lines, line)
}

func (s *status) result() error {
	if s.code == 0 {
		return nil
	}
	return &exitStatus{s.code, strings.Join(s.lines, "\n")}
}

// exitStatus is an error already reported on stderr: main only exits with
// its code.
type exitStatus struct {
	code int
	msg  string
}

func (e *exitStatus) Error() string { return e.msg }

// describe is the one line that reports err about file name:
// "blosc2: NAME: what went wrong". The library's errors carry the
// "blosc2: " of their sentinels and often the path; both are said once.
func describe(name string, err error) string {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == name && msg == pe.Error() {
		msg = pe.Err.Error()
		if pe.Op != "open" && pe.Op != "stat" && pe.Op != "lstat" {
			msg = pe.Op + ": " + msg
		}
	}
	msg = clean(msg)
	msg = strings.TrimPrefix(msg, name+": ")
	if name == "-" {
		name = "(stdin)"
	}
	return "blosc2: " + name + ": " + msg
}

// clean removes the "blosc2: " prefixes nested inside a message, so a line
// starts with the command's name once.
func clean(msg string) string {
	return strings.ReplaceAll(msg, "blosc2: ", "")
}

// formatExt is the file name extension of each --format.
var formatExt = map[string]string{"cframe": ".b2frame", "sframe": ".b2frame", "chunk": ".cdata", "blosc1": ".cdata"}

// memoryCap is the --memory flag of the commands that read: what decoding
// may hold (chunks in flight, an index), whatever a file declares.
type memoryCap int

func (m *memoryCap) register(fs *flag.FlagSet) {
	*m = stream.DefaultMaxMemory
	fs.Var(m, "memory", "memory cap for decoding: chunks in flight, indexes (1GiB, 512M); larger chunks fail, naming the size they need")
}

func (m *memoryCap) String() string { return sizeString(int64(*m)) }
func (m *memoryCap) Set(s string) error {
	n, err := parseSizeUpTo(s, math.MaxInt)
	if err == nil && n < 1<<20 {
		err = fmt.Errorf("--memory %s is below 1 MiB", s)
	}
	*m = memoryCap(n)
	return err
}

// limitHeap makes the garbage collector keep the heap near the cap (plus
// 32 MiB for everything else; the runtime's own memory comes on top) while a command reads, so that the memory
// the process takes follows what decoding holds rather than twice that
// (GOGC's default); it returns the function that restores the limit.
func (m memoryCap) limitHeap() (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	if limit := int64(m) + 32<<20; limit < prev {
		debug.SetMemoryLimit(limit)
	}
	return func() { debug.SetMemoryLimit(prev) }
}

// dparams are the decoding parameters for threads goroutines within the
// cap.
func (m memoryCap) dparams(threads int) blosc2.DParams {
	return blosc2.DParams{Concurrency: threads, MaxMemory: int(m)}
}

// frameOptions are the framereader options for dp.
func frameOptions(dp blosc2.DParams) []framereader.ReaderOption {
	return []framereader.ReaderOption{framereader.WithConcurrency(dp.Concurrency), framereader.WithMaxMemory(dp.MaxMemory)}
}

// arrayOptions are the b2nd options for dp.
func arrayOptions(dp blosc2.DParams) []b2nd.ReaderOption {
	return []b2nd.ReaderOption{b2nd.WithConcurrency(dp.Concurrency), b2nd.WithMaxMemory(dp.MaxMemory)}
}

// dparams are the decoding parameters the flags give.
// autoSupported reports whether the output can take the automatic mode:
// contiguous frames and single Blosc2 chunks.
func (o *gzOptions) autoSupported() bool {
	return o.nd.shape == "" && (o.format == "cframe" || o.format == "chunk")
}

func (o *gzOptions) dparams() blosc2.DParams { return o.mem.dparams(threadCount(o.cf.threads)) }

// sizeString writes n bytes as --memory and --chunksize read it: a whole
// number of MiB or GiB when it is one (rounded up otherwise).
func sizeString(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", (n+1<<20-1)>>20)
	}
	return fmt.Sprint(n)
}
