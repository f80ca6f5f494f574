package blosc2

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/blosc2go/blosc2/codec"
)

// Compress compresses src into one chunk, appends it to dst and returns the
// extended slice. p nil means DefaultCParams. The result is at most
// len(src)+MaxOverhead bytes long, and does not depend on p.Concurrency.
//
// The layout decisions (block size, splitting, runs, raw streams, the
// memcpy fallback, the all-zero special chunk) are C-Blosc2 3.3.2's serial
// ones, so that with BloscLZ, LZ4 and clevel 0 the bytes equal C-Blosc2's.
// With p.Format = [ChunkBlosc1] they are C-Blosc 1.21's (block size, split,
// no runs or special chunks, at most len(src)+16 bytes), and so are the
// bytes with BloscLZ, LZ4 and clevel 0.
func Compress(dst, src []byte, p *CParams) ([]byte, error) {
	return compressChunk(dst, src, p, nil)
}

// compressChunk is Compress, and with pieces Chunk.Compress (see
// encoder.compress).
func compressChunk(dst, src []byte, p *CParams, pieces *[][]byte) ([]byte, error) {
	q, err := chunkParams(p, src)
	if err != nil {
		return dst, err
	}
	return newEncoder(&q, src).compress(dst, pieces)
}

// chunkParams returns p with its defaults for a chunk of src's data, or
// why the two make no chunk.
func chunkParams(p *CParams, src []byte) (CParams, error) {
	q, err := p.orDefault()
	if err == nil {
		err = checkChunkLen(src)
	}
	return q, err
}

// chunkLenWithin compresses src into one chunk under p (on one goroutine,
// into *buf, which it may grow) and returns the chunk's length when it is
// at most limit bytes, or a length above limit. Under LZ4 the compression
// stops once the chunk would pass limit by withinSlack bytes: the
// automatic mode's probe needs a candidate's exact length only where it
// might win, and LZ4, its fastest tier's codec, gives up on a stream as
// soon as its output has no room left (lz4.c's limitedOutput), at a cost
// proportional to what it compressed. Other codecs compress the whole
// chunk.
func chunkLenWithin(buf *[]byte, src []byte, p *CParams, limit int) (int, error) {
	q, err := chunkParams(p, src)
	if err != nil {
		return 0, err
	}
	q.Concurrency = 1
	e := newEncoder(&q, src)
	// A limit at or above the longest chunk (stored as it is) bounds
	// nothing.
	if q.Codec == LZ4 && q.Format == ChunkBlosc2 && limit < len(src)+e.hl {
		// At least a chunk whose streams are all runs (4 or 5 bytes
		// each): all zeros, it becomes the special chunk, shorter.
		e.within = max(limit+withinSlack, e.tableEnd()+5*e.allStreams())
	}
	*buf, err = e.compress((*buf)[:0], nil)
	return len(*buf), err
}

// withinSlack is the room chunkLenWithin gives LZ4 beyond the limit:
// lz4.c's limitedOutput gives up on a stream when what it has written,
// the literals pending and the bytes every stream ends with (a token and
// the last 5 literals, at most 8 bytes) might not fit, before it knows
// what follows. With that much room a chunk that fits in limit has each
// stream compressed as without a bound, so the length is the same
// (TestChunkLenWithin); a chunk beyond it stops early or is stored as
// is, longer than limit either way.
const withinSlack = 16

// checkChunkLen refuses a chunk's data longer than a chunk can hold.
func checkChunkLen(src []byte) error {
	if len(src) > MaxBufferSize {
		return fmt.Errorf("%w: %d bytes in one chunk, at most %d", ErrTooLarge, len(src), MaxBufferSize)
	}
	return nil
}

// encoder holds the decisions made for one chunk.
type encoder struct {
	p        *CParams
	src      []byte
	h        Header
	hl       int  // header length: 32, or 16 for Blosc1
	blosc1   bool // a C-Blosc 1.x chunk (version 2)
	typesize int  // header typesize (1 when the element is wider than 255)
	nblocks  int
	leftover int
	split    bool
	codec    codec.Codec
	dict     []byte
	// within, when not 0, bounds the chunk's compressed length instead
	// of its data's length plus the header (chunkLenWithin).
	within int
}

// headerTypeSize is the typesize a chunk header stores and its filters
// use: elements wider than 255 bytes are stored as 1 (README_CHUNK_FORMAT.rst, "typesize").
func headerTypeSize(t int) int {
	if t > 255 {
		return 1
	}
	return t
}

