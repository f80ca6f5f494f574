package blosc2

import (
	"fmt"
	"sync"
)

// UserFilter is a filter an application registers under an id from 160 to
// 255 (RegisterFilter). Both methods transform one whole block: len(dst) ==
// len(src), the slices do not overlap, and every byte of dst must be
// written. typesize is the chunk header's.
type UserFilter interface {
	Forward(dst, src []byte, meta uint8, typesize int) error
	Backward(dst, src []byte, meta uint8, typesize int) error
}

// UserFilterMin is the first filter id applications may register.
const UserFilterMin FilterID = 160

var userFilters sync.Map // FilterID → UserFilter

// RegisterFilter makes f available under id (160-255) for compression and
// decompression. Registering an id again replaces the filter.
func RegisterFilter(id FilterID, f UserFilter) error {
	if id < UserFilterMin {
		return fmt.Errorf("%w: filter id %d is reserved; user filters use %d-255", ErrInvalidOption, id, UserFilterMin)
	}
	if f == nil {
		return fmt.Errorf("%w: nil filter", ErrInvalidOption)
	}
	userFilters.Store(id, f)
	return nil
}

func userFilter(id FilterID) (UserFilter, bool) {
	f, ok := userFilters.Load(id)
	if !ok {
		return nil, false
	}
	return f.(UserFilter), true
}

// filterKnown reports whether id can run in a pipeline.
func filterKnown(id FilterID) bool {
	switch id {
	case NoFilter, Shuffle, BitShuffle, Delta, TruncPrec, ByteDelta, ByteDeltaBuggy, NDCell, NDMean, IntTrunc:
		return true
	}
	_, ok := userFilter(id)
	return ok
}

// filterLossless reports whether id is a filter whose inverse restores
// exactly what it filtered: not TruncPrec, NDMean or IntTrunc, which drop
// bits, nor ByteDeltaBuggy, kept for reading old data, nor a user filter,
// whose inverse is not known to be exact.
func filterLossless(id FilterID) bool {
	switch id {
	case NoFilter, Shuffle, BitShuffle, Delta, ByteDelta, NDCell:
		return true
	}
	return false
}

// shuffleWidth is the element width SHUFFLE uses: its meta, or the typesize.
func shuffleWidth(f Filter, typesize int) int {
	if f.Meta != 0 {
		return int(f.Meta)
	}
	return typesize
}

// byteDeltaStreams is the number of byte streams BYTEDELTA works on.
func byteDeltaStreams(f Filter, typesize int) int {
	if f.Meta != 0 {
		return int(f.Meta)
	}
	return typesize
}

// pipelineForward runs the filters of slots 0..5 of chunk header h on one
// block. src is the raw block, raw0 the chunk's raw first block (the DELTA
// reference; nil when src is itself a reference block). The result is src
// itself (no filter changed anything) or one of the two scratch buffers a
// and b, each at least len(src) long. g is the block geometry, nil when
// the chunk is not part of a b2nd array.
func pipelineForward(h *Header, g *Geometry, src, raw0, a, b []byte) ([]byte, error) {
	filters, typesize := &h.Filters, h.TypeSize
	n := len(src)
	cur := src
	bufs := [2][]byte{a[:n], b[:n]}
	k := 0 // bufs[k] is free; once cur is a scratch buffer it is bufs[k^1]
	if n == 0 {
		return src, nil
	}
	for _, f := range filters {
		switch f.ID {
		case NoFilter:
			continue
		case Shuffle:
			w := shuffleWidth(f, typesize)
			if w <= 1 || n < 2*w {
				continue // a plain copy
			}
			shuffle(bufs[k], cur, w)
		case BitShuffle:
			if identityInverse(h, f, n) {
				continue // nothing to transpose: a plain copy
			}
			bitshuffle(bufs[k], cur, typesize)
		case Delta:
			deltaEncode(bufs[k], cur, raw0, typesize)
		case TruncPrec:
			if err := truncPrec(bufs[k], cur, typesize, int8(f.Meta)); err != nil {
				return nil, err
			}
		case ByteDelta:
			bytedeltaEncode(bufs[k], cur, byteDeltaStreams(f, typesize))
		case ByteDeltaBuggy:
			bytedelta34Encode(bufs[k], cur, byteDeltaStreams(f, typesize))
		case NDCell:
			if err := ndcellForward(bufs[k], cur, f, typesize, g); err != nil {
				return nil, err
			}
		case NDMean:
			if err := ndmeanForward(bufs[k], cur, f, typesize, g); err != nil {
				return nil, err
			}
		case IntTrunc:
			if err := intTrunc(bufs[k], cur, f.Meta, typesize); err != nil {
				return nil, err
			}
		default:
			uf, ok := userFilter(f.ID)
			if !ok {
				return nil, fmt.Errorf("%w: filter id %d", ErrUnsupported, f.ID)
			}
			if err := uf.Forward(bufs[k], cur, f.Meta, typesize); err != nil {
				return nil, fmt.Errorf("filter %d: %w", f.ID, err)
			}
		}
		cur = bufs[k]
		k ^= 1
	}
	return cur, nil
}

