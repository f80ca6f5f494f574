package stream

import (
	"fmt"
	"io"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/option"
)

// Writer compresses what is written to it into a Blosc2 contiguous frame
// on the underlying io.Writer, chunk by chunk.
//
// Write copies its input, or compresses it where it lies before it
// returns, so the caller may reuse its buffer at once. Full chunks are
// compressed by a goroutine pipeline while the caller goes on
// writing (up to the configured concurrency of chunks at once, and the
// blocks of each in parallel), and written in order. The bytes produced
// depend only on the options and the data, never on the concurrency or on
// how writes are cut.
//
// The first Write of a frame compresses its whole chunks where they lie,
// and its last chunk too when that one is short (at least 64 KiB or half
// a chunk) and the pipeline lossless ([blosc2.CParams.Lossless]): that
// chunk is then held compressed until the next call, which writes it
// (Close, Flush) or, bringing more data, decompresses it back into the
// chunk buffer, where Write would otherwise have copied it. So a stream
// written at once and closed costs what [EncodeAll] does. When a first
// Write is followed by more, that chunk's compression is lost and its
// decompression costs; a Writer this happens to holds no more, also
// after Reset.
//
// Memory: with concurrency n ≥ 2, at most n+1 uncompressed chunks (n being
// compressed, one being filled) and n+2 compressed ones (n being
// compressed, two kept for reuse) are held, and one more compressed while
// a first Write's last chunk is: at most 2n+4 chunk sizes plus a small
// constant however long the stream.
//
// An error of the destination surfaces on the next Write, Flush or Close;
// the Writer then refuses further data.
//
// Close (or Reset) is required, as with zstd's encoder: it writes the last
// chunk, the index and the trailer, and ends the goroutines. A Writer left
// unclosed loses its buffered data and keeps, with concurrency n above 1,
// n+1 goroutines and up to 2n+4 chunk buffers alive.
//
// The destination decides the frame's form. A file (or any io.WriteSeeker
// or io.WriterAt) gets one standard frame, its header patched at Close. A
// pipe, a socket, or a file opened with O_APPEND (a shell's >>) gets the
// unpatched form, which never rewrites a byte it wrote: appending a
// stream to a file that already holds frames gives a concatenation, which
// Reader, framereader and the blosc2 command read as one stream, and
// which blosc2 join (framewriter.Join) turns into one frame for C-Blosc2.
type Writer struct {
	opts writerOptions
	dst  io.Writer
	sink chunkSink
	cur  []byte // the chunk being filled; cap = chunk size
	// out is a compressed chunk buffer: the synchronous path's, or one
	// the pipeline hands back when it ends, for the next frame's.
	out []byte
	// chunk is what the synchronous path compresses into (its first
	// piece in out).
	chunk blosc2.Chunk
	pipe  *pipeline
	// spareRaw is the pipeline's second chunk buffer, kept likewise.
	spareRaw []byte
	err      error // sticky error of this Writer (not of the pipeline)
	// held says that chunk holds the short last chunk of the frame's
	// first Write, heldLen bytes compressed where they lay, in place of
	// their copy in cur (see holds).
	held    bool
	heldLen int
	// holdable says that the options' pipeline is lossless
	// (blosc2.CParams.Lossless), so that a held chunk decompresses back
	// to exactly the bytes written; heldInVain, that this Writer's first Write
	// of a frame was once followed by more data, so that holding wasted
	// a compression (unhold): it holds no more, also after Reset.
	holdable, heldInVain bool

	state writerState
	// frames counts the frames Flush ended (unseekable destinations).
	frames int
}

type writerState uint8

const (
	writerOpen writerState = iota
	writerClosed
)

// NewWriter returns a Writer compressing into w. It validates the options
// and returns their error. Nothing is written to w before the first chunk
// is complete, or before Flush or Close.
func NewWriter(w io.Writer, opts ...WriterOption) (*Writer, error) {
	o := defaultWriterOptions()
	if err := option.Apply(&o, opts); err != nil {
		return nil, err
	}
	// Probe the parameters once so that a bad combination (a dictionary
	// with BloscLZ, a filter nobody registered) fails here, not later.
	if a := o.auto(); a != nil {
		if _, err := blosc2.ChooseCParams(nil, a); err != nil {
			return nil, err
		}
	} else if err := o.cparams.Validate(); err != nil {
		return nil, err
	}
	zw := &Writer{opts: o, holdable: o.cparams.Lossless()}
	zw.Reset(w)
	return zw, nil
}

