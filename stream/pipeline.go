package stream

import (
	"errors"
	"sync"
)

// pipeline compresses chunks on one goroutine (whose blocks go to parallel
// goroutines inside blosc2.Compress) and writes them on another, so that
// filling, compressing and writing overlap. Handoffs are unbuffered, which
// bounds memory; after an error both goroutines keep draining, so nothing
// upstream ever blocks on a dead destination.
type pipeline struct {
	raw       chan []byte // chunks to compress
	free      chan []byte // raw buffers ready to be filled again
	out       chan []byte // compressed chunks, in order
	written   chan []byte // a compressed buffer the destination is done with
	chunkSize int
	done      chan struct{}
	pending   sync.WaitGroup // chunks submitted and not yet written
	mu        sync.Mutex
	err       error
}

// raw and out are buffers of an earlier pipeline to reuse, or nil.
func newPipeline(sink chunkSink, compress func(dst, src []byte) ([]byte, error), chunkSize int, raw, out []byte) *pipeline {
	pl := &pipeline{
		raw:       make(chan []byte),
		free:      make(chan []byte, 2),
		out:       make(chan []byte),
		written:   make(chan []byte, 2),
		done:      make(chan struct{}),
		chunkSize: chunkSize,
	}
	if cap(raw) < chunkSize {
		raw = make([]byte, 0, chunkSize)
	}
	pl.free <- raw[:0]
	if out != nil {
		pl.written <- out[:0]
	}
	compressed := make(chan struct{})
	go func() { // compressor
		defer close(compressed)
		defer close(pl.out)
		for chunk := range pl.raw {
			if pl.error() != nil {
				pl.free <- chunk[:0]
				pl.pending.Done()
				continue
			}
			// The buffer the writer finished with last, if any: one
			// chunk is compressed while the one before is written, so
			// two buffers take turns (a fresh 4 MiB buffer per chunk
			// costs its clearing and the garbage collector's time).
			var buf []byte
			select {
			case buf = <-pl.written:
			default:
				buf = closedOutput(chunkSize)
			}
			c, err := compress(buf[:0], chunk)
			pl.free <- chunk[:0]
			if err != nil {
				pl.fail(err)
				pl.pending.Done()
				continue
			}
			pl.out <- c
		}
	}()
	go func() { // writer
		defer close(pl.done)
		for c := range pl.out {
			if pl.error() == nil {
				if err := sink.WriteCompressedChunk(c); err != nil {
					pl.fail(err)
				}
			}
			select { // the sink does not retain chunks
			case pl.written <- c[:0]:
			default:
			}
			pl.pending.Done()
		}
		<-compressed
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

// put hands a full chunk over and returns a buffer to fill next.
func (pl *pipeline) put(chunk []byte) []byte {
	pl.pending.Add(1)
	pl.raw <- chunk
	return <-pl.free
}

// wait blocks until every chunk put so far has been written (or dropped
// after an error).
func (pl *pipeline) wait() { pl.pending.Wait() }

// close stops the goroutines after the queued chunks are written.
func (pl *pipeline) close() error {
	close(pl.raw)
	<-pl.done
	return pl.error()
}

// spares returns the buffers left once the goroutines have ended: the raw
// buffer that is not the Writer's current one, and a compressed one; the
// other compressed one goes to the next Writers (closedCompressed).
func (pl *pipeline) spares() (raw, out []byte) {
	select {
	case raw = <-pl.free:
	default:
	}
	select {
	case out = <-pl.written:
	default:
	}
	select {
	case extra := <-pl.written:
		poolOutput(extra, pl.chunkSize)
	default:
	}
	return raw, out
}

// abort stops the goroutines, dropping what is queued.
func (pl *pipeline) abort() {
	pl.fail(errAborted)
	close(pl.raw)
	<-pl.done
}

var errAborted = errors.New("stream: writer reset")
