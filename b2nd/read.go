package b2nd

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/fanout"
)

// chunkSource gives access to the compressed chunks of a frame, by logical
// chunk number. Special index entries (zeros, NaN, uninitialised) come back
// as the equivalent special chunks.
type chunkSource interface {
	NChunks() int64
	Chunk(i int64) ([]byte, error)
}

// sliceReader reads hyper-slices of one array; it keeps its buffers between
// calls and is not safe for concurrent use.
type sliceReader struct {
	g   *geom
	src chunkSource
	dp  *blosc2.DParams

	chunkBuf []byte // a whole decompressed chunk
	blockBuf []byte // a run of decompressed blocks
}

// checkSlice validates [start, stop) against the array's shape and returns
// the slice's extents and byte size.
func (g *geom) checkSlice(start, stop []int64) ([]int64, int64, error) {
	if len(start) != g.ndim || len(stop) != g.ndim {
		return nil, 0, fmt.Errorf("%w: slice of %d/%d dimensions for a %d-dimensional array",
			blosc2.ErrInvalidOption, len(start), len(stop), g.ndim)
	}
	ext := make([]int64, g.ndim)
	n := g.T
	for i := range g.ndim {
		if start[i] < 0 || start[i] > stop[i] || stop[i] > g.shape[i] {
			return nil, 0, fmt.Errorf("%w: slice [%d, %d) of dimension %d outside [0, %d)",
				blosc2.ErrInvalidOption, start[i], stop[i], i, g.shape[i])
		}
		ext[i] = stop[i] - start[i]
		n *= ext[i] // cannot overflow: bounded by nitems*T
	}
	return ext, n, nil
}

// readSlice decodes the box [start, stop) of the array into out, in C
// order; len(out) must be at least the box's byte size. Only the chunks
// that intersect the box are read, and of those only the blocks that do
// when they are few.
func (r *sliceReader) readSlice(out []byte, start, stop []int64) error {
	g := r.g
	ext, size, err := g.checkSlice(start, stop)
	if err != nil {
		return err
	}
	if int64(len(out)) < size {
		return fmt.Errorf("%w: slice needs %d bytes, buffer holds %d", blosc2.ErrInvalidOption, size, len(out))
	}
	if size == 0 {
		return nil
	}
	if g.nchunks != r.src.NChunks() {
		return fmt.Errorf("%w: the frame holds %d chunks, the array's shape needs %d", blosc2.ErrCorrupt, r.src.NChunks(), g.nchunks)
	}
	if g.ndim == 0 {
		buf, err := r.wholeChunk(0)
		if err != nil {
			return err
		}
		copy(out[:g.T], buf)
		return nil
	}
	nd := g.ndim
	clo := make([]int64, nd) // chunk grid box, inclusive
	cext := make([]int64, nd)
	count := int64(1)
	for i := range nd {
		clo[i] = start[i] / g.cs[i]
		cext[i] = (stop[i]-1)/g.cs[i] - clo[i] + 1
		count *= cext[i]
	}
	threads := 1
	if r.dp != nil {
		threads = int(min(int64(r.dp.Concurrency), count))
	}
	if threads <= 1 {
		for j := range count {
			if err := r.readChunkOf(out, ext, start, stop, clo, cext, j); err != nil {
				return err
			}
		}
		return nil
	}
	// Several chunks and several goroutines: one chunk per goroutine at a
	// time (each decoding its chunk serially), each with its own buffers.
	// The chunks write disjoint parts of out.
	var (
		nextJob  atomic.Int64
		firstErr error
		errOnce  sync.Once
	)
	dp := *r.dp
	dp.Concurrency = 1
	fanout.Run(threads, func() {
		w := &sliceReader{g: g, src: r.src, dp: &dp}
		for {
			j := nextJob.Add(1) - 1
			if j >= count {
				return
			}
			if err := w.readChunkOf(out, ext, start, stop, clo, cext, j); err != nil {
				errOnce.Do(func() { firstErr = err })
				nextJob.Store(count)
				return
			}
		}
	})
	return firstErr
}

// readChunkOf reads the part of the slice [start, stop) (extents ext) that
// lies in the j-th chunk, in C order, of the chunk box at clo of extents
// cext.
func (r *sliceReader) readChunkOf(out []byte, ext, start, stop, clo, cext []int64, j int64) error {
	g := r.g
	nd := g.ndim
	var buf [6 * MaxDim]int64
	c, lo, ilo, ihi, blo, bhi := buf[0:nd], buf[MaxDim:MaxDim+nd], buf[2*MaxDim:2*MaxDim+nd],
		buf[3*MaxDim:3*MaxDim+nd], buf[4*MaxDim:4*MaxDim+nd], buf[5*MaxDim:5*MaxDim+nd]
	unravel(j, cext, c)
	for i := range nd {
		c[i] += clo[i]
		lo[i] = c[i] * g.cs[i]
		ilo[i] = max(lo[i], start[i])
		ihi[i] = min(lo[i]+g.cs[i], stop[i])
		blo[i] = (ilo[i] - lo[i]) / g.bs[i]
		bhi[i] = (ihi[i] - 1 - lo[i]) / g.bs[i]
	}
	return r.readChunk(out, ext, start, ravel(c, g.cia), lo, ilo, ihi, blo, bhi)
}

