package b2nd

import (
	"fmt"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framewriter"
)

// OpenAppend opens the array at path (a frame file or sparse directory)
// to add rows along its first axis, as C-Blosc2's b2nd_append does along
// axis 0: Write and AppendRows take C-order rows, and Close records the
// new shape[0] in the metalayer and completes the frame. The chunks are
// compressed with the frame's own parameters unless WithCParams says
// otherwise; no other option applies.
//
// The array's last row of chunks must be complete (shape[0] a multiple of
// chunkshape[0]), since the frame writer cannot replace chunks; an array
// that a growing Writer closed in mid-chunk is refused with
// blosc2.ErrUnsupported. Choose chunkshape[0] as the number of rows added
// per session to keep an array appendable.
func OpenAppend(path string, opts ...CreateOption) (*Writer, error) {
	var o createOptions
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, err
		}
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
	a.Close()
	if !isB2nd || meta.NoDType {
		return nil, fmt.Errorf("%w: %s: appending to a Caterva array (no b2nd metalayer)", blosc2.ErrUnsupported, path)
	}
	if meta.NDim() == 0 {
		return nil, fmt.Errorf("%w: %s: a 0-d array has no axis to grow", blosc2.ErrInvalidOption, path)
	}
	if slices.Contains(meta.Shape[1:], 0) {
		return nil, fmt.Errorf("%w: %s: rows of shape %v hold no element", blosc2.ErrInvalidOption, path, meta.Shape[1:])
	}
	if dtErr != nil || dt.Size != info.TypeSize {
		// The dtype is metadata; the layout needs only the item size.
		dt = DType{Kind: 'V', Order: '|', Size: info.TypeSize}
	}
	if rows, cs := meta.Shape[0], int64(meta.ChunkShape[0]); rows%cs != 0 {
		return nil, fmt.Errorf("%w: %s: shape[0] %d is not a multiple of chunkshape[0] %d; appending would need to rewrite the last row of chunks",
			blosc2.ErrUnsupported, path, rows, cs)
	}
	cp := blosc2.CParams{
		Codec: info.Codec, CodecMeta: info.CodecMeta, Level: info.Clevel, Filters: info.Filters,
		SplitMode: info.SplitMode, UseDict: info.UseDict, Threads: 1,
	}
	if o.cpSet {
		cp = o.cp
	}
	cp.TypeSize = dt.Size
	cp.BlockSize = int(int64(dt.Size) * prod32(meta.BlockShape))
	fw, err := framewriter.Append(path, framewriter.WithCParams(cp))
	if err != nil {
		return nil, err
	}
	s := &arraySpec{meta: meta, dtype: dt, growing: true, cp: cp}
	w := newWriter(s, frameSink{fw})
	w.rows = meta.Shape[0]
	w.nchunks = nchunks
	return w, nil
}