// Reset discards the Writer's state (an unfinished frame is abandoned: call
// Close first to finish it) and makes it write a new frame to w with the
// same options. Buffers are reused.
func (w *Writer) Reset(dst io.Writer) {
	w.dropHeld()
	if w.pipe != nil {
		w.pipe.abort()
		w.takeSpares()
	}
	w.dst = dst
	w.sink = nil
	w.frames = 0
	w.err = nil
	w.state = writerOpen
	if w.cur == nil {
		w.cur, w.spareRaw = closedChunks.get(w.opts.chunkSize), closedChunks.get(w.opts.chunkSize)
		w.out = closedCompressed.get(compressedSize(w.opts.chunkSize))
	}
	if w.cur == nil {
		// The first chunk buffer grows as data comes (full returns),
		// so that a short stream does not pay for a whole chunk.
		w.cur = make([]byte, 0, min(w.opts.chunkSize, firstBuffer))
	}
	w.cur = w.cur[:0]
}

// takeSpares ends the pipeline, keeping its spare buffers for the
// synchronous path or the next pipeline (an output buffer the Writer got
// back meanwhile, from a held chunk, is pooled instead).
func (w *Writer) takeSpares() {
	raw, out := w.pipe.spares()
	w.pipe = nil
	w.spareRaw = raw
	if w.out == nil {
		w.out = out
	} else {
		closedCompressed.put(out, compressedSize(w.opts.chunkSize))
	}
}

// poolClosed gives a closed Writer's buffers to the Writers that come
// next; the Writer takes others if it is Reset.
func (w *Writer) poolClosed() {
	closedChunks.put(w.cur, w.opts.chunkSize)
	closedChunks.put(w.spareRaw, w.opts.chunkSize)
	closedCompressed.put(w.out, compressedSize(w.opts.chunkSize))
	w.cur, w.spareRaw, w.out = nil, nil, nil
}

// compressFunc compresses src into c, its first piece in buf's memory
// when it has room (blosc2.Chunk.Compress).
type compressFunc func(c *blosc2.Chunk, buf, src []byte) error

// compressor returns the function compressing one chunk: with fixed
// parameters, or the automatic mode's choice for each chunk.
func (w *Writer) compressor() compressFunc {
	p := w.opts.cparams
	p.Concurrency = w.opts.concurrency
	if a := w.opts.auto(); a != nil {
		a.Base.Concurrency = w.opts.concurrency
		return func(c *blosc2.Chunk, buf, src []byte) error {
			_, err := c.CompressAuto(buf, src, a)
			return err
		}
	}
	return func(c *blosc2.Chunk, buf, src []byte) error { return c.Compress(buf, src, &p) }
}

// ensureSink starts the frame: header and metalayers.
func (w *Writer) ensureSink() error {
	if w.sink != nil {
		return nil
	}
	s, err := newSink(w.dst, &w.opts)
	if err != nil {
		return err
	}
	w.sink = s
	return nil
}

func (w *Writer) check() error {
	if w.state == writerClosed {
		return fmt.Errorf("%w: write to closed stream.Writer", blosc2.ErrClosed)
	}
	if w.err != nil {
		return w.err
	}
	if w.pipe != nil {
		if err := w.pipe.error(); err != nil {
			w.err = err
			return err
		}
	}
	return nil
}

// Write compresses p. It returns len(p) unless an earlier or current error
// stops it.
func (w *Writer) Write(p []byte) (int, error) {
	n, err := w.write(p)
	// Whole chunks of p may be compressed where they lie, on the
	// pipeline's goroutines: p is the caller's again once Write returns.
	if w.pipe != nil {
		w.pipe.waitBorrowed()
	}
	return n, err
}

