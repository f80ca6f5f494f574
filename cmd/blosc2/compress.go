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
	format := fs.String("format", "chunk", "output container: chunk")
	out := fs.String("o", "", "output file (default stdout)")
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

func cmdDecompress(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("decompress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output file (default stdout)")
	threads := fs.Int("threads", 1, "goroutines per chunk")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return fmt.Errorf("decompress takes one input, got %d", len(pos))
	}
	in := ""
	if len(pos) == 1 {
		in = pos[0]
	}
	r, err := openInput(in, stdin)
	if err != nil {
		return err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	h, err := blosc2.ParseHeader(data)
	if err != nil || h.Cbytes != len(data) {
		return fmt.Errorf("input is not a Blosc2 chunk (%v)", err)
	}
	raw, err := blosc2.DecompressWith(nil, data, &blosc2.DParams{Threads: *threads})
	if err != nil {
		return err
	}
	return writeOutput(*out, stdout, raw)
}
