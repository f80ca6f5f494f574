package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/stream"
)

// source is an opened input: a file, a sparse frame directory (path only)
// or standard input.
type source struct {
	name string      // as given; "-" for standard input
	r    io.Reader   // nil for a directory
	info os.FileInfo // of what was opened; nil for standard input that is no file
	file bool        // a file given by name, which --rm / no -k may remove
	size int64       // -1 if unknown
	c    io.Closer
}

func (in *source) Close() {
	if in.c != nil {
		in.c.Close()
	}
}

// openFor opens the input name and checks out ("" for standard output)
// against it with checkOutput, whose direct it returns.
func (o *gzOptions) openFor(name, out string, dirOK bool) (*source, bool, error) {
	in, err := o.openInput(name, dirOK)
	if err != nil || out == "" {
		return in, false, err
	}
	direct, err := checkOutput(out, in.info, o.force)
	if err != nil {
		in.Close()
		return nil, false, err
	}
	return in, direct, nil
}

// openInput opens name ("-": standard input) the way gzip does: a
// symbolic link or a special file is refused without -f, a directory is
// skipped (unless dirOK: a sparse frame being decompressed).
func (o *gzOptions) openInput(name string, dirOK bool) (*source, error) {
	if name == "-" {
		in := &source{name: name, r: o.stdin, size: -1}
		if f, ok := o.stdin.(*os.File); ok {
			if o.mode != modeCompress && isTerminal(f) && !o.force {
				return nil, errors.New("stdin is a console, aborting")
			}
			in.info, _ = f.Stat() // for the same-file check of -o
		}
		return in, nil
	}
	lst, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if lst.Mode()&os.ModeSymlink != 0 && !o.force {
		return nil, errors.New("is a symbolic link; not followed (use -f)")
	}
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		if dirOK && isSparse(name) {
			return &source{name: name, info: st, size: -1}, nil
		}
		return nil, warningf("is a directory; ignored (use -r)")
	}
	if !st.Mode().IsRegular() && !o.force {
		return nil, warningf("is not a regular file; ignored (use -f)")
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, err
	}
	size := int64(-1)
	if st.Mode().IsRegular() {
		size = st.Size()
	}
	return &source{name: name, r: f, info: st, file: true, size: size, c: f}, nil
}

// output decides where the result for input name goes: "" for standard
// output, else a path; remove says whether the input goes once the
// output is safe (FILE → FILE.b2frame as gzip, unless -k; with -o only
// with --rm, as zstd).
func (o *gzOptions) output(name string, toName func(string) (string, error)) (out string, remove bool, err error) {
	switch {
	case o.toStdout || o.out == "-":
		return "", false, nil
	case o.out != "":
		return o.out, o.rm && !o.keep && name != "-", nil
	case name == "-":
		return "", false, nil
	}
	out, err = toName(name)
	return out, !o.keep, err
}

// compressOne compresses one input (see cmdGzip).
func (o *gzOptions) compressOne(name string) error {
	p, err := o.cf.params()
	if err != nil {
		return err
	}
	ext := formatExt[o.format]
	if o.nd.shape != "" {
		ext = ".b2nd"
	}
	out, remove, err := o.output(name, func(in string) (string, error) { return compressedName(in, ext) })
	if err != nil {
		return err
	}
	if out == "" && o.format == "sframe" {
		return fmt.Errorf("--format sframe writes a directory: give it with -o or an input file")
	}
	if out == "" && isTerminal(o.stdout) && !o.force {
		return fmt.Errorf("compressed data not written to a terminal (use -f to force, -o or redirect)")
	}
	in, direct, err := o.openFor(name, out, false)
	if err != nil {
		return err
	}
	defer in.Close()
	src, stop := withProgress(in.r, name, in.size, o.stderr, out != "" && !o.quiet)
	cr := &countReader{r: src}
	written, err := o.compressTo(cr, out, direct, p, in)
	stop()
	if err != nil {
		return err
	}
	return o.done(in, out, remove, cr.n, written)
}

// compressTo compresses r into out (a temporary beside it, renamed into
// place once complete) or standard output; it returns the bytes written.
func (o *gzOptions) compressTo(r io.Reader, out string, direct bool, p blosc2.CParams, in *source) (int64, error) {
	if o.format == "sframe" && o.nd.shape == "" {
		d, err := createDirSink(out)
		if err != nil {
			return 0, err
		}
		if err := compressSparse(r, d.tmp, p, o.chunksize, o.metas, o.vlmetas, o.noChecksum); err != nil {
			d.abort()
			return 0, err
		}
		return dirSize(d.tmp), d.commit(in.info)
	}
	if out == "" {
		return -1, o.compressStream(r, o.stdout, p)
	}
	f, err := createFileSink(out, direct)
	if err != nil {
		return 0, err
	}
	if err := o.compressStream(r, f.File, p); err != nil {
		f.abort()
		return 0, err
	}
	n := int64(-1)
	if st, err := f.Stat(); err == nil {
		n = st.Size()
	}
	if in.name == "-" {
		return n, f.commit(nil)
	}
	return n, f.commit(in.info)
}

