package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
)

// listTable prints list's (-l's) summary, one row per file, as gzip -l and
// zstd -l do, and a total row when there are several files.
type listTable struct {
	w             io.Writer
	rows          int
	cbytes, bytes int64
	frames        int
	dp            blosc2.DParams // the memory cap reading frames
}

func newListTable(w io.Writer, dp blosc2.DParams) *listTable {
	fmt.Fprintf(w, "%14s %14s %8s %6s %-8s %s\n", "compressed", "uncompressed", "ratio", "frames", "codec", "name")
	return &listTable{w: w, dp: dp}
}

// add lists one file: a chunk, a frame file (every frame of a file that
// holds several one after the other), a sparse frame directory or an older
// container.
func (t *listTable) add(name string) error {
	st, err := os.Stat(name)
	if err != nil {
		return err
	}
	csize := st.Size()
	if st.IsDir() {
		csize = dirSize(name)
	}
	f, err := framereader.DetectFile(name)
	if err != nil {
		return err
	}
	var nbytes int64
	frames := 0
	codecName := ""
	switch f {
	case framereader.Unknown, framereader.PreTrailer:
		return errors.New("not a Blosc2 chunk, frame, sparse frame directory, beta frame or packed super-chunk")
	case framereader.Chunk:
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		h, err := blosc2.ParseHeader(data)
		if err != nil {
			return err
		}
		nbytes, codecName = int64(h.Nbytes), h.CodecName()
	default: // frames (every frame of a concatenation), a sparse frame, older containers
		rs, _, done, err := openFrames(name, t.dp)
		if err != nil {
			return err
		}
		for _, r := range rs {
			in := r.Info()
			nbytes += in.Nbytes
			if c := codec.Name(in.Codec); codecName == "" {
				codecName = c
			} else if c != codecName {
				codecName = "mixed"
			}
		}
		frames = len(rs)
		done()
	}
	t.row(csize, nbytes, frames, codecName, name)
	t.rows++
	t.cbytes += csize
	t.bytes += nbytes
	t.frames += frames
	return nil
}

func (t *listTable) row(c, u int64, frames int, codecName, name string) {
	fmt.Fprintf(t.w, "%14d %14d %8.3f %6d %-8s %s\n", c, u, ratioOf(u, c), frames, codecName, name)
}

// finish prints the total row of several files.
func (t *listTable) finish() {
	if t.rows > 1 {
		t.row(t.cbytes, t.bytes, t.frames, "", fmt.Sprintf("(%d files)", t.rows))
	}
}
