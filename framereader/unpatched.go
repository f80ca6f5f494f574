package framereader

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
)

// openUnpatched reads a complete frame whose header sizes were never
// patched (frame.md §11.6): the frame ends at size, the trailer is found
// from there, and the index is the chunk that ends where the trailer
// starts, found by walking the chunk headers from header_len.
func (r *Reader) openUnpatched(ra io.ReaderAt, size int64, h frame.Header) error {
	if int64(h.HeaderLen) > size {
		return fmt.Errorf("%w: header_len %d beyond the %d-byte input", blosc2.ErrTruncated, h.HeaderLen, size)
	}
	hdr, err := readAt(ra, 0, int64(h.HeaderLen), size, "frame header")
	if err != nil {
		return err
	}
	if err := frame.ParseMetalayers(&h, hdr); err != nil {
		return err
	}
	layout, err := scanUnpatched(ra, size, h.HeaderLen)
	if err != nil {
		return err
	}
	r.format = Contiguous
	r.unpatched = true
	h.FrameLen = size
	h.Cbytes = layout.cbytes
	h.Nbytes = 0
	if layout.index != nil {
		idx, err := frame.DecodeIndex(layout.index, -1)
		if err != nil {
			return err
		}
		r.idx = idx
		r.nchunks = idx.Len()
	}
	vl, err := frame.ParseTrailer(layout.trailer)
	if err != nil {
		return err
	}
	r.vl = vl
	h.HasVLMeta = len(vl) > 0
	src := &contiguousSource{ra: ra, base: int64(h.HeaderLen), cbytes: h.Cbytes}
	sizes := frame.NewSizes()
	for i := range r.nchunks {
		e := r.idx.At(i)
		var n int32
		if e < 0 {
			if frame.EntryKind(e) == blosc2.SpecialNone {
				return fmt.Errorf("%w: index entry %d (%#x) is negative but names no special kind", blosc2.ErrCorrupt, i, uint64(e))
			}
			if h.ChunkSize <= 0 {
				return fmt.Errorf("%w: unpatched frame with an implied chunk %d but no chunk size in its header", blosc2.ErrCorrupt, i)
			}
			n = h.ChunkSize
		} else {
			hb, err := src.header(e)
			if err != nil {
				return fmt.Errorf("chunk %d: %w", i, err)
			}
			n = int32(binary.LittleEndian.Uint32(hb[4:]))
			if n < 0 {
				return fmt.Errorf("%w: chunk %d declares nbytes %d", blosc2.ErrCorrupt, i, n)
			}
			if i == 0 && len(hb) > 30 && hb[2]&0x05 == 0x05 && hb[30]&1 != 0 {
				sizes.VLBlocks = true
			}
		}
		sizes.Add(n)
	}
	h.Nbytes = sizes.Nbytes
	h.ChunkSize = sizes.ChunkSize
	h.GeneralFlags = sizes.GeneralFlags()
	r.h = h
	r.src = src
	return r.checkEntries()
}

// unpatchedLayout is what scanUnpatched finds.
type unpatchedLayout struct {
	cbytes  int64  // length of the chunks section
	index   []byte // the index chunk; nil for an empty frame
	trailer []byte
}

// scanUnpatched locates the trailer from the end of a size-byte frame and
// the index by walking the chunk headers from headerLen.
func scanUnpatched(ra io.ReaderAt, size int64, headerLen int) (unpatchedLayout, error) {
	var l unpatchedLayout
	if size < int64(headerLen)+frame.EmptyTrailerLen {
		return l, fmt.Errorf("%w: unpatched frame of %d bytes has no room for a trailer after its %d-byte header (did its writer die? see framewriter.Recover)", blosc2.ErrTruncated, size, headerLen)
	}
	tail, err := readAt(ra, size-frame.TrailerMinLen, frame.TrailerMinLen, size, "trailer")
	if err != nil {
		return l, err
	}
	tl, err := frame.TrailerLenAt(tail)
	if err != nil {
		return l, fmt.Errorf("unpatched frame without a trailer at its end (did its writer die? see framewriter.Recover): %w", err)
	}
	if tl < frame.EmptyTrailerLen || tl > size-int64(headerLen) {
		return l, fmt.Errorf("%w: trailer_len %d at the end of an unpatched %d-byte frame", blosc2.ErrHeader, tl, size)
	}
	ts := size - tl
	l.trailer, err = readAt(ra, ts, tl, size, "trailer")
	if err != nil {
		return l, err
	}
	if l.trailer[0] != 0x94 {
		return l, fmt.Errorf("%w: no trailer at %d (byte %#02x)", blosc2.ErrHeader, ts, l.trailer[0])
	}
	p := int64(headerLen)
	last := int64(-1)
	var hb [16]byte
	for p < ts {
		if p+16 > ts {
			return l, fmt.Errorf("%w: %d stray bytes at %d before the trailer", blosc2.ErrCorrupt, ts-p, p)
		}
		if _, err := ra.ReadAt(hb[:], p); err != nil {
			return l, err
		}
		cb := int64(int32(binary.LittleEndian.Uint32(hb[12:])))
		if cb < blosc2.MinHeaderLen || cb > ts-p {
			return l, fmt.Errorf("%w: chunk at %d declares %d bytes; the trailer starts at %d", blosc2.ErrCorrupt, p, cb, ts)
		}
		last = p
		p += cb
	}
	if last < 0 {
		return l, nil
	}
	l.cbytes = last - int64(headerLen)
	l.index, err = readAt(ra, last, ts-last, size, "index chunk")
	return l, err
}
