package frame

import (
	"encoding/binary"
	"fmt"

	"github.com/blosc2go/blosc2"
)

// SpecialBit marks an index entry whose chunk is not stored (README_CFRAME_FORMAT.rst).
const SpecialBit = uint64(1) << 63

// SpecialEntry is the index entry for an implied chunk of kind k.
func SpecialEntry(k blosc2.Special) int64 { return int64(SpecialBit | uint64(k)<<56) }

// EntryKind returns the special kind of a negative index entry, testing
// the bits in frame_special_chunk's order (zero, uninit, NaN); SpecialNone
// for an entry whose bits name none of them.
func EntryKind(e int64) blosc2.Special {
	u := uint64(e)
	switch {
	case u&(uint64(blosc2.SpecialZero)<<56) != 0:
		return blosc2.SpecialZero
	case u&(uint64(blosc2.SpecialUninit)<<56) != 0:
		return blosc2.SpecialUninit
	case u&(uint64(blosc2.SpecialNaN)<<56) != 0:
		return blosc2.SpecialNaN
	}
	return blosc2.SpecialNone
}

// IndexedSpecial reports whether chunks of kind k go to the index as a
// special entry instead of being stored (frame_append_chunk).
func IndexedSpecial(k blosc2.Special) bool {
	return k == blosc2.SpecialZero || k == blosc2.SpecialNaN || k == blosc2.SpecialUninit
}

// IndexCParams are the parameters C-Blosc2 compresses the index with
// (README_CFRAME_FORMAT.rst). C uses 4 threads, which only changes the block order of
// indexes with 4096 entries or more; one goroutine gives the natural order.
func IndexCParams() blosc2.CParams {
	return blosc2.CParams{
		Codec:       blosc2.BloscLZ,
		Level:       5,
		TypeSize:    8,
		Filters:     blosc2.Pipeline(blosc2.Filter{ID: blosc2.Shuffle}),
		BlockSize:   16384,
		SplitMode:   blosc2.SplitNever,
		Concurrency: 1,
	}
}

// AppendIndex compresses entries into an index chunk and appends it to dst.
func AppendIndex(dst []byte, entries []int64) ([]byte, error) {
	if len(entries) > MaxChunks {
		return dst, fmt.Errorf("%w: %d chunks, an index holds at most %d", blosc2.ErrTooLarge, len(entries), MaxChunks)
	}
	raw := make([]byte, 8*len(entries))
	for i, e := range entries {
		binary.LittleEndian.PutUint64(raw[8*i:], uint64(e))
	}
	p := IndexCParams()
	return blosc2.Compress(dst, raw, &p)
}

// AppendRepeatIndex appends the 40-byte repeated-value index that
// frame_fill_special writes: n entries all equal to e.
func AppendRepeatIndex(dst []byte, n int, e int64) ([]byte, error) {
	var v [8]byte
	binary.LittleEndian.PutUint64(v[:], uint64(e))
	return blosc2.AppendSpecial(dst, blosc2.SpecialValue, 8*n, 8, 16384, v[:])
}

// Index is a decoded chunk-offsets index. An index that is one repeated
// value (written by frame_fill_special) is kept as that value.
type Index struct {
	n       int
	entries []int64
	rep     int64
}

// Len is the number of entries.
func (x *Index) Len() int { return x.n }

// At returns entry i, 0 ≤ i < Len().
func (x *Index) At(i int) int64 {
	if x.entries == nil {
		return x.rep
	}
	return x.entries[i]
}

// Repeated reports an index kept as one repeated value.
func (x *Index) Repeated() bool { return x.entries == nil }

// Entries returns a copy of every entry.
func (x *Index) Entries() []int64 {
	out := make([]int64, x.n)
	for i := range out {
		out[i] = x.At(i)
	}
	return out
}

// NewIndex wraps entries.
func NewIndex(entries []int64) Index { return Index{n: len(entries), entries: entries} }

// directLimit is the index size below which DecodeIndex decodes in one
// call; above it, it decodes in steps so that a corrupt size cannot make
// it allocate ahead of data that actually decodes.
const directLimit = 1 << 20

