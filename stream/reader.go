package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/option"
)

// Reader decompresses the Blosc2 frames read from an io.Reader.
//
// Frames carry per-chunk checksums (unless written WithoutChecksums, or
// by C-Blosc2): reading through the index verifies each chunk before it is
// decoded; reading front to back verifies a frame's chunks when its
// trailer arrives, before io.EOF, as gzip checks its CRC at the end of a
// member. A mismatch is an error wrapping blosc2.ErrChecksum.
//
// Like gzip.Reader, it reads a concatenation of frames (cat a b, appends
// with >>, a Writer's Flushes on a socket) as one stream, unless
// WithMultistream(false) stops it after the first frame; bytes after a
// frame that do not start another are an error saying where.
//
// Read returns the data at hand (the rest of the current chunk, or one
// chunk) rather than waiting to fill its buffer, so a peer's flushed data
// arrives at once; io.ReadFull fills a buffer.
//
// Chunks are decompressed ahead of Read by up to the configured number of
// goroutines, as far as WithMaxMemory allows. When the
// source is an io.ReaderAt or an io.ReadSeeker, Seek and ReadAt give
// random access through the frames' indexes.
//
// Close ends the Reader at once, also from another goroutine while a Read
// waits for data: the read-ahead goroutine then ends when its pending Read
// of the source returns, which Close brings about at once for sources it
// closes (WithCloseSource: a socket, a pipe). Reading to io.EOF or to an
// error stops the goroutines too.
type Reader struct {
	opts readerOptions
	src  io.Reader
	seq  chunkSource
	ra   *randomAccess // set when the source allows random access

	cur    []byte // the decoded chunk being read (or a piece of virt)
	virt   virtualChunk
	chunk  []byte // the compressed chunk last decoded (one goroutine)
	curOff int    // read position inside cur
	pos    int64  // position of the next Read in the whole stream
	ahead  *readAhead
	spares *spareBuffers // the read-ahead's buffers, kept across Reset
	err    error
	// closing is closed by Close, which may run concurrently with Read.
	closing   chan struct{}
	closeOnce *sync.Once
	closeErr  error
}

// NewReader returns a Reader of the frame r holds. It reads the frame's
// header at once and fails if r does not hold a Blosc2 frame.
func NewReader(r io.Reader, opts ...ReaderOption) (*Reader, error) {
	o := defaultReaderOptions()
	if err := option.Apply(&o, opts); err != nil {
		return nil, err
	}
	zr := &Reader{opts: o}
	if err := zr.Reset(r); err != nil {
		return nil, err
	}
	return zr, nil
}

// Reset stops any work in progress and makes the Reader read the frame r
// holds, with the same options.
func (r *Reader) Reset(src io.Reader) error {
	r.abandon()
	*r = Reader{opts: r.opts, src: src, cur: r.cur[:0], chunk: r.chunk[:0], spares: r.spares, // keep the buffers
		closing: make(chan struct{}), closeOnce: new(sync.Once)}
	if r.spares == nil {
		// Made here, not with the read-ahead: Close reads it from any
		// goroutine.
		r.spares = newSpareBuffers(r.opts.concurrency)
	}
	ra, err := newRandomAccess(src, &r.opts)
	if err != nil {
		r.err = err
		return err
	}
	r.ra = ra
	if ra == nil {
		seq, err := newSequentialSource(src, &r.opts)
		if err != nil {
			r.err = err
			return err
		}
		r.seq = seq
	} else {
		r.seq = ra.source()
	}
	return nil
}

// stop ends the read-ahead and waits for its goroutines (at io.EOF, on
// errors and for Seek, whose sources do not block).
func (r *Reader) stop() {
	if r.ahead != nil {
		r.ahead.stop()
		r.ahead = nil
	}
}

// abandon ends the read-ahead without waiting for a fetch blocked in the
// source's Read (Reset).
func (r *Reader) abandon() {
	if r.ahead != nil {
		r.ahead.abandon()
		r.ahead = nil
	}
}