// write is Write without its wait: whole chunks of p may still be
// compressed where they lie when it returns.
func (w *Writer) write(p []byte) (int, error) {
	if err := w.check(); err != nil || len(p) == 0 {
		return 0, err
	}
	if err := w.unhold(); err != nil {
		return 0, err
	}
	// The frame has nothing yet: p's last chunk, if short, may be held.
	first := w.sink == nil && len(w.cur) == 0
	n := 0
	for len(p) > 0 {
		if len(w.cur) == 0 && len(p) >= w.opts.chunkSize {
			// A whole chunk of p is compressed where it lies, saving
			// its copy into the chunk buffer.
			cs := w.opts.chunkSize
			if err := w.submitBorrowed(p[:cs:cs]); err != nil {
				return n, err
			}
			p = p[cs:]
			n += cs
			continue
		}
		if first && w.holds(len(p)) {
			if err := w.hold(p); err != nil {
				return n, err
			}
			return n + len(p), nil
		}
		if want := min(len(w.cur)+len(p), w.opts.chunkSize); want > cap(w.cur) {
			// A buffer shorter than the chunk grows at once to what p
			// brings: doubling it as it filled allocated twice what a
			// long Write brought, and copied it again.
			w.grow(want)
		}
		k := copy(w.cur[len(w.cur):cap(w.cur)], p)
		w.cur = w.cur[:len(w.cur)+k]
		p = p[k:]
		n += k
		if w.full() {
			if err := w.submit(); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// ReadFrom compresses everything r yields until io.EOF, reading straight
// into the chunk buffers (io.Copy uses it).
func (w *Writer) ReadFrom(r io.Reader) (int64, error) {
	if err := w.check(); err != nil {
		return 0, err
	}
	if err := w.unhold(); err != nil {
		return 0, err
	}
	var total int64
	for {
		n, err := io.ReadFull(r, w.cur[len(w.cur):cap(w.cur)])
		w.cur = w.cur[:len(w.cur)+n]
		total += int64(n)
		if w.full() {
			if err := w.submit(); err != nil {
				return total, err
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// firstBuffer is the capacity the first chunk buffer starts with.
const firstBuffer = 64 << 10

// full reports whether the current chunk is complete. A buffer shorter
// than the chunk size that is full is grown first (doubling, up to the
// chunk size), and is then not full.
func (w *Writer) full() bool {
	if len(w.cur) < cap(w.cur) {
		return false
	}
	if cap(w.cur) < w.opts.chunkSize {
		w.grow(2 * cap(w.cur))
		return false
	}
	return true
}

// grow makes the current chunk buffer's capacity at least n, at most
// the chunk size.
func (w *Writer) grow(n int) {
	w.cur = slices.Grow(w.cur, min(n, w.opts.chunkSize)-len(w.cur))
	w.cur = w.cur[:len(w.cur):min(cap(w.cur), w.opts.chunkSize)]
}

// submit hands the current chunk to compression and takes a fresh buffer.
func (w *Writer) submit() error {
	if err := w.prepare(len(w.cur)); err != nil {
		return err
	}
	if w.pipe == nil {
		err := w.compressNow(w.cur)
		w.cur = w.cur[:0]
		return err
	}
	next := w.pipe.put(w.cur)
	w.cur = next[:0]
	return w.check()
}

// submitBorrowed compresses chunk, a whole chunk of the caller's Write
// buffer, where it lies: here, or in the pipeline, which never recycles
// it and which Write waits for (waitBorrowed) before it returns.
func (w *Writer) submitBorrowed(chunk []byte) error {
	if err := w.prepare(len(chunk)); err != nil {
		return err
	}
	if w.pipe == nil {
		return w.compressNow(chunk)
	}
	w.pipe.putBorrowed(chunk)
	return w.check()
}

// closeWith writes p, the stream's last bytes, and closes the Writer. A
// fresh Writer (nothing written yet) compresses every chunk of p where it
// lies, the last, short one too, whatever its size and pipeline (Write
// holds it only when long and lossless, as more data may follow): EncodeAll's
// source is the caller's until it returns, and the copy cost a tenth of
// the time of a 1 MB input compressing 60:1. The short chunk is queued
// without waiting for the whole ones, as the chunks of one Write are:
// waiting left a goroutine idle while the last whole chunk's last block
// was compressed, and the short chunk's blocks started only then. Close
// waits for them all.
func (w *Writer) closeWith(p []byte) error {
	err := w.check()
	if err == nil && len(p) > 0 {
		err = w.unhold()
	}
	if err == nil && len(w.cur) == 0 {
		whole := len(p) / w.opts.chunkSize * w.opts.chunkSize
		if _, err = w.write(p[:whole]); err == nil && whole < len(p) {
			err = w.submitBorrowed(p[whole:])
		}
	} else if err == nil {
		_, err = w.Write(p)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// prepare starts the frame before a chunk of n bytes is compressed, and
// the pipeline with the first full chunk: a short stream, or a Flush
// before a chunk fills, is compressed in the calling goroutine (its
// blocks still on several), without the pipeline's buffers.
func (w *Writer) prepare(n int) error {
	if err := w.ensureSink(); err != nil {
		w.err = err
		return err
	}
	if w.pipe == nil && w.opts.concurrency > 1 && n == w.opts.chunkSize {
		w.pipe = newPipeline(w.sink, w.compressor(), w.opts.concurrency, w.opts.chunkSize, w.spareRaw, w.out)
		w.spareRaw, w.out = nil, nil
	}
	return nil
}

// compressNow compresses chunk and writes it, in the calling goroutine
// (its blocks still on several), reusing one output buffer.
func (w *Writer) compressNow(chunk []byte) error {
	if err := w.compressInto(chunk); err != nil {
		return err
	}
	return w.writeChunk()
}

// writeChunk writes w.chunk, compressed in the calling goroutine, and
// releases it.
func (w *Writer) writeChunk() error {
	err := w.sink.WriteCompressed(&w.chunk)
	w.releaseChunk()
	if err != nil {
		w.err = err
	}
	return err
}

// compressInto compresses src into w.chunk in the calling goroutine (its
// blocks still on several), its first piece in the Writer's output buffer
// (taken: releaseChunk gives it back), or, while the pipeline has that
// one, in a pooled one.
func (w *Writer) compressInto(src []byte) error {
	buf := w.out
	if buf == nil {
		buf = closedCompressed.get(compressedSize(w.opts.chunkSize))
	}
	w.out = nil
	if err := w.compressor()(&w.chunk, buf, src); err != nil {
		w.out = buf
		w.err = err
		return err
	}
	return nil
}

// releaseChunk empties w.chunk once written or dropped, keeping its first
// piece's buffer as the output buffer, or pooling it when the Writer has
// one again (the pipeline's, given back when it ended).
func (w *Writer) releaseChunk() {
	head := w.chunk.Pieces()[0][:0]
	w.chunk.Release()
	if w.out == nil {
		w.out = head
	} else {
		closedCompressed.put(head, compressedSize(w.opts.chunkSize))
	}
}

// holds reports whether the last n bytes of the frame's first Write
// (after its whole chunks) are held (hold) instead of copied: n is
// shorter than a chunk but long enough that its copy costs (at least
// 64 KiB, or half a chunk), and the pipeline is lossless.
//
// A stream shorter than a chunk, written at once and then closed (a
// message, a small file), was copied into the chunk buffer and then
// compressed from the copy, which on the 945 KB timestamps under LZ4 took
// 40% of the time (the copy reads and writes memory beyond the caches, and
// the compression then reads the copy from the core that wrote it); held,
// it costs what EncodeAll does. After whole chunks, the short one is
// compressed while the pipeline compresses them, not after them at Close:
// 1.78 MB of telemetry values under Zstd at clevel 9 (two chunks of one
// block each) took 173 ms through Write and Close, 128 through EncodeAll.
func (w *Writer) holds(n int) bool {
	return w.holdable && !w.heldInVain && n < w.opts.chunkSize && (n >= firstBuffer || 2*n >= w.opts.chunkSize)
}

// hold compresses p where it lies into w.chunk, the chunk Close or Flush
// next writes (writeHeld) after the pipeline's: the chunk compressNow or
// the pipeline would have compressed from p's copy.
func (w *Writer) hold(p []byte) error {
	if err := w.compressInto(p); err != nil {
		return err
	}
	w.held, w.heldLen = true, len(p)
	return nil
}

// writeHeld writes the held chunk, once the pipeline has written every
// chunk before it.
func (w *Writer) writeHeld() error {
	w.held = false
	if err := w.prepare(w.heldLen); err != nil {
		w.releaseChunk()
		return err
	}
	return w.writeChunk()
}

// unhold, when a chunk is held and more data comes, decompresses it back
// into the chunk buffer, where Write would have copied it: the bytes it
// then writes are those it writes without holding. The held chunk's
// compression is lost, and its decompression costs: a 4 MiB frame
// written in 1 or 2 MiB pieces took 25-55% longer, once. So a Writer
// this happens to holds no more (heldInVain): its caller writes in
// pieces.
func (w *Writer) unhold() error {
	if !w.held {
		return nil
	}
	w.held, w.heldInVain = false, true
	pieces := w.chunk.Pieces()
	compressed := pieces[0]
	if len(pieces) > 1 {
		compressed = w.chunk.Append(closedCompressed.get(compressedSize(w.opts.chunkSize)))
		defer closedCompressed.put(compressed, compressedSize(w.opts.chunkSize))
	}
	w.grow(w.heldLen)
	n, err := blosc2.DecompressTo(w.cur[:w.heldLen], compressed, &blosc2.DParams{
		Concurrency: w.opts.concurrency, Geometry: w.opts.cparams.Geometry,
	})
	w.releaseChunk()
	if err == nil && n != w.heldLen {
		err = fmt.Errorf("%w: stream.Writer: the held chunk decompressed to %d bytes, not the %d written", blosc2.ErrCorrupt, n, w.heldLen)
	}
	if err != nil {
		w.err = err
		return err
	}
	w.cur = w.cur[:n]
	return nil
}

// dropHeld releases a held chunk unwritten.
func (w *Writer) dropHeld() {
	if w.held {
		w.held = false
		w.releaseChunk()
	}
}

// Flush compresses and writes the data written so far, as a chunk shorter
// than the chunk size when the current one is not full, and waits until
// the destination has it.
//
// On a destination that cannot seek (a socket, a pipe, an O_APPEND file)
// Flush also ends the frame, writing its index and trailer, so that a
// peer's Reader can return every byte written so far without waiting for
// another byte; the next Write starts a new frame, and the peer reads the
// frames as one stream. A Flush with nothing new to write writes nothing.
//
// On a seekable destination (a file) the frame goes on, so that C-Blosc2
// opens one frame after Close: a short chunk followed by more data makes
// it a variable-chunk-size frame (format version 3, header chunksize 0),
// which C-Blosc2 ≥ 2.x reads; frames without Flush keep one chunk size.
//
// Flush does not flush the destination itself (e.g. a bufio.Writer).
func (w *Writer) Flush() error {
	if err := w.check(); err != nil {
		return err
	}
	if len(w.cur) > 0 {
		if err := w.submit(); err != nil {
			return err
		}
	}
	if w.pipe != nil {
		w.pipe.wait()
	}
	if err := w.check(); err != nil {
		return err
	}
	if w.held {
		if err := w.writeHeld(); err != nil {
			return err
		}
	}
	if w.sink != nil && !w.sink.Seekable() {
		return w.endFrame()
	}
	return nil
}

// endFrame ends the pipeline and the frame; the next chunk starts a new
// frame.
func (w *Writer) endFrame() error {
	var err error
	if w.pipe != nil {
		err = w.pipe.close()
		w.takeSpares()
	}
	if cerr := w.sink.Close(); err == nil {
		err = cerr
	}
	w.sink = nil
	w.frames++
	w.err = err
	return err
}

// Close writes the last chunk, the frame's index and trailer, and patches
// the header's sizes when the destination can seek; an error doing so
// (the patch included) is returned. It never closes the underlying
// writer. Close is idempotent: later calls return the first one's result.
// A stream of no bytes is one empty frame.
func (w *Writer) Close() error {
	if w.state == writerClosed {
		return w.err
	}
	err := w.check()
	if err == nil && len(w.cur) > 0 {
		err = w.submit()
	}
	if w.pipe != nil {
		if perr := w.pipe.close(); err == nil {
			err = perr
		}
		w.takeSpares()
	}
	if err == nil && w.held {
		err = w.writeHeld()
	}
	w.dropHeld()
	if err == nil && (w.sink != nil || w.frames == 0) {
		err = w.ensureSink()
	}
	if w.sink != nil {
		if cerr := w.sink.Close(); err == nil {
			err = cerr
		}
	}
	w.state = writerClosed
	w.err = err
	w.poolClosed()
	return err
}