// compressStream writes r to w in the chosen container. The frame
// writers patch the header when w can seek (a file).
func (o *gzOptions) compressStream(r io.Reader, w io.Writer, p blosc2.CParams) error {
	switch {
	case o.nd.shape != "":
		return compressB2nd(r, w, p, &o.nd, o.noChecksum)
	case o.format == "chunk":
		if a, _ := o.cf.auto(o.autoSupported()); a != nil {
			return compressChunkAuto(r, w, a)
		}
		return compressChunk(r, w, &p)
	case o.format == "blosc1":
		p.Format = blosc2.ChunkBlosc1
		return compressChunk(r, w, &p)
	}
	opts := []stream.WriterOption{stream.WithCParams(p)}
	if a, _ := o.cf.auto(o.autoSupported()); a != nil {
		opts = append(opts, stream.WithAuto(*a))
	}
	return compressFrame(r, w, opts, o.chunksize, o.metas, o.vlmetas, o.noChecksum)
}

// done reports (-v) and removes the input once its output is safe on disk.
func (o *gzOptions) done(in *source, out string, remove bool, nin, nout int64) error {
	what := "written to standard output"
	if out != "" {
		what = "wrote " + out
	}
	if remove && in.file {
		in.Close() // before removing: some systems refuse to remove open files
		if err := os.Remove(in.name); err != nil {
			return fmt.Errorf("output %s complete, but the input stays: %w", out, err)
		}
		what = "replaced with " + out
	}
	if o.verbose {
		ratio := 0.0
		switch {
		case nout < 0:
			fmt.Fprintf(o.stderr, "%s: %d bytes in -- %s\n", in.name, nin, what)
			return nil
		case o.mode == modeCompress && nout > 0:
			ratio = float64(nin) / float64(nout)
		case o.mode != modeCompress && nin > 0:
			ratio = float64(nout) / float64(nin)
		}
		fmt.Fprintf(o.stderr, "%s: %d -> %d bytes (ratio %.3f) -- %s\n", in.name, nin, nout, ratio, what)
	}
	return nil
}

func compressChunk(r io.Reader, w io.Writer, p *blosc2.CParams) error {
	src, err := readChunkInput(r)
	if err != nil {
		return err
	}
	chunk, err := blosc2.Compress(nil, src, p)
	if err != nil {
		return err
	}
	_, err = w.Write(chunk)
	return err
}

// compressChunkAuto writes one chunk with the automatic mode's choice.
func compressChunkAuto(r io.Reader, w io.Writer, a *blosc2.Auto) error {
	src, err := readChunkInput(r)
	if err != nil {
		return err
	}
	chunk, _, err := blosc2.CompressAuto(nil, src, a)
	if err != nil {
		return err
	}
	_, err = w.Write(chunk)
	return err
}

// readChunkInput reads what one chunk can hold, or fails.
func readChunkInput(r io.Reader) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, blosc2.MaxBufferSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > blosc2.MaxBufferSize {
		return nil, fmt.Errorf("a chunk holds at most %d bytes; use a frame", blosc2.MaxBufferSize)
	}
	return src, nil
}

// compressFrame writes a contiguous frame through the stream package
// (opts give the chunk parameters, fixed or automatic): chunks compressed
// by a goroutine pipeline, header patched when w is a file.
func compressFrame(r io.Reader, w io.Writer, opts []stream.WriterOption, chunksize int, metas metaList, vlmetas vlmetaList, noChecksum bool) error {
	opts = append(opts, stream.WithChunkSize(chunksize))
	if noChecksum {
		opts = append(opts, stream.WithoutChecksums())
	}
	for _, m := range metas {
		opts = append(opts, stream.WithMetalayer(m.name, m.content))
	}
	for _, v := range vlmetas {
		opts = append(opts, stream.WithVLMetalayer(v[0], []byte(v[1])))
	}
	zw, err := stream.NewWriter(w, opts...)
	if err != nil {
		return err
	}
	if _, err := zw.ReadFrom(r); err != nil {
		zw.Close()
		return err
	}
	return zw.Close()
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// dirSize is the total size of the files in dir.
func dirSize(dir string) int64 {
	var n int64
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return n
}
