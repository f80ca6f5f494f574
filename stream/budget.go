package stream

import (
	"sync"
	"sync/atomic"
)

// budget bounds the bytes the read-ahead holds (WithMaxMemory): the
// reservations of chunks between the fetcher and the consumer, each its
// compressed buffer plus room for its decoded bytes, and the spare buffers
// kept for reuse. Only the fetcher reserves, one chunk at a time in stream
// order, and the consumer releases in the same order, so a reservation
// never waits for a chunk behind it.
type budget struct {
	limit  int64
	spares *spareBuffers // their bytes count against limit too

	mu    sync.Mutex
	used  int64         // reserved by chunks in flight
	freed chan struct{} // signalled when bytes are released
}

func newBudget(limit int64, spares *spareBuffers) *budget {
	return &budget{limit: limit, spares: spares, freed: make(chan struct{}, 1)}
}

// reserve waits until n bytes fit, dropping spare buffers to make room
// before it waits; false when stop or closing ends the wait first.
func (b *budget) reserve(n int64, stop, closing <-chan struct{}) bool {
	for {
		if b.tryReserve(n) {
			return true
		}
		if b.spares.dropOne() {
			continue
		}
		select {
		case <-b.freed:
		case <-stop:
			return false
		case <-closing:
			return false
		}
	}
}

// tryReserve reserves n bytes if they fit at once, without waiting or
// dropping spares: reserve's first attempt, and how a decoder widens its
// chunk's reservation to use a larger spare buffer.
func (b *budget) tryReserve(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+b.spares.held.Load()+n > b.limit {
		return false
	}
	b.used += n
	return true
}

func (b *budget) signal() {
	select {
	case b.freed <- struct{}{}:
	default:
	}
}

// releaseKeeping returns n reserved bytes and, in the same step, keeps buf
// (whose capacity they covered) among the spares of ch: done apart, the
// fetcher waiting to reserve would take the bytes first, the buffer
// would be dropped and the next chunk allocate another, churning memory.
func (b *budget) releaseKeeping(n int64, ch chan []byte, buf []byte) {
	b.mu.Lock()
	b.used -= n
	if c := int64(cap(buf)); c > 0 && c <= n {
		select {
		case ch <- buf[:0]:
			b.spares.held.Add(c)
		default:
		}
	}
	b.mu.Unlock()
	b.signal()
}

// keep moves buf into the spares of ch if the budget has room for its
// capacity beside the reservations; otherwise it is left to the garbage
// collector.
func (b *budget) keep(ch chan []byte, buf []byte) {
	if cap(buf) == 0 {
		return
	}
	b.mu.Lock()
	fits := b.used+b.spares.held.Load()+int64(cap(buf)) <= b.limit
	if fits {
		b.spares.held.Add(int64(cap(buf)))
	}
	b.mu.Unlock()
	if !fits {
		return
	}
	select {
	case ch <- buf[:0]:
	default:
		b.spares.held.Add(-int64(cap(buf)))
	}
}

// take returns a spare buffer of ch, or one a finished Reader left
// (readerDecoded, readerCompressed), or nil, and stops counting it as a
// spare: from then on it is covered by the reservation of the chunk that
// uses it.
func (s *spareBuffers) take(ch chan []byte) []byte {
	select {
	case buf := <-ch:
		s.held.Add(-int64(cap(buf)))
		return buf
	default:
		return s.pool(ch).get(anySize)
	}
}

// toPool hands the spare buffers to the Readers that come next, for a
// Reader that is done reading.
func (s *spareBuffers) toPool() {
	for _, ch := range [...]chan []byte{s.free, s.freeC} {
		for buf := range drained(ch) {
			s.held.Add(-int64(cap(buf)))
			s.pool(ch).put(buf, anySize)
		}
	}
}

// pool is the pool of the buffers ch holds.
func (s *spareBuffers) pool(ch chan []byte) *bufferPool {
	if ch == s.free {
		return &readerDecoded
	}
	return &readerCompressed
}

// dropOne gives one spare buffer to the garbage collector; false when
// there is none.
func (s *spareBuffers) dropOne() bool {
	for _, ch := range [...]chan []byte{s.free, s.freeC} {
		select {
		case buf := <-ch:
			s.held.Add(-int64(cap(buf)))
			return true
		default:
		}
	}
	return false
}

// spareBuffers holds the buffers the read-ahead is done with, up to as many
// as it can have in use at once, so that a long stream, or a Reader Reset
// for stream after stream, allocates its buffers once.
type spareBuffers struct {
	free  chan []byte  // decoded buffers to reuse
	freeC chan []byte  // compressed buffers to reuse
	held  atomic.Int64 // the capacity of the buffers in free and freeC
}

func newSpareBuffers(concurrency int) *spareBuffers {
	return &spareBuffers{free: make(chan []byte, concurrency+1), freeC: make(chan []byte, concurrency+1)}
}
