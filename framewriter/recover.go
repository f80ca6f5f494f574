package framewriter

import (
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/ndmeta"
)

// RecoverReport says what Recover found and kept.
type RecoverReport struct {
	// Intact: the frame was complete and ended where the input ends;
	// nothing was written.
	Intact bool
	// Chunks and Nbytes describe the recovered frame.
	Chunks int
	Nbytes int64
	// Dropped is the number of bytes cut after the last whole chunk (a
	// torn chunk, a torn index or trailer).
	Dropped int64
	// IndexFound: a complete index was found and kept, so the order of the
	// chunks it lists and the zero/NaN/uninit chunks it records survive.
	// Chunks stored after it are appended to it.
	IndexFound bool
	// LostSpecials: the dead writer had recorded zero, NaN or uninit chunks
	// only in the index it never wrote (framewriter's SpecialsIndex
	// layout, or an interrupted C-Blosc2 append), so they are missing and
	// the chunks after them moved up. Write with SpecialsInline to make a
	// crash lose nothing.
	LostSpecials bool
	// VLMetaFound: the vlmetalayers come from a trailer found in the file
	// (a dead writer never wrote its own).
	VLMetaFound bool
	// Frames is the number of whole frames before the one recovered (a
	// file appended to with >>, whose last writer died); they are kept as
	// they are. For an intact input, the number of its frames.
	Frames int
	// Offset is where the recovered frame starts in the input.
	Offset int64
	// DroppedFile names the file RecoverFile saved the Dropped bytes to
	// before cutting them, so that nothing is lost; "" when none were.
	DroppedFile string
}

