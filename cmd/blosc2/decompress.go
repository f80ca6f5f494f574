package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/stream"
)

// decompressOne decodes one input (see cmdGzip) — a chunk, a contiguous
// frame, a sparse frame directory or an older container, told apart by
// content — into its output, or, testing (-t), into nothing: the same
// decoding path either way.
func (o *gzOptions) decompressOne(name string) error {
	out, remove := "", false
	if o.mode == modeDecompress {
		var err error
		if out, remove, err = o.output(name, decompressedName); err != nil {
			return err
		}
	}
	in, direct, err := o.openFor(name, out, true)
	if err != nil {
		return err
	}
	defer in.Close()
	var w io.Writer = io.Discard
	var sink *fileSink
	switch {
	case o.mode == modeTest:
	case out == "":
		w = o.stdout
	default:
		if sink, err = createFileSink(out, direct); err != nil {
			return err
		}
		w = sink
	}
	r := in.r
	if in.name == "-" {
		var stop func()
		r, stop = withProgress(r, name, -1, o.stderr, out != "" && !o.quiet)
		defer stop()
	}
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	err = decompressInput(bw, in, r, o.dparams())
	if err == nil {
		err = bw.Flush()
	}
	if sink != nil {
		if err != nil {
			sink.abort()
			return err
		}
		meta := in.info
		if in.name == "-" {
			meta = nil
		}
		if err = sink.commit(meta); err != nil {
			return err
		}
	}
	if err != nil {
		return err
	}
	if o.mode == modeTest {
		if o.verbose {
			fmt.Fprintf(o.stderr, "%s: OK (%d bytes)\n", name, cw.n)
		}
		return nil
	}
	nin := in.size
	if in.r == nil {
		nin = dirSize(name)
	}
	// A sparse frame directory is kept: removing it would mean removing a
	// directory tree, which this command never does to a path it did not
	// create.
	in.file = in.file && in.r != nil
	return o.done(in, out, remove, nin, cw.n)
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// decompressInput writes what in holds, decoded, to w; r reads in (or
// standard input). b2nd arrays decode to the array in C order, without
// chunk padding.
func decompressInput(w io.Writer, in *source, r io.Reader, dp blosc2.DParams) error {
	if in.name != "-" {
		if f, err := framereader.DetectFile(in.name); err == nil && (f == framereader.Contiguous || f == framereader.Sparse) {
			if ok, err := decompressB2nd(in.name, w, dp); ok || err != nil {
				return err
			}
		}
		return decompressTo(w, in.name, r, dp)
	}
	br := bufio.NewReaderSize(r, 1<<16)
	r = br
	if isB2ndStream(br) {
		// An array decodes in C order, which needs its chunks in another
		// order than they arrive: spool it to a temporary file (removed
		// after, and on signals) rather than into memory, so memory stays
		// bounded by a few chunks as for any frame.
		path, done, err := spool(br)
		if err != nil {
			return err
		}
		defer done()
		if ok, err := decompressB2nd(path, w, dp); ok || err != nil {
			return err
		}
		return decompressTo(w, path, nil, dp)
	}
	return decompressTo(w, "", r, dp)
}

// spool copies r to a new temporary file and returns its path and the
// function that removes it.
func spool(r io.Reader) (string, func(), error) {
	pending.Lock()
	f, err := os.CreateTemp("", "blosc2-stdin-*.b2nd")
	if err == nil {
		pending.paths[f.Name()] = true
	}
	pending.Unlock()
	if err != nil {
		return "", nil, err
	}
	done := func() {
		pending.Lock()
		os.Remove(f.Name())
		delete(pending.paths, f.Name())
		pending.Unlock()
	}
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		done()
		return "", nil, err
	}
	return f.Name(), done, nil
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
			r, err := framereader.Open(in, frameOptions(dp)...)
			if err != nil {
				return err
			}
			defer r.Close()
			_, err = r.WriteTo(w)
			return err
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
		r, err := framereader.NewReaderBytes(data, frameOptions(dp)...)
		if err != nil {
			return err
		}
		_, err = r.WriteTo(w)
		return err
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
	raw, err := blosc2.Decompress(nil, data, &dp)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, bytes.NewReader(raw))
	return err
}

// streamFrame decodes a contiguous frame with the stream package: chunks
// decompressed ahead by dp.Concurrency goroutines.
func streamFrame(w io.Writer, r io.Reader, dp blosc2.DParams) error {
	zr, err := stream.NewReader(r, stream.WithReaderConcurrency(dp.Concurrency), stream.WithMaxMemory(dp.MaxMemory))
	if err == nil {
		defer zr.Close()
		_, err = zr.WriteTo(w)
	}
	if errors.Is(err, blosc2.ErrTooLarge) {
		// As zstd asks for --memory for windows past its default.
		err = fmt.Errorf("%w (the cap is --memory %s)", err, sizeString(int64(dp.MaxMemory)))
	}
	return err
}
