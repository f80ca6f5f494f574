package b2nd

import (
	"fmt"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framewriter"
	"github.com/blosc2go/blosc2/internal/option"
)

// OpenAppend opens the array at path (a frame file or sparse directory)
// to add rows along its first axis, as C-Blosc2's b2nd_append does along
// axis 0: Write and AppendRows take C-order rows, and Close records the
// new shape[0] in the metalayer and completes the frame. The chunks are
// compressed with the frame's own parameters unless WithCParams says
// otherwise; no other option applies.
//
// When shape[0] is not a multiple of chunkshape[0], the last row of chunks
// is partly filled: its rows are read back, and once rows are added its
// chunks are re-encoded and replace the old ones (framewriter's
// TruncateChunks: the old bytes stay in a contiguous frame unreferenced,
// as C-Blosc2's b2nd_append leaves them; in a sparse frame they stay as
// unlisted files). A session that adds no row changes no chunk. Choose
// chunkshape[0] as the number of rows added per session to avoid the
// rewrite.
func OpenAppend(path string, opts ...WriterOption) (*Writer, error) {
	var o createOptions
	if err := option.Apply(&o, opts); err != nil {
		return nil, err
	}
	if o.chunkshape != nil || o.blockshape != nil || o.metalayers != nil || o.sparse {
		return nil, fmt.Errorf("%w: OpenAppend takes only WithCParams: the array's layout is fixed", blosc2.ErrInvalidOption)
	}
	a, err := Open(path)
	if err != nil {
		return nil, err
	}
	info := a.frame.Info()
	meta := a.Meta()
	dt, dtErr := a.DType()
	nchunks := a.NChunks()
	_, isB2nd := a.frame.Metalayer(MetaName)
	err = appendable(path, meta, isB2nd)
	// The rows of a partly filled last slab, to be stored again with the
	// rows this session adds.
	var partial []byte
	if cs := int64(meta.ChunkShape[0]); err == nil && meta.Shape[0]%cs != 0 {
		start := make([]int64, meta.NDim())
		start[0] = meta.Shape[0] - meta.Shape[0]%cs
		if partial, err = a.ReadSlice(nil, start, meta.Shape); err != nil {
			err = fmt.Errorf("%s: reading the last row of chunks: %w", path, err)
		}
	}
	a.Close()
	if err != nil {
		return nil, err
	}
	if dtErr != nil || dt.Size != info.TypeSize {
		// The dtype is metadata; the layout needs only the item size.
		dt = DType{Kind: 'V', Order: '|', Size: info.TypeSize}
	}
	cp := blosc2.CParams{
		Codec: info.Codec, CodecMeta: info.CodecMeta, Level: info.Clevel, Filters: info.Filters,
		SplitMode: info.SplitMode, UseDict: info.UseDict, Concurrency: 1,
	}
	if o.cpSet {
		cp = o.cp
	}
	cp.TypeSize = dt.Size
	cp.BlockSize = int(int64(dt.Size) * prod32(meta.BlockShape))
	cp.Geometry = meta.Geometry()
	fw, err := framewriter.Append(path, framewriter.WithCParams(cp))
	if err != nil {
		return nil, err
	}
	s := &arraySpec{meta: meta, dtype: dt, growing: true, cp: cp}
	w := newWriter(s, frameSink{fw})
	w.rows = meta.Shape[0]
	w.nchunks = nchunks
	if partial != nil {
		w.resumed = w.chunksPerSlab()
		w.nchunks -= w.resumed
		w.resumedRows = w.rows
		w.slab = append(make([]byte, 0, w.slabRows*w.rowBytes), partial...)
	}
	return w, nil
}

// appendable checks that the array meta describes can grow along axis 0.
func appendable(path string, meta Meta, isB2nd bool) error {
	if !isB2nd || meta.NoDType {
		return fmt.Errorf("%w: %s: appending to a Caterva array (no b2nd metalayer)", blosc2.ErrUnsupported, path)
	}
	if meta.NDim() == 0 {
		return fmt.Errorf("%w: %s: a 0-d array has no axis to grow", blosc2.ErrInvalidOption, path)
	}
	if slices.Contains(meta.Shape[1:], 0) {
		return fmt.Errorf("%w: %s: rows of shape %v hold no element", blosc2.ErrInvalidOption, path, meta.Shape[1:])
	}
	return nil
}
