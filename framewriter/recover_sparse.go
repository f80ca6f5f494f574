package framewriter

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/ndmeta"
	"github.com/blosc2go/blosc2/internal/safefile"
)

// RecoverSparse repairs, in place, the sparse frame in directory dir whose
// writer died. chunks.b2frame still describes the frame as it was before
// the dead session (CreateSparse writes it at once and Close replaces it
// atomically), and the session's chunks sit in the files numbered after
// the ones it lists. Those files are taken in order, each checked by
// decoding it, and added to the index; the scan stops at the first missing
// file or the first that does not decode (a torn write), which is left in
// place unreferenced and counted in Dropped (a later Append overwrites it).
// The new chunks.b2frame replaces the old one atomically.
//
// A session that died inside Close, after writing its complete new index
// to chunks.b2frame.tmp, is finished with that index. A frame with neither
// is reported Intact and left untouched.
//
// What the dead session recorded only in its index is lost: vlmetalayers
// it set, and zero, NaN or uninit chunks kept as index entries (write with
// WithSpecials(SpecialsInline) to make a crash lose nothing); LostSpecials
// cannot be told from the files and stays false.
func RecoverSparse(dir string, opts ...WriterOption) (RecoverReport, error) {
	var rep RecoverReport
	o, err := newOptions(opts)
	if err != nil {
		return rep, err
	}
	if len(o.metas) > 0 {
		return rep, fmt.Errorf("%w: metalayers cannot be declared when recovering", blosc2.ErrInvalidOption)
	}
	finished, err := finishInterruptedClose(dir, !o.noSync)
	if err != nil {
		return rep, err
	}
	w, sd, err := appendSparse(dir, o, opts)
	if err != nil {
		return rep, fmt.Errorf("nothing to recover: %w", err)
	}
	listed := len(w.entries)
	orphans, err := chunkFileIDs(dir, sd.nextID)
	if err != nil {
		return rep, err
	}
	// Chunks are adopted as stored: no rewrite of their files, no
	// conversion of specials (SpecialsInline keeps every one a file).
	w.specials = SpecialsInline
	for _, id := range orphans {
		if id != sd.nextID {
			break // a gap: nothing after it was written by this sequence
		}
		c, err := safefile.ReadFile(sd.chunkPath(id))
		if err != nil {
			return rep, err
		}
		if !wholeChunk(c, ndmeta.FrameGeometry(w.h.Metalayers)) {
			break
		}
		sd.adopt = c
		err = w.WriteCompressedChunk(c)
		sd.adopt = nil
		if err != nil {
			break // a chunk this frame cannot hold (other kind or sizes)
		}
	}
	for _, id := range orphans {
		if id >= sd.nextID {
			if st, err := os.Lstat(sd.chunkPath(id)); err == nil {
				rep.Dropped += st.Size()
			}
		}
	}
	rep.IndexFound = true
	rep.VLMetaFound = true
	rep.Chunks = len(w.entries)
	rep.Nbytes = w.sizes.Nbytes
	rep.Intact = len(w.entries) == listed && !finished && rep.Dropped == 0
	return rep, w.Close()
}

// wholeChunk reports whether c is exactly one chunk that decodes (with the
// block shape g of a b2nd array; nil for other frames).
func wholeChunk(c []byte, g *blosc2.Geometry) bool {
	h, err := blosc2.ParseHeader(c)
	if err != nil || h.Cbytes != len(c) {
		return false
	}
	_, err = blosc2.Decompress(nil, c, &blosc2.DParams{Geometry: g})
	return err == nil
}

// finishInterruptedClose renames a complete chunks.b2frame.tmp (a Close
// that died between writing its new index and the rename) over
// chunks.b2frame, or removes a torn one. It reports whether it renamed.
func finishInterruptedClose(dir string, sync bool) (bool, error) {
	tmp := filepath.Join(dir, frame.SparseIndexName+".tmp")
	b, err := safefile.ReadFile(tmp)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	// Close writes the file whole before renaming it; a torn one is
	// shorter than its header's frame_len and does not load.
	if _, err := loadSparseIndex(b); err != nil {
		return false, os.Remove(tmp)
	}
	if err := os.Rename(tmp, filepath.Join(dir, frame.SparseIndexName)); err != nil {
		return false, err
	}
	if sync {
		syncDir(dir)
	}
	return true, nil
}

// chunkFileIDs lists, in increasing order, the ids >= from of the chunk
// files (NNNNNNNN.chunk) in dir.
func chunkFileIDs(dir string, from int64) ([]int64, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, e := range ents {
		name := e.Name()
		hex, ok := strings.CutSuffix(name, ".chunk")
		if !ok || len(hex) != 8 || !e.Type().IsRegular() {
			continue
		}
		id, err := strconv.ParseUint(hex, 16, 32)
		if err != nil || frame.ChunkFileName(int64(id)) != name || int64(id) < from {
			continue
		}
		ids = append(ids, int64(id))
	}
	// os.ReadDir sorts by name, and the names are fixed-width upper-case
	// hex, so ids are already in increasing order.
	return ids, nil
}
