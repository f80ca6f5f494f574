package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/stream"
)

// levelFlag is one of -1 … -9: a shortcut for --clevel.
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

func cmdCompress(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf cflags
	cf.register(fs)
	for l := 1; l <= 9; l++ {
		fs.Var(levelFlag{l, &cf.clevel}, strconv.Itoa(l), fmt.Sprintf("same as --clevel %d", l))
	}
	var g gzipFlags
	g.register(fs)
	format := fs.String("format", "cframe", "output container: cframe (contiguous frame), sframe (sparse frame: a directory) or chunk (one chunk)")
	chunksize := fs.Int("chunksize", stream.DefaultChunkSize, "bytes per chunk in a frame")
	var metas metaList
	var vlmetas vlmetaList
	fs.Var(&metas, "meta", "fixed metalayer NAME=HEX (frames; repeatable)")
	fs.Var(&vlmetas, "vlmeta", "variable-length metalayer NAME=VALUE (frames; repeatable)")
	var nd b2ndFlags
	nd.register(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return fmt.Errorf("compress takes one input, got %d", len(pos))
	}
	p, err := cf.params()
	if err != nil {
		return err
	}
	in := ""
	if len(pos) == 1 {
		in = pos[0]
	}
	ext := map[string]string{"cframe": ".b2frame", "sframe": ".b2frame", "chunk": ".cdata"}[*format]
	if nd.shape != "" {
		ext = ".b2nd"
	}
	if ext == "" {
		return fmt.Errorf("unknown format %q (cframe, sframe or chunk)", *format)
	}
	if *format != "cframe" && *format != "sframe" && (len(metas) > 0 || len(vlmetas) > 0) {
		return fmt.Errorf("--meta and --vlmeta need a frame format")
	}
	plan, err := g.plan(in, compressedName(ext))
	if err != nil {
		return err
	}
	if plan.out == "" && isTerminal(stdout) && !g.force {
		return fmt.Errorf("compressed data not written to a terminal (use -f to force, -o or redirect)")
	}
	r, err := openInput(plan.in, stdin)
	if err != nil {
		return err
	}
	defer r.Close()
	src := startProgress(r, inputSize(plan.in), stderr, plan)
	switch {
	case nd.shape != "":
		err = compressB2nd(src, plan.out, stdout, p, &nd)
	case *format == "sframe":
		if plan.out == "" {
			return fmt.Errorf("--format sframe writes a directory: give it with -o or an input file")
		}
		err = compressSparse(src, plan.out, p, *chunksize, metas, vlmetas)
	case *format == "chunk":
		err = compressChunk(src, plan.out, stdout, &p)
	default:
		err = compressStream(src, plan.out, stdout, p, *chunksize, metas, vlmetas)
	}
	return finish(plan, err)
}

func compressChunk(r io.Reader, out string, stdout io.Writer, p *blosc2.CParams) error {
	src, err := io.ReadAll(io.LimitReader(r, blosc2.MaxBufferSize+1))
	if err != nil {
		return err
	}
	if len(src) > blosc2.MaxBufferSize {
		return fmt.Errorf("a chunk holds at most %d bytes; use a frame", blosc2.MaxBufferSize)
	}
	chunk, err := blosc2.Compress(nil, src, p)
	if err != nil {
		return err
	}
	return writeOutput(out, stdout, chunk)
}

// compressStream writes a contiguous frame through the stream package:
// chunks compressed by a goroutine pipeline, header patched when the
// output is a file.
func compressStream(r io.Reader, out string, stdout io.Writer, p blosc2.CParams, chunksize int, metas metaList, vlmetas vlmetaList) error {
	opts := []stream.WriterOption{stream.WithCParams(p), stream.WithChunkSize(chunksize)}
	for _, m := range metas {
		opts = append(opts, stream.WithMetalayer(m.name, m.content))
	}
	for _, v := range vlmetas {
		opts = append(opts, stream.WithVLMeta(v[0], []byte(v[1])))
	}
	dst := stdout
	if out != "" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		dst = f
	}
	w, err := stream.NewWriter(dst, opts...)
	if err != nil {
		return err
	}
	if _, err := w.ReadFrom(r); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if f, ok := dst.(*os.File); ok && out != "" {
		return f.Close()
	}
	return nil
}
