package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/blosc2go/blosc2/framewriter"
)

// cmdJoin makes one frame of the frames of its inputs, in order: a file
// appended to with >>, cat of several archives, a socket's flushed frames
// saved to a file. C-Blosc2 opens only the first frame of a file; the
// joined one it opens whole.
func cmdJoin(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("join", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the joined frame here (default, with one FILE: replace FILE)")
	force := fs.Bool("f", false, "overwrite an existing -o file")
	noSums := fs.Bool("no-checksum", false, "leave out the per-chunk checksums (as C-Blosc2)")
	verbose := fs.Bool("v", false, "say what was joined")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: blosc2 join [-o OUT] [-f] FILE...\n\nCopies the compressed chunks of every frame of FILE... (in order) into one frame that C-Blosc2 opens,\nwithout recompressing: the first frame's parameters and metalayers, the vlmetalayers the frames agree on.")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || (*out == "" && len(pos) > 1) {
		fs.Usage()
		return fmt.Errorf("join takes FILE... and -o OUT, or one FILE to replace")
	}
	target, replace := *out, *out == ""
	if replace {
		target = pos[0]
	}
	var files concatFiles
	defer files.Close()
	for _, name := range pos {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return err
		}
		if !st.Mode().IsRegular() {
			f.Close()
			return fmt.Errorf("%s: not a regular file", name)
		}
		if !replace {
			if _, err := checkOutput(target, st, *force); err != nil {
				f.Close()
				return err
			}
		}
		files.add(f, st)
	}
	direct := false
	if !replace {
		direct, _ = checkOutput(target, nil, true)
	}
	dst, err := createFileSink(target, direct)
	if err != nil {
		return err
	}
	var opts []framewriter.WriterOption
	if *noSums {
		opts = append(opts, framewriter.WithoutChecksums())
	}
	rep, err := framewriter.Join(dst.File, &files, files.size, opts...)
	if err != nil {
		dst.abort()
		return fmt.Errorf("%s: %w", strings.Join(pos, ", "), err)
	}
	if err := dst.commit(files.infos[0]); err != nil {
		return err
	}
	if *verbose || len(rep.DroppedVLMeta) > 0 {
		fmt.Fprintf(stderr, "%s: %d frames, %d chunks, %d bytes joined", target, rep.Frames, rep.Chunks, rep.Nbytes)
		if len(rep.DroppedVLMeta) > 0 {
			fmt.Fprintf(stderr, "; vlmetalayers the frames disagree on, left out: %s", strings.Join(rep.DroppedVLMeta, ", "))
		}
		fmt.Fprintln(stderr)
	}
	return nil
}

// concatFiles reads several files as one io.ReaderAt, one after the other.
type concatFiles struct {
	files  []*os.File
	infos  []os.FileInfo
	starts []int64 // offset of each file; size the total
	size   int64
}

func (c *concatFiles) add(f *os.File, st os.FileInfo) {
	c.files = append(c.files, f)
	c.infos = append(c.infos, st)
	c.starts = append(c.starts, c.size)
	c.size += st.Size()
}

func (c *concatFiles) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		o := off + int64(n)
		if o >= c.size {
			return n, io.EOF
		}
		i := sort.Search(len(c.starts), func(i int) bool { return c.starts[i] > o }) - 1
		end := c.size
		if i+1 < len(c.starts) {
			end = c.starts[i+1]
		}
		k, err := c.files[i].ReadAt(p[n:n+int(min(int64(len(p)-n), end-o))], o-c.starts[i])
		n += k
		if err != nil && err != io.EOF {
			return n, err
		}
		if k == 0 {
			return n, io.ErrUnexpectedEOF
		}
	}
	return n, nil
}

func (c *concatFiles) Close() {
	for _, f := range c.files {
		f.Close()
	}
}