func (r *Reader) dparams() *blosc2.DParams {
	return &blosc2.DParams{MaxMemory: r.opts.maxMemory}
}

// nextChunk makes the next decoded chunk current. With one goroutine, a
// chunk that fits in direct (the caller's buffer) is decoded straight into
// it instead, saving a copy: then it returns the decoded length and leaves
// cur empty.
func (r *Reader) nextChunk(direct []byte) (int, error) {
	if r.opts.concurrency <= 1 {
		c, pos, err := r.seq.Next(r.chunk)
		if err != nil {
			return 0, err
		}
		r.chunk = c
		if _, err := fitsMemory(c, pos, int64(r.opts.maxMemory)); err != nil {
			return 0, err
		}
		if v, ok, err := newVirtualChunk(c, pos.run); err != nil {
			return 0, pos.wrap(err)
		} else if ok {
			r.virt = v
			r.cur, r.curOff = r.cur[:0], 0
			return 0, nil
		}
		// Decompress appends nbytes in place when the capacity allows;
		// the capacity limit keeps it inside direct.
		dst, into := r.cur[:0], false
		if p, err := blosc2.ParsePrefix(c); err == nil && len(direct) > 0 && p.Nbytes > 0 && p.Nbytes <= len(direct) {
			dst, into = direct[:0:len(direct)], true
		}
		dp := r.dparams()
		dp.Geometry = pos.geom
		out, err := blosc2.Decompress(dst, c, dp)
		if err != nil {
			return 0, pos.wrap(err)
		}
		if into {
			r.cur, r.curOff = r.cur[:0], 0
			return len(out), nil
		}
		r.cur, r.curOff = out, 0
		return 0, nil
	}
	if r.ahead == nil {
		r.ahead = startReadAhead(r.seq, r.opts.concurrency, r.dparams(), r.spares, r.closing, nil)
	}
	out, virt, err := r.ahead.next(r.cur)
	// r.cur went back to the spare buffers: never keep it, or a Reset
	// would hand it out a second time.
	r.cur, r.curOff, r.virt = out, 0, virt
	return 0, err
}

// current makes sure cur has unread bytes, taking the next piece of a
// virtual chunk or the next chunk; with one goroutine a chunk that fits
// in direct is decoded into it (see nextChunk), and its length returned.
func (r *Reader) current(direct []byte) (int, error) {
	for r.curOff == len(r.cur) {
		if r.virt.left() > 0 {
			r.cur, r.curOff = r.virt.next(), 0
			continue
		}
		k, err := r.nextChunk(direct)
		if err != nil || k > 0 {
			return k, err
		}
	}
	return 0, nil
}

func (r *Reader) isClosed() bool {
	select {
	case <-r.closing:
		return true
	default:
		return false
	}
}

var errWriteToPanicked = fmt.Errorf("%w: stream.Reader stopped when a WriteTo panicked", blosc2.ErrClosed)

var errReaderClosed = fmt.Errorf("%w: read from closed stream.Reader", blosc2.ErrClosed)

func (r *Reader) check() error {
	if r.isClosed() {
		return errReaderClosed
	}
	return r.err
}

// fail records a terminal condition and stops the read-ahead (without
// waiting for it after Close, whose source may be blocked).
func (r *Reader) fail(err error) error {
	r.err = err
	if r.isClosed() {
		r.abandon()
	} else {
		r.stop()
		r.release()
	}
	return err
}

// release hands the spare buffers of a Reader whose goroutines have ended
// to the Readers that come next (readerDecoded, readerCompressed), and
// drops the rest.
func (r *Reader) release() {
	r.spares.toPool()
	r.cur, r.curOff, r.chunk, r.virt = nil, 0, nil, virtualChunk{}
}