// inverseOp reports whether filter f has to be undone on decompression and
// whether undoing it is done in place (DELTA) rather than from one buffer to
// another.
func inverseOp(f Filter) (undo, inPlace bool) {
	switch f.ID {
	case NoFilter, TruncPrec, IntTrunc:
		return false, false
	case Delta:
		return true, true
	}
	return true, false
}

// pipelineBackward undoes the filters of slots 5..0. It is given the chunk
// header, the block length n, and decode, which writes the block's
// reassembled streams into the buffer it is handed. The result lands in dst
// (len n); a and b are scratch buffers of at least n bytes. ref is the fully
// decoded block 0 for DELTA, or nil when this block is its own reference.
// g is the block geometry, nil when the chunk is not part of a b2nd array.
func pipelineBackward(h *Header, g *Geometry, dst, ref, a, b []byte, decode func(buf []byte) error) error {
	n := len(dst)
	// Count the out-of-place steps so the buffers can be chosen for the last
	// one to write into dst: no final copy.
	steps := 0
	for i := MaxFilters - 1; i >= 0; i-- {
		f := h.Filters[i]
		if undo, inPlace := inverseOp(f); undo && !inPlace && !identityInverse(h, f, n) {
			steps++
		}
	}
	bufFor := func(remaining int) []byte {
		// remaining = out-of-place steps still to run after writing here.
		switch {
		case remaining == 0:
			return dst
		case remaining%2 == 1:
			return a[:n]
		default:
			return b[:n]
		}
	}
	cur := bufFor(steps)
	if err := decode(cur); err != nil {
		return err
	}
	typesize := h.TypeSize
	for i := MaxFilters - 1; i >= 0; i-- {
		f := h.Filters[i]
		undo, inPlace := inverseOp(f)
		if !undo || identityInverse(h, f, n) {
			continue
		}
		if inPlace { // DELTA
			deltaDecode(cur, ref, typesize)
			continue
		}
		steps--
		next := bufFor(steps)
		switch f.ID {
		case Shuffle:
			unshuffle(next, cur, shuffleWidth(f, typesize))
		case BitShuffle:
			if h.Version == VersionBlosc1 {
				bitunshuffleV2(next, cur, typesize)
			} else {
				bitunshuffle(next, cur, typesize)
			}
		case ByteDelta:
			bytedeltaDecode(next, cur, byteDeltaStreams(f, typesize))
		case ByteDeltaBuggy:
			bytedelta34Decode(next, cur, byteDeltaStreams(f, typesize))
		case NDCell, NDMean:
			if err := ndcellBackward(next, cur, f, typesize, g, f.ID == NDMean); err != nil {
				return fmt.Errorf("slot %d: %w", i, err)
			}
		default:
			uf, ok := userFilter(f.ID)
			if !ok {
				return fmt.Errorf("%w: filter id %d in slot %d is not registered", ErrUnsupported, f.ID, i)
			}
			if err := uf.Backward(next, cur, f.Meta, typesize); err != nil {
				return fmt.Errorf("%w: filter %d: %v", ErrCorrupt, f.ID, err)
			}
		}
		cur = next
	}
	return nil
}

// identityInverse reports whether undoing f on an n-byte block is a plain
// copy, which can then be skipped.
func identityInverse(h *Header, f Filter, n int) bool {
	switch f.ID {
	case Shuffle:
		w := shuffleWidth(f, h.TypeSize)
		return w <= 1 || n < 2*w
	case BitShuffle:
		if h.Version == VersionBlosc1 {
			return n < h.TypeSize || (n/h.TypeSize)%8 != 0
		}
		return n/h.TypeSize/8 == 0
	}
	return n == 0
}

// checkFilters returns an error naming the first filter of the pipeline
// that cannot be undone.
func checkFilters(h *Header) error {
	for i, f := range h.Filters {
		if !filterKnown(f.ID) {
			return fmt.Errorf("%w: filter id %d in slot %d", ErrUnsupported, f.ID, i)
		}
	}
	return nil
}