func hcrCodec(id codec.ID) bool { return id == LZ4HC || id == Zlib || id == Zstd }

// levelBlockSize scales base, the cache-sized block of C's block-size
// tuning (L1 = 32 KiB), by the compression level and the codec's class
// (high-compression-ratio codecs get twice the block): the rule both
// C-Blosc2's blosc_stune_next_blocksize and C-Blosc 1.21's
// compute_blocksize apply.
func levelBlockSize(base int, p *CParams) int {
	bs := base
	hcr := hcrCodec(p.Codec)
	if hcr {
		bs *= 2
	}
	switch p.Level {
	case 0:
		bs /= 4
	case 1:
		bs /= 2
	case 2:
	case 3:
		bs *= 2
	case 4, 5:
		bs *= 4
	case 6, 7, 8:
		bs *= 8
	case 9:
		bs *= 8
		if hcr {
			bs *= 2
		}
	}
	return bs
}

// splitBlock is C-Blosc2's split_block: whether blocks of bs bytes with
// elements of t bytes are cut into t streams.
func splitBlock(p *CParams, t, bs int) bool {
	switch p.SplitMode {
	case SplitAlways:
		return true
	case SplitNever:
		return false
	}
	shuffled := false
	for _, f := range p.Filters {
		if f.ID == Shuffle {
			shuffled = true
		}
	}
	codecOK := p.Codec == BloscLZ || p.Codec == LZ4 || (p.Codec == Zstd && p.Level <= 5)
	return codecOK && shuffled && t <= 16 && bs/t >= 32
}

// autoBlockSize is C-Blosc2's blosc_stune_next_blocksize (blosc/stune.c),
// which also rounds a requested block size down to a multiple of typesize.
func autoBlockSize(p *CParams, nbytes int) int {
	t := p.TypeSize
	if nbytes < t {
		return 1
	}
	bs := p.BlockSize
	if bs == 0 {
		bs = nbytes
		if nbytes >= 32768 {
			bs = levelBlockSize(32768, p)
		}
		if p.Level > 0 && splitBlock(p, t, nbytes) {
			bs = [...]int{0, 32, 32, 32, 64, 64, 64, 128, 256, 512}[p.Level] * 1024 * t
			bs = min(max(bs, 32*1024), 4<<20)
		}
	}
	if bs > nbytes {
		bs = nbytes
	}
	if bs > t {
		bs = bs / t * t
	}
	return bs
}

// BlockSize returns the block size Compress chooses for nbytes bytes with
// parameters p (nil: DefaultCParams): C-Blosc2's automatic choice when
// p.BlockSize is 0, else p.BlockSize rounded down to a multiple of the
// typesize and clamped to nbytes; C-Blosc 1.21's choice for [ChunkBlosc1].
// Frames record it for special chunks.
func BlockSize(p *CParams, nbytes int) (int, error) {
	q, err := p.orDefault()
	if err != nil {
		return 0, err
	}
	if q.Format == ChunkBlosc1 {
		return blosc1BlockSize(&q, nbytes), nil
	}
	return autoBlockSize(&q, nbytes), nil
}

func newEncoder(p *CParams, src []byte) *encoder {
	e := &encoder{p: p, src: src}
	nbytes := len(src)
	e.typesize = headerTypeSize(p.TypeSize)
	e.blosc1 = p.Format == ChunkBlosc1
	var bs int
	if e.blosc1 {
		bs = blosc1BlockSize(p, nbytes)
		e.split = blosc1Split(p, e.typesize, bs)
		e.codec = lookupEncoder(p, e.split)
		e.hl = MinHeaderLen
	} else {
		bs = autoBlockSize(p, nbytes)
		// Splitting blocks shorter than the element would make empty
		// streams (a C-Blosc2 defect): never do it.
		e.split = splitBlock(p, e.typesize, bs) && bs >= e.typesize
		e.codec = lookupEncoder(p, false)
		e.hl = ExtendedHeaderLen
	}
	e.nblocks = nbytes / bs
	e.leftover = nbytes % bs
	if e.leftover > 0 {
		e.nblocks++
	}
	e.h = Header{
		Version:   VersionStable,
		VersionLZ: 1,
		TypeSize:  e.typesize,
		Nbytes:    nbytes,
		BlockSize: bs,
		Extended:  !e.blosc1,
		Filters:   p.Filters,
		Codec:     p.Codec,
		CodecMeta: p.CodecMeta,
	}
	if e.blosc1 {
		e.h.Version = VersionBlosc1
	}
	return e
}

