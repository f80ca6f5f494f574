package stream

import (
	"errors"
	"sync"

	"github.com/blosc2go/blosc2"
)

// pipeline compresses up to n chunks at once, each on a goroutine of its
// own (whose blocks go to parallel goroutines inside blosc2.Compress), and
// writes them in stream order on another, so that filling, compressing and
// writing overlap and chunks of one block still keep n goroutines busy.
// Each chunk is compressed alone, so the bytes do not depend on n or on
// timing. The queues are bounded, which bounds memory; after an error
// every goroutine keeps draining, so nothing upstream ever blocks on a
// dead destination.
type pipeline struct {
	jobs  chan *job // to the compressors
	order chan *job // to the writer, in stream order; its capacity bounds the chunks in flight
	// free holds raw buffers ready to be filled again, written the
	// compressed buffers the destination is done with (at most n+2
	// exist), recycled the job records: a long stream allocates none of
	// them per chunk.
	free, written chan []byte
	recycled      chan *job
	raws          int // raw buffers the pipeline added to the Writer's (at most n)
	n, chunkSize  int

	compressors sync.WaitGroup
	done        chan struct{} // closed when the writer has ended
	pending     sync.WaitGroup
	borrowed    sync.WaitGroup // borrowed chunks not yet compressed
	mu          sync.Mutex
	err         error
}

// job is one chunk: its raw bytes, then its compressed ones or an error.
type job struct {
	raw []byte
	// chunk is the compressed chunk, in pieces: the first in a compressed
	// buffer of the pipeline's, the blocks in the root package's pool.
	chunk blosc2.Chunk
	// borrowed: raw is the caller's Write buffer, which is only read and
	// never recycled (putBorrowed).
	borrowed bool
	err      error
	ready    chan struct{} // one value when out or err is set
}

// newPipeline starts n compressors (n ≥ 1) and the writer; raw and out are
// buffers of an earlier pipeline to reuse, or nil.
func newPipeline(sink chunkSink, compress compressFunc, n, chunkSize int, raw, out []byte) *pipeline {
	n = max(n, 1)
	pl := &pipeline{
		jobs:      make(chan *job),
		order:     make(chan *job, n),
		free:      make(chan []byte, n+1),
		written:   make(chan []byte, n+2),
		recycled:  make(chan *job, n+1),
		n:         n,
		chunkSize: chunkSize,
		done:      make(chan struct{}),
	}
	if cap(raw) >= chunkSize {
		pl.free <- raw[:0]
		pl.raws++
	}
	if out != nil {
		pl.written <- out[:0]
	}
	for range n {
		pl.compressors.Add(1)
		go func() {
			defer pl.compressors.Done()
			for j := range pl.jobs {
				if pl.error() == nil {
					// A buffer the destination is done with, if any:
					// fresh 4 MiB buffers cost their clearing and the
					// garbage collector's time.
					var buf []byte
					select {
					case buf = <-pl.written:
					default:
						buf = closedCompressed.get(compressedSize(chunkSize))
					}
					j.err = compress(&j.chunk, buf, j.raw)
				}
				if j.borrowed {
					pl.borrowed.Done()
				} else {
					pl.free <- j.raw[:0] // never blocks: the Writer has n+1 at most
				}
				j.raw = nil
				j.ready <- struct{}{}
			}
		}()
	}
	go func() { // writer
		defer close(pl.done)
		for j := range pl.order {
			<-j.ready
			pieces := j.chunk.Pieces()
			if j.err != nil {
				pl.fail(j.err)
			} else if len(pieces) > 0 && pl.error() == nil {
				if err := sink.WriteCompressed(&j.chunk); err != nil {
					pl.fail(err)
				}
			}
			if len(pieces) > 0 {
				// The sink does not retain chunks. written holds every
				// compressed buffer the pipeline has (n being filled,
				// one being written, one spare), so none is dropped or
				// pooled while the stream goes on.
				select {
				case pl.written <- pieces[0][:0]:
				default:
				}
			}
			j.chunk.Release()
			*j = job{ready: j.ready, chunk: j.chunk}
			select {
			case pl.recycled <- j:
			default:
			}
			pl.pending.Done()
		}
	}()
	return pl
}

func (pl *pipeline) error() error {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return pl.err
}

func (pl *pipeline) fail(err error) {
	pl.mu.Lock()
	if pl.err == nil {
		pl.err = err
	}
	pl.mu.Unlock()
}

// put hands a full chunk over and returns a buffer to fill next: a free
// one, a new one while the Writer has fewer than n+1 (n compressing, one
// filling), or the first one a compressor frees.
func (pl *pipeline) put(chunk []byte) []byte {
	pl.queue(chunk, false)
	select {
	case b := <-pl.free:
		return b
	default:
	}
	if pl.raws < pl.n {
		pl.raws++
		if b := closedChunks.get(pl.chunkSize); cap(b) == pl.chunkSize {
			return b
		}
		return make([]byte, 0, pl.chunkSize)
	}
	return <-pl.free
}

// putBorrowed hands over a full chunk that is the caller's memory: it is
// only read, and not kept once compressed (see waitBorrowed).
func (pl *pipeline) putBorrowed(chunk []byte) { pl.queue(chunk, true) }

// queue hands chunk to the compressors and the writer, waiting while n
// chunks are in flight.
func (pl *pipeline) queue(chunk []byte, borrowed bool) {
	pl.pending.Add(1)
	if borrowed {
		pl.borrowed.Add(1)
	}
	var j *job
	select {
	case j = <-pl.recycled:
	default:
		j = &job{ready: make(chan struct{}, 1)}
	}
	j.raw, j.borrowed = chunk, borrowed
	pl.order <- j
	pl.jobs <- j
}

// waitBorrowed blocks until no compressor reads a borrowed chunk any more.
func (pl *pipeline) waitBorrowed() { pl.borrowed.Wait() }

// wait blocks until every chunk put so far has been written (or dropped
// after an error).
func (pl *pipeline) wait() { pl.pending.Wait() }

// close stops the goroutines after the queued chunks are written.
func (pl *pipeline) close() error {
	close(pl.jobs)
	close(pl.order)
	pl.compressors.Wait()
	<-pl.done
	return pl.error()
}

// spares returns buffers left once the goroutines have ended, for the
// Writer to keep: a raw one that is not the Writer's current one, and a
// compressed one. The others go to the next Writers (closedChunks,
// closedCompressed).
func (pl *pipeline) spares() (raw, out []byte) {
	for b := range drained(pl.free) {
		if raw == nil {
			raw = b
		} else {
			closedChunks.put(b, pl.chunkSize)
		}
	}
	for b := range drained(pl.written) {
		if out == nil {
			out = b
		} else {
			closedCompressed.put(b, compressedSize(pl.chunkSize))
		}
	}
	return raw, out
}

// abort stops the goroutines, dropping what is queued.
func (pl *pipeline) abort() {
	pl.fail(errAborted)
	pl.close()
}

var errAborted = errors.New("stream: writer reset")
