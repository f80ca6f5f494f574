package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/blosc2go/blosc2"
)

func cmdCompress(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf cflags
	cf.register(fs)
	format := fs.String("format", "cframe", "output container: cframe (contiguous frame), sframe (sparse frame: a directory, needs -o) or chunk (one chunk)")
	out := fs.String("o", "", "output file (default stdout; for sframe, the directory)")
	chunksize := fs.Int("chunksize", 1<<20, "bytes per chunk in a frame")
	var metas metaList
	var vlmetas vlmetaList
	fs.Var(&metas, "meta", "fixed metalayer NAME=HEX (frames; repeatable)")
	fs.Var(&vlmetas, "vlmeta", "variable-length metalayer NAME=VALUE (frames; repeatable)")
	var bf b2ndFlags
	bf.register(fs)
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
	if bf.shape != "" {
		if *format != "cframe" || len(metas) > 0 || len(vlmetas) > 0 {
			return fmt.Errorf("--shape writes a b2nd array in a contiguous frame: no --format %s, --meta or --vlmeta", *format)
		}
		r, err := openInput(in, stdin)
		if err != nil {
			return err
		}
		defer r.Close()
		return compressB2nd(r, *out, stdout, p, &bf)
	}
	switch *format {
	case "cframe", "sframe":
		return compressFrame(*format, in, *out, stdin, stdout, p, *chunksize, metas, vlmetas)
	case "chunk":
		if len(metas) > 0 || len(vlmetas) > 0 {
			return fmt.Errorf("--meta and --vlmeta need a frame format")
		}
	default:
		return fmt.Errorf("unknown format %q (cframe, sframe or chunk)", *format)
	}
	r, err := openInput(in, stdin)
	if err != nil {
		return err
	}
	defer r.Close()
	switch *format {
	case "chunk":
		src, err := io.ReadAll(io.LimitReader(r, blosc2.MaxBufferSize+1))
		if err != nil {
			return err
		}
		chunk, err := blosc2.Compress(nil, src, &p)
		if err != nil {
			return err
		}
		return writeOutput(*out, stdout, chunk)
	}
	return fmt.Errorf("unknown format %q", *format)
}