// lookupEncoder returns the codec a chunk of p compresses with: the
// registered one ([codec.LookupBlosc1]'s for a Blosc1 chunk whose blocks
// are split or not), under FastZstd the Zstd of [codec.LookupFast], under
// LZ4Acceleration [codec.LZ4Accelerated]. An unknown codec is nil
// (validate refused it).
func lookupEncoder(p *CParams, split bool) codec.Codec {
	var c codec.Codec
	switch {
	case p.FastZstd && p.Codec == Zstd:
		c, _ = codec.LookupFast(p.Codec)
	case p.LZ4Acceleration != 0 && p.Codec == LZ4:
		c = codec.LZ4Accelerated(p.LZ4Acceleration)
	case p.Format == ChunkBlosc1:
		c, _ = codec.LookupBlosc1(p.Codec, split)
	default:
		c, _ = codec.Lookup(p.Codec)
	}
	return c
}

// blockLen is the length of block j.
func (e *encoder) blockLen(j int) int {
	if j == e.nblocks-1 && e.leftover > 0 {
		return e.leftover
	}
	return e.h.BlockSize
}

// streams is the number of streams of block j.
func (e *encoder) streams(j int) int {
	if e.split && !(j == e.nblocks-1 && e.leftover > 0) {
		return e.typesize
	}
	return 1
}

// blockBound is the most block j can take: every stream raw.
func (e *encoder) blockBound(j int) int { return e.blockLen(j) + 4*e.streams(j) }

// compress appends the chunk to dst and returns the extended slice. With
// pieces (Chunk: (*pieces)[0] is the place of the head, the rest empty),
// the blocks compressed on other goroutines are not copied into dst: they
// stay in the buffers they were compressed in, appended to *pieces in
// order, and dst gets the chunk's head only (header, block starts,
// dictionary). Either way, the chunk's bytes are the same.
func (e *encoder) compress(dst []byte, pieces *[][]byte) ([]byte, error) {
	nbytes := len(e.src)
	destsize := nbytes + e.hl // MaxOverhead, or Blosc1's 16
	start := len(dst)

	minBuffer := MinBufferSize
	if e.blosc1 {
		minBuffer = blosc1MinBufferSize
	}
	memcpy := e.p.Level == 0 || nbytes < minBuffer || e.hl+4*e.nblocks > destsize
	if !memcpy {
		if e.p.UseDict {
			if err := e.buildDict(); err != nil {
				return dst, err
			}
		}
		if e.blosc1 {
			e.h.Flags = blosc1Flags(&e.h, e.split)
		} else {
			e.h.Flags = flagExtended | uint8(codecFormat(e.p.Codec))<<5
			if !e.split {
				e.h.Flags |= flagNoSplit
			}
		}
		for _, f := range e.p.Filters {
			if f.ID == Delta {
				e.h.Flags |= flagDelta
			}
		}
		if e.dict != nil {
			e.h.blosc2Flag |= b2UseDict
		}
		keep := pieces != nil && e.threads() > 1
		if !keep {
			pieces = nil
		}
		headLen := destsize
		if keep {
			headLen = min(e.tableEnd(), destsize)
		}
		dst = grow(dst, headLen)
		limit := destsize
		if e.within > 0 {
			limit = min(limit, e.within)
		}
		n, err := e.compressBlocks(dst[start:start+headLen], limit, pieces)
		if err != nil {
			return dst[:start], err
		}
		if n > 0 {
			e.h.Cbytes = n
			if !e.blosc1 && e.allZeroRuns(n) {
				e.h.blosc2Flag |= uint8(SpecialZero) << 4
				e.h.Cbytes = ExtendedHeaderLen
				releaseBlocks(pieces)
				headLen = ExtendedHeaderLen
			} else if !keep {
				headLen = n
			}
			putHeader(dst[start:start+headLen], &e.h)
			return dst[:start+headLen], nil
		}
		// Did not fit: store the data as is, keeping the other flag bits as
		// C-Blosc2 does, but never the dictionary flag (C-Blosc2 cannot
		// read back its own memcpyed chunks that keep it).
		e.h.Flags |= flagMemcpyed
		e.h.blosc2Flag &^= b2UseDict
	} else if e.blosc1 {
		e.h.Flags = blosc1Flags(&e.h, e.split) | flagMemcpyed
	} else {
		e.h.Flags = flagExtended | flagMemcpyed
	}
	e.h.Cbytes = e.hl + nbytes
	dst = grow(dst, e.h.Cbytes)
	out := dst[start : start+e.h.Cbytes]
	putHeader(out, &e.h)
	copy(out[e.hl:], e.src)
	return dst[:start+e.h.Cbytes], nil
}

