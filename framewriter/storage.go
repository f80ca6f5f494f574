package framewriter

import (
	"github.com/blosc2go/blosc2/internal/frame"
)

// storage is where a Writer's frame goes: the bytes of a contiguous frame
// (contiguous, over a sink: a file the package opened, an io.WriteSeeker,
// an io.WriterAt or a plain stream) or the files of a sparse frame's
// directory (sparseDir). The Writer keeps the frame's state (header,
// index, sizes); its storage knows where bytes go and what Close writes.
type storage interface {
	// frameType is the header's frame type (contiguous or sparse).
	frameType() uint8
	// store writes a chunk and returns its index entry: its offset in the
	// chunks section, or its chunk file number.
	store(w *Writer, pieces [][]byte) (int64, error)
	// dropped returns how many bytes of w.cbytes the chunks at entries,
	// cut by TruncateChunks, took.
	dropped(entries []int64) (int64, error)
	// begin writes what precedes the first chunk (the unpatched header of
	// a contiguous frame); first is the first chunk's size, or -1.
	begin(w *Writer, first int32) error
	// markLossy records, once, that chunks exist only as index entries.
	markLossy(w *Writer) error
	// seekable reports whether Close patches a header in place.
	seekable() bool
	// indexOnly reports whether special chunks may stay index entries
	// (SpecialsAuto): the index is written once the chunks are known.
	indexOnly() bool
	// finish writes the index, the trailer and the header at Close, and
	// releases the storage.
	finish(w *Writer) error
	// release frees the storage without writing (a failed session).
	release() error
}

// contiguous stores a contiguous frame in a sink: header, chunks, index,
// trailer, the header patched at Close when the sink can seek.
type contiguous struct{ sink sink }

func (c *contiguous) frameType() uint8 { return frame.TypeContiguous }
func (c *contiguous) seekable() bool   { return c.sink.seekable() }
func (c *contiguous) indexOnly() bool  { return c.sink.seekable() }
func (c *contiguous) release() error   { return c.sink.release() }

// dropped: the bytes of cut chunks stay in the chunks section.
func (c *contiguous) dropped([]int64) (int64, error) { return 0, nil }

func (c *contiguous) store(w *Writer, pieces [][]byte) (int64, error) {
	for _, p := range pieces {
		if err := w.fail(c.sink.write(p)); err != nil {
			return 0, err
		}
	}
	return w.cbytes, nil
}

// begin writes the header with its sizes unpatched before the first
// chunk of a contiguous frame: frame_len 0, nbytes and cbytes -1 (values
// C-Blosc2 never writes, so that a reader knows), the chunk size the
// first chunk sets.
func (c *contiguous) begin(w *Writer, first int32) error {
	if w.hdrLen > 0 {
		return nil
	}
	h := w.h
	h.FrameLen = 0
	h.Nbytes, h.Cbytes = -1, -1
	if w.sizes.N == 0 && first > 0 {
		h.ChunkSize = first
	}
	h.HasVLMeta = len(w.vl) > 0 || w.sums // the checksum record is one
	b := h.Append(nil)
	if err := w.fail(c.sink.write(b)); err != nil {
		return err
	}
	w.hdrLen = len(b)
	w.h.HeaderLen = h.HeaderLen
	w.h.Metalayers = h.Metalayers
	return nil
}

// markLossy records in the unpatched header, once, that chunks exist only
// as index entries, so that Recover can warn that a crash lost them.
func (c *contiguous) markLossy(w *Writer) error {
	if w.lossy || !c.sink.seekable() {
		return nil
	}
	w.lossy = true
	return w.fail(c.sink.patch(frame.PosNbytes-1, frame.LossyMark()))
}

func (c *contiguous) finish(w *Writer) error {
	if w.resumed && !w.dirty {
		return c.sink.release()
	}
	if err := c.begin(w, -1); err != nil {
		return err
	}
	if err := w.relocate(); err != nil {
		return err
	}
	idx, trailer, err := w.tail()
	if err != nil {
		return err
	}
	if err := c.sink.write(idx); err != nil {
		return err
	}
	if err := c.sink.write(trailer); err != nil {
		return err
	}
	if testHookBeforePatch != nil {
		if err := testHookBeforePatch(); err != nil {
			return err
		}
	}
	if c.sink.seekable() {
		hdr := w.finalHeader(int64(w.hdrLen) + w.cbytes + int64(len(idx)) + int64(len(trailer)))
		if err := c.sink.patch(0, hdr); err != nil {
			return err
		}
	}
	return c.sink.finish()
}