// RecoverFile repairs, in place, the contiguous frame at path whose writer
// died: header unpatched (or stale), index and trailer missing, last chunk
// torn. Every whole chunk is kept; what follows the last one is cut, and a
// new index and trailer are written after it, then the header (after an
// fsync unless WithoutSync). A complete frame followed by whole chunks of
// an append session that died gets those chunks too. In a file of several
// frames (appends with >>), the whole frames are kept as they are and the
// first one that is not whole is recovered. Files whose frames are all
// complete are left untouched, and so is a complete frame followed by
// bytes that are neither a frame nor whole chunks (an error says so). The
// bytes cut are first saved to PATH.recover-dropped-OFFSET (synced), so
// nothing is ever lost.
//
// Chunks are checked by decoding them; the scan stops at the first that
// does not decode.
func RecoverFile(path string, opts ...WriterOption) (RecoverReport, error) {
	o, err := newOptions(opts)
	if err != nil {
		return RecoverReport{}, err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return RecoverReport{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return RecoverReport{}, err
	}
	plan, err := planRecovery(f, st.Size())
	if err != nil || plan.rep.Intact {
		return plan.rep, err
	}
	base := plan.rep.Offset
	if cut := base + plan.keep; cut < st.Size() {
		side := fmt.Sprintf("%s.recover-dropped-%d", path, cut)
		if err := saveDropped(side, f, cut, st.Size()-cut, !o.noSync); err != nil {
			return plan.rep, fmt.Errorf("saving the %d bytes recovery cuts: %w", st.Size()-cut, err)
		}
		plan.rep.DroppedFile = side
	}
	if _, err := f.WriteAt(plan.tail, base+plan.keep); err != nil {
		return plan.rep, err
	}
	if err := f.Truncate(base + plan.keep + int64(len(plan.tail))); err != nil {
		return plan.rep, err
	}
	if !o.noSync {
		if err := f.Sync(); err != nil {
			return plan.rep, err
		}
	}
	if _, err := f.WriteAt(plan.header, base); err != nil {
		return plan.rep, err
	}
	if !o.noSync {
		return plan.rep, f.Sync()
	}
	return plan.rep, nil
}

// Recover writes to dst the frame recovered from the size bytes of src
// (see RecoverFile). dst may be any io.Writer: the recovered header is
// known before anything is written. An intact frame is copied as is.
func Recover(dst io.Writer, src io.ReaderAt, size int64) (RecoverReport, error) {
	plan, err := planRecovery(src, size)
	if err != nil {
		return plan.rep, err
	}
	if plan.rep.Intact {
		_, err := io.Copy(dst, io.NewSectionReader(src, 0, plan.keep))
		return plan.rep, err
	}
	base := plan.rep.Offset
	if _, err := io.Copy(dst, io.NewSectionReader(src, 0, base)); err != nil {
		return plan.rep, err
	}
	if _, err := dst.Write(plan.header); err != nil {
		return plan.rep, err
	}
	hl := int64(len(plan.header))
	if _, err := io.Copy(dst, io.NewSectionReader(src, base+hl, plan.keep-hl)); err != nil {
		return plan.rep, err
	}
	_, err = dst.Write(plan.tail)
	return plan.rep, err
}

// saveDropped copies n bytes at off of f to a new file side.
func saveDropped(side string, f *os.File, off, n int64, sync bool) error {
	out, err := os.OpenFile(side, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, io.NewSectionReader(f, off, n))
	if err == nil && sync {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(side)
	}
	return err
}

// recoveryPlan is the recovered frame: header, bytes [header_len, keep) of
// the frame (which starts at rep.Offset of the input), then tail (index
// and trailer).
type recoveryPlan struct {
	rep    RecoverReport
	header []byte
	keep   int64
	tail   []byte
}

// item is a chunk or a trailer found by scanning the chunks section.
type item struct {
	pos, n  int64
	trailer bool
	nbytes  int32
	vlBlock bool // the chunk has variable-length blocks
}

// planRecovery finds the frame to recover: after the whole frames an
// input starts with (appends with >>), the first one that is not whole.
func planRecovery(ra io.ReaderAt, size int64) (recoveryPlan, error) {
	var plan recoveryPlan
	if err := checkCurrent(ra, size); err != nil {
		return plan, err
	}
	spans, serr := frame.Spans(ra, size)
	intact := func() (recoveryPlan, error) {
		var nchunks int
		var nbytes int64
		for _, sp := range spans {
			l, err := frame.LoadContiguous(io.NewSectionReader(ra, sp.Offset, sp.Len), sp.Len, 0)
			if err != nil {
				return plan, fmt.Errorf("frame %d (input offset %d): %w", len(spans), sp.Offset, err)
			}
			nchunks += l.NChunks
			nbytes += l.Header.Nbytes
		}
		plan.rep = RecoverReport{Intact: true, Chunks: nchunks, Nbytes: nbytes, IndexFound: true, VLMetaFound: true, Frames: len(spans)}
		plan.keep = size
		return plan, nil
	}
	switch {
	case serr == nil && len(spans) > 1:
		return intact() // a concatenation of complete frames
	case serr == nil && len(spans) == 1:
		if l, err := frame.LoadContiguous(ra, size, 0); err == nil && !l.Unpatched {
			return intact()
		}
	case len(spans) > 0:
		// Whole frames, then something else: recover the frame that
		// starts after them, or, when what follows them is no frame (the
		// chunks of an append session that died), the last whole one.
		last := spans[len(spans)-1]
		base, kept := last.Offset, len(spans)-1
		if end := last.Offset + last.Len; end < size {
			head, _ := frame.ReadFull(ra, end, min(10, size-end), size, "frame header")
			if frame.IsFrame(head) {
				base, kept = end, len(spans)
			}
		}
		plan, err := planFrame(io.NewSectionReader(ra, base, size-base), size-base)
		plan.rep.Offset, plan.rep.Frames = base, kept
		return plan, err
	}
	return planFrame(ra, size)
}

// planFrame plans the recovery of the frame at the start of ra.
func planFrame(ra io.ReaderAt, size int64) (recoveryPlan, error) {
	var plan recoveryPlan
	complete := int64(-1) // where a whole first frame ends
	if l, err := frame.LoadContiguous(ra, size, 0); err == nil {
		complete = l.End
	}
	fixed, err := frame.ReadFull(ra, 0, frame.FixedHeaderLen, size, "frame header")
	if err != nil {
		return plan, fmt.Errorf("nothing to recover: %w", err)
	}
	h, err := frame.ParseFixed(fixed)
	if err != nil {
		return plan, err
	}
	if h.FrameType != frame.TypeContiguous {
		return plan, fmt.Errorf("%w: only contiguous frames can be recovered", blosc2.ErrUnsupported)
	}
	hdr, err := frame.ReadFull(ra, 0, int64(h.HeaderLen), size, "frame header")
	if err != nil {
		return plan, fmt.Errorf("nothing to recover: %w", err)
	}
	if err := frame.ParseMetalayers(&h, hdr); err != nil {
		return plan, err
	}
	hl := int64(h.HeaderLen)
	items := scanItems(ra, size, h.ChunkSize, ndmeta.FrameGeometry(h.Metalayers))

	// Indexes: chunks followed by a trailer. The last one that checks out
	// is the base; chunks after its trailer are appended to it.
	isIndex := make([]bool, len(items))
	base, baseTrailer := -1, -1
	for k := 1; k < len(items); k++ {
		if items[k].trailer && !items[k-1].trailer {
			isIndex[k-1] = true
			if _, err := indexAt(ra, items[k-1], items[:k-1], hl); err == nil {
				base, baseTrailer = k-1, k
			}
		}
	}
	// A last chunk with no trailer may be an index whose trailer was torn.
	lastIdx := -1
	if n := len(items); n >= 2 && !items[n-1].trailer && !items[n-2].trailer {
		// It must list the chunk right before it (an index follows the
		// last chunk written).
		if x, err := indexAt(ra, items[n-1], items[:n-1], hl); err == nil {
			for i := range x.Len() {
				if x.At(i) == items[n-2].pos-hl {
					lastIdx = n - 1
					break
				}
			}
		}
	}
	var entries []int64
	nb := map[int64]int32{}
	for _, it := range items {
		if !it.trailer {
			nb[it.pos-hl] = it.nbytes
		}
	}
	var vlTrailer []byte
	from := 0
	if lastIdx >= 0 {
		x, _ := indexAt(ra, items[lastIdx], nil, hl)
		entries = x.Entries()
		from = len(items)
		plan.rep.IndexFound = true
	} else if base >= 0 {
		x, _ := indexAt(ra, items[base], nil, hl)
		entries = x.Entries()
		from = baseTrailer + 1
		plan.rep.IndexFound = true
	}
	for k := len(items) - 1; k >= 0; k-- {
		if items[k].trailer {
			vlTrailer, _ = frame.ReadFull(ra, items[k].pos, items[k].n, size, "trailer")
			plan.rep.VLMetaFound = true
			break
		}
	}
	// The recovered frame keeps the input up to its last kept chunk; a
	// final index and trailer are rewritten.
	keep := hl
	if base >= 0 {
		keep = items[base].pos
	}
	for k := from; k < len(items); k++ {
		if items[k].trailer || isIndex[k] || k == lastIdx {
			continue
		}
		entries = append(entries, items[k].pos-hl)
		keep = items[k].pos + items[k].n
	}
	if lastIdx >= 0 {
		keep = items[lastIdx].pos
	}
	plan.keep = keep
	plan.rep.Dropped = size - keep
	if complete >= 0 && keep <= complete && size > complete {
		return plan, fmt.Errorf("%w: the frame is complete (%d bytes) and the %d bytes after it are neither a frame nor whole chunks: nothing to recover, the file is left as it is", blosc2.ErrUnsupported, complete, size-complete)
	}

	// Sizes; the lost specials check compares with a stale header.
	sizes := frame.NewSizes()
	if len(items) > 0 && !items[0].trailer {
		sizes.VLBlocks = items[0].vlBlock
	}
	nspecial := 0
	for i, e := range entries {
		n, ok := nb[e]
		if e < 0 {
			nspecial++
			if h.ChunkSize <= 0 {
				return plan, fmt.Errorf("%w: the index records chunk %d only as a special entry, and the header has no chunk size to size it", blosc2.ErrCorrupt, i)
			}
			n, ok = h.ChunkSize, true
		}
		if !ok {
			return plan, fmt.Errorf("%w: index entry %d points at %d, where no whole chunk starts", blosc2.ErrCorrupt, i, e)
		}
		sizes.Add(n)
	}
	if !plan.rep.IndexFound {
		if h.Nbytes == frame.NbytesLossy {
			plan.rep.LostSpecials = true
		} else if !h.Unpatched() && h.Nbytes > 0 {
			// A stale header (an interrupted in-place append): compare what
			// it said with what its chunks section holds.
			// Only meaningful when that section survived whole.
			var stored, end int64
			for _, it := range items {
				end = it.pos + it.n
				if !it.trailer && end <= hl+h.Cbytes {
					stored += int64(it.nbytes)
				}
			}
			plan.rep.LostSpecials = end >= hl+h.Cbytes && stored < h.Nbytes
		}
	}
	var idx []byte
	if sizes.Nbytes > 0 {
		if idx, err = frame.AppendIndex(nil, entries); err != nil {
			return plan, err
		}
	}
	var vl []frame.VLMeta
	if vlTrailer != nil {
		if vl, err = frame.ParseTrailer(vlTrailer); err != nil {
			vl, plan.rep.VLMetaFound = nil, false
		}
	}
	// A checksum record found is stale; one made afresh replaces it.
	var fp frame.Fingerprint
	if i := slices.IndexFunc(vl, func(m frame.VLMeta) bool { return m.Name == frame.ChecksumsName }); i >= 0 {
		vl = slices.Delete(vl, i, i+1)
		if vl, fp, err = recoveredChecksums(ra, size, hl, h, sizes, entries, items, vl); err != nil {
			return plan, err
		}
	}
	plan.tail = frame.AppendTrailer(idx, vl, fp)
	h.FrameLen = keep + int64(len(plan.tail))
	h.Nbytes = sizes.Nbytes
	h.Cbytes = keep - hl
	h.ChunkSize = sizes.ChunkSize
	h.GeneralFlags = sizes.GeneralFlags()
	h.HasVLMeta = len(vl) > 0
	plan.header = h.Append(nil)
	if int64(len(plan.header)) != hl {
		return plan, fmt.Errorf("%w: header re-encodes to %d bytes, not %d", blosc2.ErrUnsupported, len(plan.header), hl)
	}
	plan.rep.Chunks = len(entries)
	plan.rep.Nbytes = sizes.Nbytes
	if len(entries) > 0 && sizes.ChunkSize == 0 && nspecial > 0 {
		return plan, fmt.Errorf("%w: recovered frame has variable chunk sizes and index-only chunks; C-Blosc2 could not read it", blosc2.ErrUnsupported)
	}
	return plan, nil
}

// indexAt decodes item it as an index whose stored entries all point at
// chunks among before (when before is not nil).
func indexAt(ra io.ReaderAt, it item, before []item, hl int64) (frame.Index, error) {
	b := make([]byte, it.n)
	if _, err := ra.ReadAt(b, it.pos); err != nil {
		return frame.Index{}, err
	}
	x, err := frame.DecodeIndex(b, -1, 0)
	if err != nil || before == nil {
		return x, err
	}
	starts := map[int64]bool{}
	for _, o := range before {
		if !o.trailer {
			starts[o.pos-hl] = true
		}
	}
	for i := range x.Len() {
		e := x.At(i)
		if e < 0 {
			if frame.EntryKind(e) == blosc2.SpecialNone {
				return x, fmt.Errorf("%w: bad special entry", blosc2.ErrCorrupt)
			}
			continue
		}
		if !starts[e] {
			return x, fmt.Errorf("%w: entry %d points at no chunk", blosc2.ErrCorrupt, i)
		}
	}
	return x, nil
}

// recoveredChecksums adds to vl the checksum record of a recovered frame,
// reading its kept chunks once more.
func recoveredChecksums(ra io.ReaderAt, size, hl int64, h frame.Header, sizes frame.Sizes, entries []int64, items []item, vl []frame.VLMeta) ([]frame.VLMeta, frame.Fingerprint, error) {
	if len(entries) > frame.MaxChecksummedChunks || len(vl) >= frame.MaxVLMetalayersWrite {
		return vl, frame.Fingerprint{}, nil
	}
	lens := map[int64]int64{}
	for _, it := range items {
		if !it.trailer {
			lens[it.pos-hl] = it.n
		}
	}
	sums := frame.Checksums{Nbytes: sizes.Nbytes, ChunkSize: sizes.ChunkSize, TypeSize: h.TypeSize, BlockSize: h.BlockSize, CRCs: make([]uint32, len(entries))}
	var c []byte
	for i, e := range entries {
		if e < 0 {
			sums.CRCs[i] = frame.EntryCRC(e)
			continue
		}
		var err error
		if c, err = frame.ReadAppend(c[:0], ra, hl+e, lens[e], size, "chunk"); err != nil {
			return nil, frame.Fingerprint{}, err
		}
		sums.CRCs[i] = frame.ChunkCRC(c)
	}
	m, fp, err := sums.Entry()
	if err != nil {
		return nil, frame.Fingerprint{}, err
	}
	return append(vl, m), fp, nil
}

// scanItems walks the chunks section of the frame at the start of ra and
// returns every whole chunk (one that decodes, with the block shape g of a
// b2nd array, nil for other frames) and trailer, up to the first thing
// that is neither.
func scanItems(ra io.ReaderAt, size int64, chunksize int32, g *blosc2.Geometry) []item {
	var items []item
	limit := int64(max(chunksize, 64<<20))
	sc := frame.NewScannerAt(ra, size, frame.ScanOptions{Single: true, Salvage: true})
	var c []byte
	for {
		it, err := sc.Next(c)
		if err != nil {
			return items
		}
		switch it.Kind {
		case frame.ItemTrailer:
			items = append(items, item{pos: it.Pos, n: it.Len, trailer: true})
		case frame.ItemChunk, frame.ItemIndex:
			c = it.Data
			if int64(it.Prefix.Nbytes) > limit {
				return items
			}
			if _, err := blosc2.Decompress(nil, c, &blosc2.DParams{MaxMemory: int(limit), Geometry: g}); err != nil {
				return items
			}
			items = append(items, item{pos: it.Pos, n: it.Len, nbytes: int32(it.Prefix.Nbytes), vlBlock: it.Prefix.VLBlocks})
			limit = max(limit, int64(it.Prefix.Nbytes))
		}
	}
}
