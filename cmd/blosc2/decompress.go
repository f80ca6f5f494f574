package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/stream"
)

// cmdDecompress decodes a chunk, a contiguous frame, a sparse frame
// directory, or an older container, told apart by content.
func cmdDecompress(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("decompress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var g gzipFlags
	g.register(fs)
	threads := fs.Int("threads", 0, "goroutines decompressing (0: one per CPU, at most 8)")
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
	plan, err := g.plan(in, decompressedName)
	if err != nil {
		return err
	}
	return finish(plan, decompressPlan(plan, stdin, stdout, stderr, threadCount(*threads)))
}

func decompressPlan(plan ioPlan, stdin io.Reader, stdout, stderr io.Writer, threads int) error {
	dp := blosc2.DParams{Threads: threads}
	// b2nd arrays decode to the array in C order, without chunk padding.
	if plan.in != "" {
		if f, err := framereader.DetectFile(plan.in); err == nil && (f == framereader.Contiguous || f == framereader.Sparse) {
			if ok, err := decompressB2nd(plan.in, plan.out, stdout, threads); ok || err != nil {
				return err
			}
		}
	} else {
		br := bufio.NewReaderSize(stdin, 1<<16)
		stdin = br
		if isB2ndStream(br) {
			data, err := io.ReadAll(br)
			if err != nil {
				return err
			}
			if ok, err := decompressB2ndBytes(data, plan.out, stdout, threads); ok || err != nil {
				return err
			}
			stdin = bytes.NewReader(data)
		}
	}
	var w io.Writer = stdout
	if plan.out != "" {
		f, err := os.Create(plan.out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := decompressTo(bw, plan.in, startProgress(stdin, -1, stderr, plan), dp); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if f, ok := w.(*os.File); ok && plan.out != "" {
		return f.Close()
	}
	return nil
}

func decompressTo(w io.Writer, in string, stdin io.Reader, dp blosc2.DParams) error {
	if in != "" && in != "-" {
		f, err := framereader.DetectFile(in)
		if err != nil {
			return err
		}
		switch f {
		case framereader.Chunk:
			data, err := os.ReadFile(in)
			if err != nil {
				return err
			}
			return decompressChunk(w, data, dp)
		case framereader.Contiguous:
			f, err := os.Open(in)
			if err != nil {
				return err
			}
			defer f.Close()
			return streamFrame(w, f, dp)
		case framereader.Sparse, framereader.Beta, framereader.Packed:
			r, err := framereader.Open(in, framereader.WithDParams(dp))
			if err != nil {
				return err
			}
			defer r.Close()
			return copyFrame(w, r)
		case framereader.PreTrailer:
			return fmt.Errorf("%s: development frame without trailer (C-Blosc2 ≤ v2.0.0-beta.1): no reader for it", in)
		}
		return fmt.Errorf("%s: not a Blosc2 chunk, frame, sparse frame directory, beta frame or packed super-chunk", in)
	}
	// Standard input: frames are decoded as they arrive.
	br := bufio.NewReaderSize(stdin, 1<<16)
	head, _ := br.Peek(128)
	if framereader.Detect(head, -1) == framereader.Contiguous {
		return streamFrame(w, br, dp)
	}
	data, err := io.ReadAll(br)
	if err != nil {
		return err
	}
	switch framereader.Detect(data, int64(len(data))) {
	case framereader.Chunk:
		return decompressChunk(w, data, dp)
	case framereader.Beta, framereader.Packed:
		r, err := framereader.NewReaderBytes(data, framereader.WithDParams(dp))
		if err != nil {
			return err
		}
		return copyFrame(w, r)
	}
	_, err = framereader.NewReaderBytes(data)
	return err
}

// isB2ndStream reports whether the frame br starts with has a b2nd (or
// caterva) metalayer, looking at its header only.
func isB2ndStream(br *bufio.Reader) bool {
	head, _ := br.Peek(br.Size())
	if framereader.Detect(head, -1) != framereader.Contiguous {
		return false
	}
	s, err := framereader.NewChunkReader(bytes.NewReader(head))
	if err != nil {
		return false
	}
	for _, m := range s.Metalayers() {
		if m.Name == "b2nd" || m.Name == "caterva" {
			return true
		}
	}
	return false
}

func decompressChunk(w io.Writer, data []byte, dp blosc2.DParams) error {
	h, err := blosc2.ParseHeader(data)
	if err != nil || h.Cbytes != len(data) {
		return fmt.Errorf("input is not a Blosc2 chunk (%v)", err)
	}
	raw, err := blosc2.DecompressWith(nil, data, &dp)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, bytes.NewReader(raw))
	return err
}

// streamFrame decodes a contiguous frame with the stream package: chunks
// decompressed ahead by dp.Threads goroutines.
func streamFrame(w io.Writer, r io.Reader, dp blosc2.DParams) error {
	zr, err := stream.NewReader(r, stream.WithReaderConcurrency(dp.Threads))
	if err != nil {
		return err
	}
	defer zr.Close()
	_, err = zr.WriteTo(w)
	return err
}

// copyFrame decodes every chunk of r in order into w.
func copyFrame(w io.Writer, r *framereader.Reader) error {
	var buf []byte
	var err error
	for i := range r.NumChunks() {
		if buf, err = r.DecodeChunk(buf[:0], i); err != nil {
			return err
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}
