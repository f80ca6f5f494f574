package framewriter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/ndmeta"
	"github.com/blosc2go/blosc2/internal/safefile"
)

// Append opens an existing frame to add chunks (and change vlmetalayers
// and metalayer contents): a contiguous frame file, written by C-Blosc2 or
// by this package (also one whose header was never patched), or a sparse
// frame directory. Close rewrites the index, the trailer and the header,
// so the frame is complete after every session, and it grows session
// after session.
//
// An append never touches the bytes the current header refers to until
// the very last step. New chunks, the new index and the new trailer go
// after the frame's current end; after an fsync (unless WithoutSync) the
// header is rewritten in one write to point at them, and the file is
// truncated to the new end. A session that fails or dies at any point
// before that leaves the previous frame as it was, readable (by C-Blosc2
// too: bytes after frame_len are ignored). The previous index and trailer
// stay behind as dead bytes in the chunks section, which C-Blosc2's format
// allows (it leaves such bytes itself after deleting chunks): each session
// costs them once. A session that changes nothing writes nothing.
//
// The frame must start at the file's first byte; bytes after its end are
// taken for the leftovers of a failed session and overwritten.
//
// For sparse frames chunks go to new files (numbered as C-Blosc2 numbers
// them) and Close replaces chunks.b2frame atomically.
//
// The header keeps the frame's compression defaults; WithCParams only sets
// what WriteChunk compresses with (default: the frame's). WithMetalayer is
// refused: metalayers cannot be added to a frame holding data.
func Append(path string, opts ...WriterOption) (*Writer, error) {
	o, err := newOptions(opts)
	if err != nil {
		return nil, err
	}
	if len(o.metas) > 0 {
		return nil, fmt.Errorf("%w: metalayers can only be declared before the first chunk", blosc2.ErrInvalidOption)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		w, _, err := appendSparse(path, o, opts)
		return w, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	w, err := appendFile(f, o, opts)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}

func appendFile(f *os.File, o options, opts []WriterOption) (*Writer, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkCurrent(f, st.Size()); err != nil {
		return nil, err
	}
	l, err := frame.LoadContiguous(f, st.Size(), 0)
	if err != nil {
		return nil, err
	}
	w, err := resume(l, o, opts)
	if err != nil {
		return nil, err
	}
	if err := w.resumeSizes(l, func(e int64) ([]byte, error) {
		if e < 0 || e+16 > l.Header.Cbytes {
			return nil, fmt.Errorf("%w: chunk at %d outside the chunks section", blosc2.ErrCorrupt, e)
		}
		return frame.ReadFull(f, int64(l.Header.HeaderLen)+e, 16, st.Size(), "chunk header")
	}); err != nil {
		return nil, err
	}
	w.hdrLen = l.Header.HeaderLen
	w.cbytes = l.End - int64(l.Header.HeaderLen)
	w.storage = &contiguous{sink: &fileSink{atSink: atSink{w: f, pos: l.End}, f: f, sync: !w.noSync}}
	return w, nil
}

// checkCurrent refuses the older formats, which are read-only.
func checkCurrent(ra io.ReaderAt, size int64) error {
	b := make([]byte, min(size, 128))
	if _, err := ra.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	switch frame.Detect(b, size) {
	case frame.KindContiguous, frame.KindSparseIndex:
		return nil
	case frame.KindBeta, frame.KindPacked, frame.KindPreTrailer:
		return fmt.Errorf("%w: older frame formats are read-only; copy the data into a new frame", blosc2.ErrUnsupported)
	}
	return fmt.Errorf("%w: not a Blosc2 frame", blosc2.ErrHeader)
}

// resume builds a Writer continuing the loaded frame.
func resume(l *frame.Layout, o options, opts []WriterOption) (*Writer, error) {
	h := l.Header
	cp := blosc2.CParams{
		Codec: blosc2.BloscLZ, Level: h.Clevel(), TypeSize: int(h.TypeSize), BlockSize: int(max(h.BlockSize, 0)),
		SplitMode: blosc2.SplitMode(h.SplitMode()), UseDict: h.UseDict(), Concurrency: int(max(h.TComp, 1)),
		CodecMeta: h.CodecMeta,
	}
	cp.Codec = codec.ID(h.Compcode())
	for i := range cp.Filters {
		cp.Filters[i] = blosc2.Filter{ID: blosc2.FilterID(h.Filters[i]), Meta: h.FiltersMeta[i]}
	}
	if o.cp == nil {
		opts = append([]WriterOption{WithCParams(cp)}, opts...)
	}
	if g := ndmeta.FrameGeometry(h.Metalayers); g != nil {
		// The frame's b2nd block shape, unless the caller's CParams have one.
		opts = append(opts, func(o *options) error {
			if o.cp != nil && o.cp.Geometry == nil {
				c := *o.cp
				c.Geometry = g
				o.cp = &c
			}
			return nil
		})
	}
	w, err := newWriter(nil, opts)
	if err != nil {
		return nil, err
	}
	// The header stays as it is but for its sizes; it must re-encode to
	// the same length, since the chunks follow it.
	h.ComputeLen()
	if h.HeaderLen != l.Header.HeaderLen {
		return nil, fmt.Errorf("%w: the header's metalayer section is not laid out as C-Blosc2 lays it out (%d bytes, canonical %d)", blosc2.ErrUnsupported, l.Header.HeaderLen, h.HeaderLen)
	}
	w.h = h
	w.specials = SpecialsIndex
	if o.specials == SpecialsInline {
		w.specials = SpecialsInline
	}
	w.vl = slices.DeleteFunc(append(w.vl[:0], l.VL...), func(m frame.VLMeta) bool { return m.Name == frame.ChecksumsName })
	// Checksums go on when the frame has current ones (or no chunk yet);
	// a frame without them (C-Blosc2's) stays without.
	switch {
	case l.SumsState == frame.ChecksumsValid:
		w.crcs = slices.Clone(l.Sums.CRCs)
	case l.NChunks > 0:
		w.sums = false
	}
	for _, v := range o.vlmetas {
		if err := w.SetVLMetalayer(v.name, v.content); err != nil {
			return nil, err
		}
	}
	w.entries = l.Index.Entries()
	w.fill = l.Index.Repeated() && l.NChunks > 0
	w.dirty = len(o.vlmetas) > 0
	w.resumed = true
	// Never mark the live header of an existing frame (see markLossy).
	w.lossy = true
	return w, nil
}

// resumeSizes restores the chunk-size counters and the list of index-only
// special chunks (which Close must store if the sizes become variable).
// head returns the first bytes of the stored chunk at entry e.
func (w *Writer) resumeSizes(l *frame.Layout, head func(e int64) ([]byte, error)) error {
	h := &l.Header
	n := l.NChunks
	w.sizes = frame.Sizes{ChunkSize: h.ChunkSize, N: int64(n), Nbytes: h.Nbytes, VLBlocks: h.GeneralFlags&frame.FlagVLBlocks != 0}
	if n == 0 {
		w.sizes = frame.NewSizes()
		return nil
	}
	nbytesOf := func(e int64) (int32, error) {
		b, err := head(e)
		if err != nil {
			return 0, err
		}
		p, err := blosc2.ParsePrefix(b)
		return int32(p.Nbytes), err
	}
	cs := int64(h.ChunkSize)
	if cs > 0 {
		w.sizes.Last = int32(h.Nbytes - int64(n-1)*cs)
		for i := range n {
			e := l.Index.At(i)
			if e >= 0 {
				continue
			}
			nb := int32(cs)
			if i == n-1 {
				nb = w.sizes.Last
			}
			w.pending = append(w.pending, pendingSpecial{i: i, kind: frame.EntryKind(e), nbytes: nb, ts: h.TypeSize, bs: max(h.BlockSize, 0)})
		}
		return nil
	}
	// Variable sizes: the last chunk's size from its header.
	e := l.Index.At(n - 1)
	if e >= 0 {
		nb, err := nbytesOf(e)
		if err != nil {
			return err
		}
		w.sizes.Last = nb
		return nil
	}
	// A special last chunk of a variable-size frame (C-Blosc2 writes them,
	// then cannot read them): its size is what the others leave.
	var sum int64
	for i := range n - 1 {
		e := l.Index.At(i)
		if e < 0 {
			return fmt.Errorf("%w: variable-size frame with several index-only chunks: their sizes are unknowable", blosc2.ErrUnsupported)
		}
		nb, err := nbytesOf(e)
		if err != nil {
			return err
		}
		sum += int64(nb)
	}
	w.sizes.Last = int32(h.Nbytes - sum)
	w.pending = append(w.pending, pendingSpecial{i: n - 1, kind: frame.EntryKind(e), nbytes: w.sizes.Last, ts: h.TypeSize, bs: max(h.BlockSize, 0)})
	return nil
}

// loadSparseIndex loads the contents of a chunks.b2frame that framewriter
// can extend.
func loadSparseIndex(b []byte) (*frame.Layout, error) {
	if err := checkCurrent(bytes.NewReader(b), int64(len(b))); err != nil {
		return nil, err
	}
	return frame.LoadSparseIndex(b, 0)
}

// appendSparse resumes the sparse frame in dir; its storage is returned
// too, for RecoverSparse.
func appendSparse(dir string, o options, opts []WriterOption) (*Writer, *sparseDir, error) {
	b, err := safefile.ReadFile(filepath.Join(dir, frame.SparseIndexName))
	if err != nil {
		return nil, nil, err
	}
	l, err := loadSparseIndex(b)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", dir, err)
	}
	w, err := resume(l, o, opts)
	if err != nil {
		return nil, nil, err
	}
	sd := &sparseDir{dir: dir}
	w.storage = sd
	w.h.FrameType = frame.TypeSparse
	if err := w.resumeSizes(l, func(e int64) ([]byte, error) {
		f, _, err := safefile.Open(sd.chunkPath(e))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		hb := make([]byte, 16)
		if _, err := io.ReadFull(f, hb); err != nil {
			return nil, fmt.Errorf("%w: chunk file %s: %v", blosc2.ErrTruncated, sd.chunkPath(e), err)
		}
		return hb, nil
	}); err != nil {
		return nil, nil, err
	}
	w.cbytes = l.Header.Cbytes
	for i := range l.NChunks {
		sd.nextID = max(sd.nextID, l.Index.At(i)+1)
	}
	return w, sd, nil
}