// grow returns dst with room for n more bytes. Exactly what is needed,
// not append's extra quarter: callers that keep output buffers
// (stream.Writer) bound their memory by the chunk size.
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	return append(make([]byte, 0, len(dst)+n), dst...)
}

// threads is how many goroutines compress the chunk's blocks.
func (e *encoder) threads() int { return min(e.p.Concurrency, e.nblocks) }

// releaseBlocks gives the block buffers of *pieces, after the head's
// place, back, and drops them.
func releaseBlocks(pieces *[][]byte) {
	if pieces == nil || len(*pieces) <= 1 {
		return
	}
	for _, b := range (*pieces)[1:] {
		putBlockBuf(b)
	}
	clear((*pieces)[1:])
	*pieces = (*pieces)[:1]
}

// allZeroRuns reports whether a chunk of n bytes holds nothing but zero-run
// streams, which C-Blosc2 turns into a special zero chunk.
func (e *encoder) allZeroRuns(n int) bool {
	if e.dict != nil || e.nblocks == 0 {
		return false
	}
	return n == ExtendedHeaderLen+4*e.nblocks+4*e.allStreams()
}

// allStreams is how many streams the chunk's blocks hold.
func (e *encoder) allStreams() int {
	n := 0
	for j := range e.nblocks {
		n += e.streams(j)
	}
	return n
}

// tableEnd is where the first block may start: after the header, the block
// starts and the dictionary.
func (e *encoder) tableEnd() int {
	n := e.hl + 4*e.nblocks
	if e.dict != nil {
		n += 4 + len(e.dict)
	}
	return n
}

// compressBlocks writes the block-start table, the dictionary and the
// blocks of a chunk of at most limit bytes, and returns the chunk length
// or 0 when it does not fit. out holds the table and the dictionary, and
// the blocks too unless they go to pieces (see compress): then out may be
// shorter than the chunk, and its positions are those in the chunk.
func (e *encoder) compressBlocks(out []byte, limit int, pieces *[][]byte) (int, error) {
	pos := e.tableEnd()
	if pos > limit {
		return 0, nil
	}
	if e.dict != nil {
		off := e.hl + 4*e.nblocks
		binary.LittleEndian.PutUint32(out[off:], uint32(len(e.dict)))
		copy(out[off+4:], e.dict)
	}
	if threads := e.threads(); threads > 1 {
		return e.compressParallel(out, pos, limit, threads, pieces)
	}
	s := getScratch(e.h.BlockSize, e.maxStreamBound())
	defer putScratch(s)
	for j := 0; j < e.nblocks; j++ {
		binary.LittleEndian.PutUint32(out[e.hl+4*j:], uint32(pos))
		var n int
		var err error
		if pos+e.blockBound(j) <= limit {
			n, err = e.compressBlock(out[pos:pos+e.blockBound(j)], j, s, -1)
		} else if n, err = e.compressNearEnd(s.blk, pos, limit, j, s); n > 0 {
			copy(out[pos:], s.blk[:n])
		}
		if err != nil || n == 0 {
			return 0, err
		}
		pos += n
	}
	return pos, nil
}

