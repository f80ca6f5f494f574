package framewriter

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
)

// RepairFile turns the complete frame at path whose header sizes were
// never patched (written to a pipe or socket by a Writer) into a standard
// frame, in place: it locates the index and the trailer, derives
// frame_len, nbytes, cbytes, the chunk size and the format version, and
// rewrites the header in one write (after which it syncs, unless
// WithoutSync). A frame that is already patched is left alone. A frame
// whose writer died before finishing has no index: use RecoverFile. A file
// holding several frames is refused: Join makes one frame of them.
func RepairFile(path string, opts ...WriterOption) error {
	o, err := newOptions(opts)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := checkCurrent(f, st.Size()); err != nil {
		return err
	}
	l, err := frame.LoadContiguous(f, st.Size(), 0)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if l.End != st.Size() {
		return fmt.Errorf("%w: %s: the frame ends at %d of %d bytes: another frame (or other bytes) follows; join the frames", blosc2.ErrUnsupported, path, l.End, st.Size())
	}
	if !l.Unpatched {
		return nil
	}
	h := l.Header
	b := h.Append(nil)
	if len(b) != l.Header.HeaderLen {
		return fmt.Errorf("%w: %s: header re-encodes to %d bytes, not %d", blosc2.ErrUnsupported, path, len(b), l.Header.HeaderLen)
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		return err
	}
	if !o.noSync {
		return f.Sync()
	}
	return nil
}

// Repair copies the complete frame that src holds to dst in one pass,
// patching its header: the standard form of a frame written to a pipe.
// It reads src up to the end of the frame's trailer, and fails with
// blosc2.ErrUnsupported when another frame follows (Join makes one frame
// of several). dst must be able to seek (io.WriteSeeker, io.WriterAt, a
// regular *os.File): the header comes first but its sizes are known last.
// It holds one chunk at a time (and 4 bytes per chunk to size the frame).
// A frame that is already patched is copied as is.
func Repair(dst io.Writer, src io.Reader) error {
	s := newSink(dst)
	if !s.seekable() {
		return fmt.Errorf("%w: Repair needs a destination that can seek", blosc2.ErrUnsupported)
	}
	br := bufio.NewReader(src)
	sc := frame.NewScanner(br, frame.ScanOptions{Single: true})
	hit, err := sc.Next(nil)
	if err != nil {
		return err
	}
	h := *hit.Header
	if err := s.write(hit.Data); err != nil {
		return err
	}
	nb := map[int64]int32{} // chunk nbytes by chunks-section offset
	var idx, trailer []byte
	var vlBlocks bool
	for {
		it, err := sc.Next(nil)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := s.write(it.Data); err != nil {
			return err
		}
		switch {
		case it.Kind == frame.ItemChunk:
			if len(nb) == 0 {
				vlBlocks = it.Prefix.VLBlocks
			}
			nb[it.Pos-int64(h.HeaderLen)] = int32(it.Prefix.Nbytes)
		case it.Stale:
		case it.Kind == frame.ItemIndex:
			idx, h.Cbytes = it.Data, it.Pos-int64(h.HeaderLen)
		case it.Kind == frame.ItemTrailer:
			trailer = it.Data
		}
	}
	if _, err := br.Peek(1); err == nil {
		return fmt.Errorf("%w: another frame (or other bytes) follows at input offset %d: join the frames", blosc2.ErrUnsupported, sc.Offset())
	}
	if !h.Unpatched() {
		return s.finish()
	}
	vl, err := frame.ParseTrailer(trailer)
	if err != nil {
		return err
	}
	if idx == nil {
		h.Cbytes = 0
	}
	sizes := frame.NewSizes()
	sizes.VLBlocks = vlBlocks
	if idx != nil {
		x, err := frame.DecodeIndex(idx, -1, 0)
		if err != nil {
			return err
		}
		if err := sizes.AddIndexed(&x, nb, h.ChunkSize); err != nil {
			return err
		}
	}
	h.FrameLen = sc.Offset()
	h.Nbytes = sizes.Nbytes
	h.ChunkSize = sizes.ChunkSize
	h.GeneralFlags = sizes.GeneralFlags()
	h.HasVLMeta = len(vl) > 0
	b := h.Append(nil)
	if len(b) != len(hit.Data) {
		return fmt.Errorf("%w: header re-encodes to %d bytes, not %d", blosc2.ErrUnsupported, len(b), len(hit.Data))
	}
	if err := s.patch(0, b); err != nil {
		return err
	}
	return s.finish()
}