// Read reads decompressed data: what is left of the current chunk, or the
// next chunk once it has arrived, whichever comes first; it waits only
// when it has nothing to return.
func (r *Reader) Read(p []byte) (int, error) {
	if err := r.check(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	k, err := r.current(p)
	if err != nil {
		if r.isClosed() {
			err = errReaderClosed
		}
		return 0, r.fail(err)
	}
	if k > 0 {
		r.pos += int64(k)
		return k, nil
	}
	k = copy(p, r.cur[r.curOff:])
	r.curOff += k
	r.pos += int64(k)
	return k, nil
}

// WriteTo writes the rest of the decompressed data to w (io.Copy uses it).
//
// Into a *bytes.Buffer, from a Reader that has not started reading, the
// chunks are decoded straight into the buffer's spare capacity (grown
// ahead with Grow) and then appended with Write, which finds them in
// place: no copy of the decoded data.
func (r *Reader) WriteTo(w io.Writer) (total int64, err error) {
	if err := r.check(); err != nil {
		if err == io.EOF {
			return 0, nil
		}
		return 0, err
	}
	buf, isBuffer := w.(*bytes.Buffer)
	fresh := r.ahead == nil && r.curOff == len(r.cur) && r.virt.left() == 0
	if br, ok := r.src.(*bytes.Reader); ok && isBuffer && fresh && r.pos == 0 {
		if total, ok, err := r.writeFromMemory(br, buf); ok {
			return total, err
		}
	}
	if isBuffer && fresh && r.opts.concurrency > 1 {
		ra := startReadAhead(r.seq, r.opts.concurrency, r.dparams(), r.spares, r.closing, buf)
		r.ahead = ra
		defer func() {
			// Nothing may write into buf once WriteTo returns, also when
			// it panics (Grow's bytes.ErrTooLarge): the decoders are
			// stopped and waited for, and no slice of buf is kept.
			if r.ahead == ra {
				// A panic: what the fetcher read is lost to a Reader
				// that would go on.
				ra.abandon()
				r.ahead = nil
				if r.err == nil {
					r.err = errWriteToPanicked
				}
			}
			ra.decoders.Wait()
			if ra.last != nil && ra.last.region {
				r.cur, r.curOff = nil, 0
			}
		}()
	}
	for {
		if r.curOff < len(r.cur) {
			k, err := w.Write(r.cur[r.curOff:])
			r.curOff += k
			total += int64(k)
			r.pos += int64(k)
			if err != nil {
				return total, err
			}
		}
		if _, err := r.current(nil); err != nil {
			if err == io.EOF {
				r.err = io.EOF
				r.stop()
				r.release()
				return total, nil
			}
			return total, r.fail(err)
		}
	}
}

// writeFromMemory is WriteTo from a *bytes.Reader into a *bytes.Buffer
// for a Reader that has not started: the source hands its bytes to one
// Write (bytes.Reader.WriteTo), which decodes them as DecodeAll does,
// each chunk from where it lies in them straight into its place in buf,
// and returns only once no goroutine reads them: nothing is copied in or
// out, and nothing keeps the source's slice. The source is left where
// it was, as reading through its ReadAt leaves it. ok is false, nothing
// done, when the source has moved since Reset, or the frames declare
// more than the memory cap (then the read-ahead grows buf as the chunks
// arrive).
func (r *Reader) writeFromMemory(br *bytes.Reader, buf *bytes.Buffer) (total int64, ok bool, err error) {
	a := r.ra
	if a == nil || br.Size() != a.to || br.Size()-int64(br.Len()) != a.from || a.Size() > int64(r.opts.maxMemory) {
		return 0, false, nil
	}
	_, err = br.WriteTo(writerFunc(func(p []byte) (int, error) {
		m, err := openFrames(frame.Memory(p), int64(len(p)), &r.opts)
		if err != nil {
			return 0, err
		}
		if m.Size() != a.Size() { // the caller changed the source's bytes
			return 0, fmt.Errorf("%w: the frames now declare %d bytes, %d when the Reader opened them", blosc2.ErrCorrupt, m.Size(), a.Size())
		}
		buf.Grow(int(m.Size()))
		out, err := m.appendDecoded(buf.AvailableBuffer(), r.opts.concurrency, r.closing)
		buf.Write(out) // in place: Write's copy is onto itself
		total = int64(len(out))
		return len(p), err
	}))
	if _, serr := br.Seek(a.from, io.SeekStart); err == nil {
		err = serr
	}
	r.pos += total
	if err != nil {
		if r.isClosed() {
			err = errReaderClosed
		}
		return total, true, r.fail(err)
	}
	r.err = io.EOF
	r.release()
	return total, true, nil
}

// writerFunc is an io.Writer made of a function.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// Close ends the Reader: later calls return an error wrapping
// blosc2.ErrClosed, and a Read waiting for the read-ahead returns at once.
// It returns without waiting for a Read of the source in progress (see
// Reader), and closes the source only with WithCloseSource, returning
// that Close's error. It may be called from any goroutine, also while
// another one is in Read; it is idempotent.
func (r *Reader) Close() error {
	if r.closeOnce == nil {
		return nil
	}
	r.closeOnce.Do(func() {
		close(r.closing)
		// Only buffers nobody holds are in the spares, also while a
		// Read or the read-ahead still runs.
		r.spares.toPool()
		if c, ok := r.src.(io.Closer); ok && r.opts.closeSource {
			r.closeErr = c.Close()
		}
	})
	return r.closeErr
}

// readAhead decodes chunks on goroutines and hands them out in order.
type readAhead struct {
	*spareBuffers
	budget *budget
	order  chan *decoded // in stream order; its capacity bounds the read-ahead
	last   *decoded      // the chunk the consumer reads, released by the next call to next
	// recycled holds the decoded records the consumer is done with: a
	// long stream allocates none per chunk.
	recycled chan *decoded
	quit     chan struct{}
	closing  <-chan struct{} // the Reader's: closed by Close
	wg       sync.WaitGroup  // all goroutines
	decoders sync.WaitGroup  // the decoders alone: they never block on the source
	// dest, when not nil, is the WriteTo destination whose spare capacity
	// the chunks are decoded into (see window); only the consumer
	// touches it. windows carries each new window from the consumer to
	// the fetcher.
	dest      *bytes.Buffer
	destStart int // dest.Len() when the read-ahead started
	windows   chan []byte
}

type decoded struct {
	virt       virtualChunk
	pos        chunkPos
	compressed []byte
	out        []byte
	reserved   int64 // bytes of the budget this chunk holds
	room       int64 // of which its decoded bytes may take (decodedRoom)
	err        error
	done       chan struct{} // one value when out, virt and err are set
	// region: out is this chunk's place in the destination's spare
	// capacity (readAhead.dest), not a buffer of ours; needWindow: the
	// fetcher waits for the consumer to grow the destination for this
	// chunk of needWindow bytes, the chunks before it being written.
	region     bool
	needWindow int
}

// decodedRoom is what decoding chunk c may hold: its declared size, with
// room for a spare buffer slightly larger, or one piece of a special
// chunk produced in pieces. Chunks too short to say are decoded into
// nothing and fail.
func decodedRoom(c []byte) int64 {
	p, err := blosc2.ParsePrefix(c)
	switch {
	case err != nil:
		return 0
	case p.Special != blosc2.SpecialNone && p.Nbytes >= virtualMin:
		return virtualPiece + 255 // a whole number of elements, typesize ≤ 255
	case p.Special != blosc2.SpecialNone && p.Nbytes <= virtualPiece:
		return virtualPiece + int64(p.Nbytes) // perhaps a run: whole chunks
	default:
		return int64(p.Nbytes) + int64(p.Nbytes)/16
	}
}

// fitsMemory returns the room decoding chunk c takes (decodedRoom), and
// an error wrapping blosc2.ErrTooLarge when c, compressed and decoded,
// does not fit in limit bytes.
func fitsMemory(c []byte, pos chunkPos, limit int64) (room int64, err error) {
	if room = decodedRoom(c); int64(cap(c))+room > limit {
		return room, pos.wrap(fmt.Errorf("%w: the chunk takes %d bytes compressed and up to %d decoded, more than the memory cap of %d (WithMaxMemory)",
			blosc2.ErrTooLarge, len(c), room, limit))
	}
	return room, nil
}

// startReadAhead starts the fetcher and n decoders. With dest, chunks are
// decoded into dest's spare capacity where they will end up (see
// window): the fetcher lays them out one after the other in a window of
// it, and when a chunk does not fit, asks the consumer, who by then has
// written every chunk before it, for a new window.
func startReadAhead(src chunkSource, n int, dp *blosc2.DParams, spares *spareBuffers, closing <-chan struct{}, dest *bytes.Buffer) *readAhead {
	ra := &readAhead{
		dest:         dest,
		windows:      make(chan []byte, 1),
		spareBuffers: spares,
		budget:       newBudget(int64(dp.MaxMemory), spares),
		// n chunks queue behind the one the consumer holds, so that all n
		// decoders keep working while it writes one out (n-1 left one
		// idle: logs read into a bytes.Buffer ran 16-20% slower).
		order:    make(chan *decoded, n),
		recycled: make(chan *decoded, n+2), // as many as are alive at once
		quit:     make(chan struct{}),
		closing:  closing,
	}
	work := make(chan *decoded)
	if dest != nil {
		ra.destStart = dest.Len()
	}
	ra.wg.Add(1)
	go func() { // fetcher: reads compressed chunks in order
		defer ra.wg.Done()
		defer close(work)
		defer close(ra.order)
		var window []byte // the rest of dest's current window
		for {
			reuse := ra.take(ra.freeC)
			c, pos, err := src.Next(reuse)
			if c == nil {
				// No chunk took it (the end of the stream, most often):
				// kept for the next Reader.
				ra.budget.keep(ra.freeC, reuse)
			}
			d := ra.record()
			d.pos, d.compressed, d.err = pos, c, err
			if err == nil {
				if d.room, d.err = fitsMemory(c, pos, ra.budget.limit); d.err != nil && cap(c) > len(c) {
					// The slack of a reused buffer counted against the
					// cap: the chunk alone may still fit, in a buffer of
					// its size.
					c = append(make([]byte, 0, len(c)), c...)
					d.compressed = c
					d.room, d.err = fitsMemory(c, pos, ra.budget.limit)
				}
				if d.err != nil {
					d.compressed = nil
				} else if d.reserved = int64(cap(c)) + d.room; !ra.budget.reserve(d.reserved, ra.quit, ra.closing) {
					return
				}
			}
			if d.err != nil {
				d.done <- struct{}{}
			}
			nb := 0
			if dest != nil && d.err == nil {
				if nb = regionSize(c, pos); nb > len(window) {
					d.needWindow = nb
				}
				if nb == 0 {
					// Written by copying, after the chunks before it:
					// the window ends here.
					window = nil
				}
			}
			select {
			case ra.order <- d:
			case <-ra.quit:
				return
			case <-ra.closing:
				return
			}
			if d.err != nil {
				return
			}
			if d.needWindow > 0 {
				select {
				case window = <-ra.windows:
				case <-ra.quit:
					return
				case <-ra.closing:
					return
				}
			}
			if nb > len(window) {
				// Never so (window gives at least nb), but a chunk
				// written by copying must end the window.
				nb, window = 0, nil
			}
			if nb > 0 {
				d.out, d.region = window[:0:nb], true
				window = window[nb:]
			}
			select {
			case work <- d:
			case <-ra.quit:
				return
			case <-ra.closing:
				return
			}
		}
	}()
	for range n {
		ra.wg.Add(1)
		ra.decoders.Add(1)
		go func() { // decoders
			defer ra.wg.Done()
			defer ra.decoders.Done()
			var q blosc2.DParams // dp for the chunk at hand
			for {
				var d *decoded
				select {
				case d = <-work:
				case <-ra.quit:
					return
				}
				if d == nil {
					return // work closed
				}
				buf := d.out // a region of the destination, or nil
				if !d.region {
					buf = ra.take(ra.free)
					if extra := int64(cap(buf)) - d.room; extra > 0 {
						// Larger than the reservation covers (a stream's
						// short last chunk): used if the budget has room
						// for the difference, rather than allocating a
						// small buffer that the next full chunk would
						// have to replace.
						if ra.budget.tryReserve(extra) {
							d.reserved += extra
							d.room += extra
						} else {
							buf = nil
						}
					}
				}
				if v, ok, err := newVirtualChunk(d.compressed, d.pos.run); err != nil {
					d.err = d.pos.wrap(err)
				} else if ok {
					d.virt, d.out = v, buf[:0]
				} else {
					q = *dp
					q.Geometry, q.Concurrency = d.pos.geom, blockConcurrency(d.compressed, d.pos, n)
					if d.out, d.err = blosc2.Decompress(buf[:0], d.compressed, &q); d.err != nil {
						d.err = d.pos.wrap(d.err)
					} else if d.region && (len(d.out) != cap(buf) || &d.out[0] != &buf[:1][0]) {
						// Not in its place: the chunks after it are laid
						// out as if it were.
						d.err = d.pos.wrap(fmt.Errorf("%w: the chunk decodes to %d bytes, its header says %d", blosc2.ErrCorrupt, len(d.out), cap(buf)))
					}
				}
				// The compressed bytes are done with: their share of the
				// reservation goes back, and the buffer to the spares.
				c := d.compressed
				d.compressed = nil
				d.reserved -= int64(cap(c))
				ra.budget.releaseKeeping(int64(cap(c)), ra.freeC, c)
				d.done <- struct{}{}
			}
		}()
	}
	return ra
}

// regionSize is the size chunk c takes in the WriteTo destination when it
// is decoded there: its declared size for an ordinary chunk; 0 for the
// chunks written by copying (special chunks, runs, chunks too short to
// say).
func regionSize(c []byte, pos chunkPos) int {
	p, err := blosc2.ParsePrefix(c)
	if err != nil || p.Special != blosc2.SpecialNone || pos.run > 1 || p.Nbytes <= 0 {
		return 0
	}
	return p.Nbytes
}

// window grows the destination for chunk d, which needs d.needWindow
// bytes, and hands the fetcher the new window: the destination's spare
// capacity, where the next chunks are laid out in order. Every chunk
// before d is written, so no decoder writes into the old one. The window
// holds about the n chunks the read-ahead decodes at once, or the rest
// of the stream when the indexes say it is shorter, or the data written
// so far (geometric growth, like bytes.Buffer's own), and never more
// than the memory cap beyond d: a hostile chunk size or index cannot
// make it large.
func (ra *readAhead) window(d *decoded) {
	n := int64(cap(ra.order)) // the read-ahead's goroutines
	need := int64(d.needWindow)
	want := max(need*(n+1), int64(ra.dest.Len()-ra.destStart))
	if d.pos.after >= 0 {
		want = min(want, need+d.pos.after)
	}
	// At least need: the fetcher lays d out in the window. need fits
	// under the cap (fitsMemory), so want fits in an int.
	want = min(want, max(need, ra.budget.limit))
	ra.dest.Grow(int(want))
	w := ra.dest.AvailableBuffer()
	ra.windows <- w[:cap(w)]
}

// blockConcurrency is how many goroutines decode the blocks of chunk c
// out of the read-ahead's n: all n when the rest of the stream holds less
// than n-1 chunks like it (a short stream, or the tail of one), whose
// decoders would otherwise sit idle while this chunk decodes on one; 1
// otherwise, as the read-ahead keeps the n busy with a chunk each.
func blockConcurrency(c []byte, pos chunkPos, n int) int {
	if pos.after < 0 || n <= 1 {
		return 1
	}
	p, err := blosc2.ParsePrefix(c)
	if err != nil || pos.after >= int64(n-1)*int64(p.Nbytes) {
		return 1
	}
	return n
}

// record returns a cleared decoded record, recycled if one is free.
func (ra *readAhead) record() *decoded {
	select {
	case d := <-ra.recycled:
		*d = decoded{done: d.done} // its done was received: empty
		return d
	default:
		return &decoded{done: make(chan struct{}, 1)}
	}
}

// next returns the next decoded chunk; prev is the caller's finished
// buffer, recycled.
func (ra *readAhead) next(prev []byte) ([]byte, virtualChunk, error) {
	if ra.last != nil {
		if ra.last.region {
			prev = nil // the destination's, not ours
		}
		ra.budget.releaseKeeping(ra.last.reserved, ra.free, prev)
		select {
		case ra.recycled <- ra.last:
		default:
		}
		ra.last = nil
	} else {
		ra.budget.keep(ra.free, prev)
	}
	var d *decoded
	var ok bool
	select {
	case d, ok = <-ra.order:
	case <-ra.closing:
		return nil, virtualChunk{}, errReaderClosed
	}
	if !ok {
		return nil, virtualChunk{}, io.EOF
	}
	if d.needWindow > 0 {
		ra.window(d)
	}
	// The fetcher may have seen the Close before handing d to a decoder.
	select {
	case <-d.done:
	case <-ra.closing:
		return nil, virtualChunk{}, errReaderClosed
	}
	ra.last = d
	return d.out, d.virt, d.err
}

// stop ends the goroutines and waits for them.
func (ra *readAhead) stop() {
	// Every send of the fetcher also selects on quit, and decoders only
	// close channels, so nothing stays blocked once quit is closed.
	close(ra.quit)
	ra.wg.Wait()
}

// abandon ends the goroutines without waiting: a fetcher blocked in the
// source's Read ends when that Read returns. They own the buffers they
// hold, so nothing they do afterwards reaches the Reader.
func (ra *readAhead) abandon() { close(ra.quit) }

var errNoRandomAccess = errors.New("stream: source is neither an io.ReaderAt nor an io.ReadSeeker")

// ReadAt reads decompressed bytes at offset off, decoding only the chunks
// (and blocks) that hold them; each chunk is verified whole against the
// frame's checksums, when it carries them, before it is decoded. It does not move the Read position and is
// safe to call from several goroutines, also alongside Read. It needs a
// source that is an io.ReaderAt or an io.ReadSeeker.
func (r *Reader) ReadAt(p []byte, off int64) (int, error) {
	if r.isClosed() {
		return 0, fmt.Errorf("%w: ReadAt on closed stream.Reader", blosc2.ErrClosed)
	}
	if r.ra == nil {
		return 0, errNoRandomAccess
	}
	return r.ra.ReadAt(p, off)
}

// Size is the total decompressed size when the source allows random
// access, or -1.
func (r *Reader) Size() int64 {
	if r.ra == nil {
		return -1
	}
	return r.ra.Size()
}

// Seek sets the position of the next Read (io.Seeker). It needs a source
// that is an io.ReaderAt or an io.ReadSeeker.
func (r *Reader) Seek(offset int64, whence int) (int64, error) {
	if r.isClosed() {
		return 0, fmt.Errorf("%w: Seek on closed stream.Reader", blosc2.ErrClosed)
	}
	if r.ra == nil {
		return 0, errNoRandomAccess
	}
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.pos
	case io.SeekEnd:
		offset += r.ra.Size()
	default:
		return 0, fmt.Errorf("%w: whence %d", blosc2.ErrInvalidOption, whence)
	}
	if offset < 0 {
		return 0, fmt.Errorf("%w: negative position %d", blosc2.ErrInvalidOption, offset)
	}
	r.stop()
	r.err = nil
	src, skip, err := r.ra.sourceFrom(offset)
	if err != nil {
		return 0, r.fail(err)
	}
	r.seq = src
	r.cur, r.curOff, r.pos, r.virt = r.cur[:0], 0, offset, virtualChunk{}
	if skip > 0 {
		if _, err := r.nextChunk(nil); err != nil {
			return 0, r.fail(err)
		}
		if r.virt.left() > 0 {
			r.cur = r.virt.skip(int64(skip))
		} else {
			r.curOff = min(skip, len(r.cur))
		}
	}
	return offset, nil
}