// compressParallel compresses blocks on several goroutines into buffers of
// their own and lays them out in block order as they complete, so that the
// chunk is the one the serial path writes: copied into out, or, with
// pieces, kept in their buffers and appended to *pieces.
func (e *encoder) compressParallel(out []byte, pos, limit, threads int, pieces *[][]byte) (int, error) {
	type result struct {
		buf []byte
		err error
	}
	results := make([]chan result, e.nblocks)
	for j := range results {
		results[j] = make(chan result, 1)
	}
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	// Workers run a bounded number of blocks ahead of the assembly, so
	// the block buffers alive are bounded by the thread count and a
	// constant, not the chunk: 2*threads blocks, or as many as fill 512
	// KiB. With 2 only, small blocks left the workers waiting for the
	// assembler to be scheduled: 1 MiB chunks of the bitshuffled values
	// in 32 KiB blocks under zstd 1 compressed 13-17% slower on two
	// goroutines (alternated in one process; 8*threads for every block
	// size cost LZ4 logs in 128 KiB blocks 5%). The lowest unassembled
	// block always holds a token: no deadlock. (Blocks kept as pieces
	// stay alive until the chunk is written, as the chunk would.)
	tokens := make(chan struct{}, max(2*threads, (512<<10)/e.h.BlockSize))
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := getScratch(e.h.BlockSize, e.maxStreamBound())
			defer putScratch(s)
			for {
				tokens <- struct{}{}
				j := int(next.Add(1) - 1)
				if j >= e.nblocks {
					<-tokens
					return
				}
				if stop.Load() {
					results[j] <- result{}
					continue
				}
				buf := getBlockBuf(e.blockBound(j))
				n, err := e.compressBlock(buf[:e.blockBound(j)], j, s, -1)
				results[j] <- result{buf[:n], err}
			}
		}()
	}
	var err error
	serial := getScratch(e.h.BlockSize, e.maxStreamBound())
	defer putScratch(serial)
	for j := 0; j < e.nblocks; j++ {
		r := <-results[j]
		if err == nil && r.err != nil {
			err = r.err
		}
		if err == nil && pos >= 0 {
			binary.LittleEndian.PutUint32(out[e.hl+4*j:], uint32(pos))
			blk, fits := r.buf, true
			if pos+e.blockBound(j) > limit {
				putBlockBuf(r.buf)
				r.buf = getBlockBuf(e.blockBound(j))
				n, cerr := e.compressNearEnd(r.buf, pos, limit, j, serial)
				blk, fits = r.buf[:n], cerr == nil && n > 0
				if !fits {
					// Does not fit: memcpy fallback (or an error).
					err, pos = cerr, -1
				}
			}
			if fits {
				if pieces != nil {
					*pieces = append(*pieces, blk)
					r.buf = nil
				} else {
					copy(out[pos:], blk)
				}
				pos += len(blk)
			}
		}
		if err != nil || pos < 0 {
			stop.Store(true)
		}
		if r.buf != nil {
			putBlockBuf(r.buf)
		}
		<-tokens
	}
	wg.Wait()
	if err != nil || pos < 0 {
		releaseBlocks(pieces)
		return 0, err
	}
	return pos, nil
}

func (e *encoder) maxStreamBound() int { return e.h.BlockSize + 4*e.typesize }

// compressNearEnd compresses block j, which starts at position pos of a
// chunk of at most limit bytes, into blk (blockBound(j) bytes at least)
// when the block might not fit in what is left. C-Blosc2 then hands the
// codec less room than a stream's length (and BloscLZ, for one, gives up
// below 66 bytes), so the block is compressed aside with those limits, and
// kept if it fits; it returns the block's length, 0 if not. Blocks whose
// every stream has room are compressed the same with or without limits:
// only this case depends on the position, which the parallel path
// therefore compresses again here, in order.
func (e *encoder) compressNearEnd(blk []byte, pos, limit, j int, s *scratch) (int, error) {
	n, err := e.compressBlock(blk[:e.blockBound(j)], j, s, limit-pos)
	if err != nil || n == 0 || pos+n > limit {
		return 0, err
	}
	return n, nil
}

// compressBlock filters block j and writes its streams into out, which
// must be blockBound(j) bytes long; it returns the bytes written, or 0 when
// they do not fit in room bytes (room < 0: no limit), with C-Blosc2's
// per-stream output limits.
func (e *encoder) compressBlock(out []byte, j int, s *scratch, room int) (int, error) {
	bs := e.h.BlockSize
	blk := e.src[j*bs : j*bs+e.blockLen(j)]
	var raw0 []byte
	if j > 0 {
		raw0 = e.src[:min(bs, len(e.src))]
	}
	data, err := pipelineForward(&e.h, e.p.Geometry, blk, raw0, s.a, s.b)
	if err != nil {
		return 0, err
	}
	nstreams := e.streams(j)
	neblock := len(data) / nstreams
	if room < 0 {
		room = len(out)
	}
	pos := 0
	for k := range nstreams {
		st := data[k*neblock : (k+1)*neblock]
		if pos+4 > room {
			return 0, nil
		}
		// C-Blosc 1.x neither writes nor reads runs: its streams are
		// always compressed or stored.
		if v, ok := runByte(st); ok && !e.blosc1 {
			if v == 0 {
				binary.LittleEndian.PutUint32(out[pos:], 0)
				pos += 4
			} else {
				if pos+5 > room {
					return 0, nil
				}
				binary.LittleEndian.PutUint32(out[pos:], uint32(-int32(v)))
				out[pos+4] = 0x01
				pos += 5
			}
			continue
		}
		maxout := min(neblock, room-pos-4)
		if maxout <= 0 {
			return 0, nil
		}
		var r int
		if sc, ok := e.codec.(codec.ShapedCodec); ok {
			r, err = sc.CompressShaped(out[pos+4:pos+4+maxout:pos+4+maxout], st, e.p.Level, e.p.CodecMeta, e.typesize, e.p.Geometry)
		} else {
			r, err = e.codec.Compress(out[pos+4:pos+4+maxout:pos+4+maxout], st, e.p.Level, e.p.CodecMeta, e.dict)
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %w", codec.Name(e.p.Codec), err)
		}
		if r > maxout {
			return 0, fmt.Errorf("%s: %w: codec wrote %d bytes into %d", codec.Name(e.p.Codec), ErrCorrupt, r, maxout)
		}
		if r <= 0 || r >= neblock {
			if pos+4+neblock > room {
				return 0, nil
			}
			r = neblock
			copy(out[pos+4:], st)
		}
		binary.LittleEndian.PutUint32(out[pos:], uint32(r))
		pos += 4 + r
	}
	return pos, nil
}