// DecodeIndex decodes the index chunk. want is the number of entries the
// header implies, or -1 when the index itself decides (variable-size
// frames); the index must hold exactly that many. limit caps the bytes
// the decoded index may take (the caller's memory cap, as
// blosc2.DParams.MaxMemory caps a chunk; 0: the format's own limit):
// beyond it, ErrTooLarge. A repeated-value index takes none.
func DecodeIndex(chunk []byte, want, limit int) (Index, error) {
	h, err := blosc2.ParseHeader(chunk)
	if err != nil {
		return Index{}, fmt.Errorf("index chunk: %w", err)
	}
	if h.Nbytes%8 != 0 {
		return Index{}, fmt.Errorf("%w: index chunk of %d bytes is not a whole number of 8-byte entries", blosc2.ErrCorrupt, h.Nbytes)
	}
	n := h.Nbytes / 8
	if want >= 0 && n != want {
		return Index{}, fmt.Errorf("%w: index holds %d entries, the header implies %d chunks", blosc2.ErrCorrupt, n, want)
	}
	if n > MaxChunks {
		return Index{}, fmt.Errorf("%w: index of %d entries", blosc2.ErrTooLarge, n)
	}
	chunk = chunk[:h.Cbytes]
	switch h.Special() {
	case blosc2.SpecialZero:
		return Index{n: n}, nil
	case blosc2.SpecialValue:
		if h.Cbytes-blosc2.ExtendedHeaderLen == 8 {
			return Index{n: n, rep: int64(binary.LittleEndian.Uint64(chunk[blosc2.ExtendedHeaderLen:]))}, nil
		}
	case blosc2.SpecialNaN, blosc2.SpecialUninit:
		return Index{}, fmt.Errorf("%w: index chunk is a special %v chunk", blosc2.ErrCorrupt, h.Special())
	}
	if limit > 0 && h.Nbytes > limit {
		return Index{}, fmt.Errorf("%w: the index of %d chunks takes %d bytes, more than the %d allowed", blosc2.ErrTooLarge, n, h.Nbytes, limit)
	}
	if h.Nbytes <= directLimit || h.Nbytes%h.TypeSize != 0 {
		raw, err := blosc2.Decompress(nil, chunk, &blosc2.DParams{MaxMemory: max(h.Nbytes, 1)})
		if err != nil {
			return Index{}, fmt.Errorf("index chunk: %w", err)
		}
		if len(raw) != h.Nbytes {
			return Index{}, fmt.Errorf("%w: index decodes to %d bytes, header says %d", blosc2.ErrCorrupt, len(raw), h.Nbytes)
		}
		return Index{n: n, entries: appendEntries(make([]int64, 0, n), raw)}, nil
	}
	// Large indexes decode a step at a time into the entries, so that
	// what is held is the entries plus one step, and a corrupt size stops
	// at the first step that does not decode.
	ts := h.TypeSize
	items := h.Nbytes / ts
	step := max(directLimit/ts&^7, 8) // whole entries in each step
	var entries []int64
	var raw []byte
	for start := 0; start < items; start += step {
		raw, err = blosc2.GetItems(raw[:0], chunk, start, min(step, items-start), nil)
		if err != nil {
			return Index{}, fmt.Errorf("index chunk: %w", err)
		}
		if entries == nil {
			entries = make([]int64, 0, n)
		}
		entries = appendEntries(entries, raw)
	}
	if len(entries) != n {
		return Index{}, fmt.Errorf("%w: index decodes to %d entries, header says %d", blosc2.ErrCorrupt, len(entries), n)
	}
	return Index{n: n, entries: entries}, nil
}

// appendEntries appends the little-endian int64 values of raw (whole ones).
func appendEntries(dst []int64, raw []byte) []int64 {
	for i := 0; i+8 <= len(raw); i += 8 {
		dst = append(dst, int64(binary.LittleEndian.Uint64(raw[i:])))
	}
	return dst
}

// Sizes follows C-Blosc2's super-chunk counters as chunks are appended
// (schunk_append_chunk_unlocked): the chunk size is the first chunk's
// nbytes until a chunk follows a shorter one or exceeds it, then 0
// (variable) for good.
type Sizes struct {
	ChunkSize int32 // -1 before the first chunk
	Last      int32 // nbytes of the last chunk
	N         int64 // number of chunks
	Nbytes    int64 // total uncompressed bytes
	VLBlocks  bool  // the first chunk has variable-length blocks
}

// NewSizes returns the counters of an empty super-chunk.
func NewSizes() Sizes { return Sizes{ChunkSize: -1} }

// Add accounts for one more chunk of nbytes bytes.
func (s *Sizes) Add(nbytes int32) {
	if s.ChunkSize == -1 {
		s.ChunkSize = nbytes
	}
	if s.ChunkSize != 0 && s.N > 0 && (s.Last < s.ChunkSize || nbytes > s.ChunkSize) {
		s.ChunkSize = 0
	}
	s.Last = nbytes
	s.N++
	s.Nbytes += int64(nbytes)
}

// AddRepeated accounts for count more chunks of nbytes bytes each, as
// count calls of Add would, in constant time: after two equal chunks the
// chunk size no longer changes.
func (s *Sizes) AddRepeated(nbytes int32, count int) {
	for range min(count, 2) {
		s.Add(nbytes)
	}
	if count > 2 {
		s.N += int64(count - 2)
		s.Nbytes += int64(count-2) * int64(nbytes)
	}
}

// AddIndexed accounts for the chunks that index x records in a frame whose
// header sizes were never patched: a stored entry is the chunk starting at
// that offset of the chunks section, whose nbytes stored gives; a special
// entry implies a chunk of chunkSize bytes (the header's). A repeated-value
// index is accounted in constant time, whatever number of chunks it declares.
func (s *Sizes) AddIndexed(x *Index, stored map[int64]int32, chunkSize int32) error {
	n := x.Len()
	if x.Repeated() {
		n = min(n, 1)
	}
	for i := range n {
		e := x.At(i)
		nbytes, ok := stored[e]
		if e < 0 {
			if EntryKind(e) == blosc2.SpecialNone {
				return fmt.Errorf("%w: index entry %d (%#x) is negative but names no special kind", blosc2.ErrCorrupt, i, uint64(e))
			}
			if chunkSize <= 0 {
				return fmt.Errorf("%w: index entry %d implies a chunk, but the header has no chunk size to size it", blosc2.ErrCorrupt, i)
			}
			nbytes, ok = chunkSize, true
		}
		if !ok {
			return fmt.Errorf("%w: index entry %d points at %d, where no chunk starts", blosc2.ErrCorrupt, i, e)
		}
		if x.Repeated() {
			s.AddRepeated(nbytes, x.Len())
		} else {
			s.Add(nbytes)
		}
	}
	return nil
}

// GeneralFlags is the general_flags byte new_header_frame writes.
func (s *Sizes) GeneralFlags() uint8 {
	f := uint8(VersionRC1)
	if s.ChunkSize == 0 || s.VLBlocks {
		f = VersionVLBlocks
	}
	f += FlagOffsets64
	if s.ChunkSize == 0 {
		f |= FlagVariable
	}
	if s.VLBlocks {
		f |= FlagVLBlocks
	}
	return f
}
