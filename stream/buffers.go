package stream

import (
	"iter"
	"math"
	"sync"

	"github.com/blosc2go/blosc2"
)

// bufferPool keeps the buffers of finished Readers and closed Writers for
// the next ones: a program reading or writing many short streams
// (messages, small files, EncodeAll on each message) would otherwise
// allocate, and have the runtime clear, a chunk's worth of memory or more
// for each. The garbage collector empties it, so it holds memory only
// while it is used.
type bufferPool struct{ p sync.Pool }

// get returns an empty buffer of capacity at most most, or nil.
func (bp *bufferPool) get(most int) []byte {
	if p, ok := bp.p.Get().(*[]byte); ok && cap(*p) <= most {
		return (*p)[:0]
	}
	return nil
}

// put keeps b unless it is empty or its capacity exceeds most.
func (bp *bufferPool) put(b []byte, most int) {
	if c := cap(b); c > 0 && c <= most {
		bp.p.Put(&b)
	}
}

var (
	// The Readers' decoded and compressed chunk buffers, of any size:
	// the read-ahead's budget counts what it takes.
	readerDecoded, readerCompressed bufferPool
	// The Writers' chunk buffers, at most a chunk, and
	// their compressed buffers, at most compressedSize.
	closedChunks, closedCompressed bufferPool
)

// anySize is the capacity limit of the Readers' pools: none.
const anySize = math.MaxInt

// compressedSize is the largest capacity of the compressed buffers
// closedCompressed keeps for chunks of chunkSize bytes: a chunk's
// compressed bound, rounded up to the allocator's size classes (at most an
// eighth); more would break the Writer's memory bound.
func compressedSize(chunkSize int) int {
	return chunkSize + blosc2.MaxOverhead + chunkSize/8
}

// drained yields the buffers ch holds, without waiting for more.
func drained(ch chan []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for {
			select {
			case b := <-ch:
				if !yield(b) {
					return
				}
			default:
				return
			}
		}
	}
}