// wholeChunk decompresses chunk k into r.chunkBuf and returns it.
func (r *sliceReader) wholeChunk(k int64) ([]byte, error) {
	chunk, h, err := r.chunk(k)
	if err != nil {
		return nil, err
	}
	return r.decodeWhole(k, chunk, &h)
}

func (r *sliceReader) decodeWhole(k int64, chunk []byte, h *blosc2.Header) ([]byte, error) {
	cb := int(r.g.chunkBytes())
	if cap(r.chunkBuf) < cb {
		r.chunkBuf = make([]byte, cb)
	}
	buf := r.chunkBuf[:cb]
	if h.Special() == blosc2.SpecialUninit {
		clear(buf)
	}
	if _, err := blosc2.DecompressTo(buf, chunk, r.dp); err != nil {
		return nil, fmt.Errorf("chunk %d: %w", k, err)
	}
	return buf, nil
}

// chunk fetches chunk k and checks that it holds a whole padded chunk.
func (r *sliceReader) chunk(k int64) ([]byte, blosc2.Header, error) {
	chunk, err := r.src.Chunk(k)
	if err != nil {
		return nil, blosc2.Header{}, err
	}
	h, err := blosc2.ParseHeader(chunk)
	if err != nil {
		return nil, h, fmt.Errorf("chunk %d: %w", k, err)
	}
	if int64(h.Nbytes) != r.g.chunkBytes() {
		return nil, h, fmt.Errorf("%w: chunk %d holds %d bytes, the array's chunks hold %d",
			blosc2.ErrCorrupt, k, h.Nbytes, r.g.chunkBytes())
	}
	return chunk, h, nil
}

// readChunk copies the part [ilo, ihi) of chunk k (array box starting at
// lo, blocks blo..bhi) into out (extents ext, origin start).
func (r *sliceReader) readChunk(out []byte, ext, start []int64, k int64, lo, ilo, ihi, blo, bhi []int64) error {
	g := r.g
	nd := g.ndim
	chunk, h, err := r.chunk(k)
	if err != nil {
		return err
	}
	nb := int64(1)
	for i := range nd {
		nb *= bhi[i] - blo[i] + 1
	}
	hts := int64(h.TypeSize)
	partial := 2*nb < g.nblocks && h.Special() == blosc2.SpecialNone && !h.Memcpyed() &&
		hts > 0 && g.blockBytes()%hts == 0
	b := append([]int64(nil), blo...)
	blk := make([]int64, nd)  // block's array origin
	bo := make([]int64, nd)   // copy origin inside the block
	dOff := make([]int64, nd) // copy origin in out
	n := make([]int64, nd)
	bb := g.blockBytes()
	copyBlock := func(src []byte) {
		for i := range nd {
			blk[i] = lo[i] + b[i]*g.bs[i]
			a := max(blk[i], ilo[i])
			e := min(blk[i]+g.bs[i], ihi[i])
			bo[i] = a - blk[i]
			dOff[i] = a - start[i]
			n[i] = e - a
		}
		copyBox(out, ext, dOff, src, g.bs, bo, n, g.T)
	}
	if !partial {
		buf, err := r.decodeWhole(k, chunk, &h)
		if err != nil {
			return err
		}
		for {
			nb := ravel(b, g.bic)
			copyBlock(buf[nb*bb : (nb+1)*bb])
			if !next(b, blo, bhi) {
				return nil
			}
		}
	}
	// Decode one run of blocks along the last dimension at a time: their
	// numbers are consecutive, so one GetItems call covers them.
	last := nd - 1
	runLen := bhi[last] - blo[last] + 1
	for {
		first := ravel(b, g.bic)
		var err error
		r.blockBuf, err = blosc2.GetItems(r.blockBuf[:0], chunk, int(first*bb/hts), int(runLen*bb/hts), r.dp)
		if err != nil {
			return fmt.Errorf("chunk %d: %w", k, err)
		}
		for j := int64(0); j < runLen; j++ {
			b[last] = blo[last] + j
			copyBlock(r.blockBuf[j*bb : (j+1)*bb])
		}
		if !next(b, blo, bhi) {
			return nil
		}
	}
}