// runByte reports whether every byte of s is the same, and which. An empty
// s is a run of zeros, as in C-Blosc2. s is a run exactly when it equals
// itself shifted by one byte, which bytes.Equal compares with the
// runtime's vector loop, stopping at the first difference.
func runByte(s []byte) (byte, bool) {
	if len(s) == 0 {
		return 0, true
	}
	if !bytes.Equal(s[1:], s[:len(s)-1]) {
		return 0, false
	}
	return s[0], true
}

// buildDict makes the chunk's dictionary as C-Blosc2 does (blosc/blosc2.c, get_coffset and the dictionary code),
// or leaves e.dict nil when the chunk is too small for a useful one.
func (e *encoder) buildDict() error {
	nbytes := len(e.src)
	dictMax := min(MaxDictSize, nbytes/20)
	n := e.nblocks
	if e.split {
		n *= e.typesize
	}
	n = max(n, 8)
	sampleSize := nbytes / n / 16
	if dictMax < 256 || sampleSize == 0 {
		return nil
	}
	// The training input is the concatenation of the filtered blocks; only
	// its first n*sampleSize bytes are ever used.
	need := n * sampleSize
	if e.p.Codec != Zstd {
		need = min(need, dictMax)
	}
	filtered := make([]byte, 0, need)
	s := getScratch(e.h.BlockSize, 0)
	defer putScratch(s)
	bs := e.h.BlockSize
	for j := 0; j < e.nblocks && len(filtered) < need; j++ {
		var raw0 []byte
		if j > 0 {
			raw0 = e.src[:bs]
		}
		data, err := pipelineForward(&e.h, e.p.Geometry, e.src[j*bs:j*bs+e.blockLen(j)], raw0, s.a, s.b)
		if err != nil {
			return err
		}
		filtered = append(filtered, data[:min(len(data), need-len(filtered))]...)
	}
	if e.p.Codec != Zstd {
		e.dict = filtered
		return nil
	}
	trainer, ok := e.codec.(codec.DictTrainer)
	if !ok {
		return nil
	}
	samples := make([][]byte, n)
	for i := range samples {
		samples[i] = filtered[i*sampleSize : (i+1)*sampleSize]
	}
	d, err := trainer.TrainDict(samples, dictMax)
	if err != nil || len(d) == 0 {
		return nil // C-Blosc2 compresses without a dictionary when training fails
	}
	e.dict = d
	return nil
}

// scratch is one goroutine's working memory for a block: two filter buffers
// and one for a block compressed aside.
type scratch struct {
	a, b, blk []byte
}

var scratchPool sync.Pool

func getScratch(blocksize, blockBound int) *scratch {
	s, _ := scratchPool.Get().(*scratch)
	if s == nil {
		s = new(scratch)
	}
	if cap(s.a) < blocksize {
		s.a = make([]byte, blocksize)
		s.b = make([]byte, blocksize)
	}
	s.a, s.b = s.a[:cap(s.a)], s.b[:cap(s.b)]
	if cap(s.blk) < blockBound {
		s.blk = make([]byte, blockBound)
	}
	s.blk = s.blk[:cap(s.blk)]
	return s
}

func putScratch(s *scratch) { scratchPool.Put(s) }

var blockBufPool sync.Pool

func getBlockBuf(n int) []byte {
	if b, ok := blockBufPool.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]byte, n)
}

func putBlockBuf(b []byte) {
	b = b[:cap(b)]
	blockBufPool.Put(&b)
}
