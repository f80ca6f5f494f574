package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/b2nd"
)

// b2ndFlags are compress's flags for writing an N-dimensional array.
type b2ndFlags struct {
	shape, dtype, chunkshape, blockshape string
}

func (f *b2ndFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
}) {
	fs.StringVar(&f.shape, "shape", "", "write a b2nd array of this shape, e.g. 100,37 (a first extent of -1: as many rows as the input holds)")
	fs.StringVar(&f.dtype, "dtype", "", "NumPy dtype of the array, e.g. '<f8', '|u1', \"[('t','<i8'),('v','<f4')]\" (with --shape)")
	fs.StringVar(&f.chunkshape, "chunkshape", "", "chunk shape (with --shape; default about 1 MiB per chunk)")
	fs.StringVar(&f.blockshape, "blockshape", "", "block shape (with --shape; default about 32 KiB per block)")
}

// compressB2nd writes the C-order array read from r as a .b2nd frame to
// w (patched at the end when w is a file).
func compressB2nd(r io.Reader, w io.Writer, p blosc2.CParams, f *b2ndFlags, noChecksum bool) error {
	shape, err := b2nd.ParseShape(f.shape)
	if err != nil {
		return err
	}
	if f.dtype == "" {
		return fmt.Errorf("--shape needs --dtype")
	}
	opts := []b2nd.WriterOption{b2nd.WithCParams(p)}
	if noChecksum {
		opts = append(opts, b2nd.WithoutChecksums())
	}
	if f.chunkshape != "" {
		cs, err := b2nd.ParseShape32(f.chunkshape)
		if err != nil {
			return err
		}
		opts = append(opts, b2nd.WithChunkShape(cs...))
	}
	if f.blockshape != "" {
		bs, err := b2nd.ParseShape32(f.blockshape)
		if err != nil {
			return err
		}
		opts = append(opts, b2nd.WithBlockShape(bs...))
	}
	aw, err := b2nd.NewWriter(w, shape, f.dtype, opts...)
	if err != nil {
		return err
	}
	if _, err := io.Copy(aw, r); err != nil {
		aw.Close()
		return err
	}
	return aw.Close()
}

// decompressB2nd writes the array at path (file or sparse directory) in C
// order to out; ok is false when path is not an array.
func decompressB2nd(path string, w io.Writer, dp blosc2.DParams) (ok bool, err error) {
	a, ok, err := b2nd.OpenIfArray(path, arrayOptions(dp)...)
	if !ok || err != nil {
		return false, err
	}
	defer a.Close()
	_, err = a.WriteTo(w)
	return true, err
}

// infoB2nd prints the array's geometry; ok is false when path is not an
// array.
func infoB2nd(path string, asJSON bool, stdout io.Writer, dp blosc2.DParams) (ok bool, err error) {
	a, ok, err := b2nd.OpenIfArray(path, arrayOptions(dp)...)
	if !ok || err != nil {
		return false, err
	}
	defer a.Close()
	in := a.Info()
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return true, enc.Encode(struct {
			Kind string `json:"kind"`
			b2nd.Info
		}{"b2nd", in})
	}
	fmt.Fprintf(stdout, "b2nd array (%s metalayer): %s\n", in.MetaName, in)
	fmt.Fprintf(stdout, "  itemsize %d, %d items, %d bytes, %d chunks\n", in.ItemSize, in.NItems, in.NBytes, in.NChunks)
	return true, nil
}
