package stream

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"github.com/blosc2go/blosc2"
)

// TestChunkAfter checks what the indexes tell the read-ahead about the
// rest of the stream (chunkPos.after) for every chunk of a concatenation
// of two frames, from the start and after a Seek; and that only the chunks
// with less than n-1 like them behind get their blocks decoded on n
// goroutines.
func TestChunkAfter(t *testing.T) {
	const chunk = 32 << 10
	data := testData(t)[:5*chunk]
	split := 3*chunk + 1000
	var frames []byte
	frames = append(frames, compressAll(t, data[:split], writeAll, WithChunkSize(chunk))...)
	frames = append(frames, compressAll(t, data[split:], writeAll, WithChunkSize(chunk))...)
	total := int64(len(data))
	ra, err := newRandomAccess(bytes.NewReader(frames), &readerOptions{maxMemory: DefaultMaxMemory})
	if err != nil || ra == nil {
		t.Fatalf("random access: %v", err)
	}
	// walk checks every chunk's after against the bytes decoded so far
	// (from done on) and returns each chunk's block concurrency with n = 2.
	walk := func(src chunkSource, done int64) (conc []int) {
		for {
			c, pos, err := src.Next(nil)
			if err == io.EOF {
				return conc
			}
			if err != nil {
				t.Fatal(err)
			}
			p, err := blosc2.ParsePrefix(c)
			if err != nil {
				t.Fatal(err)
			}
			done += int64(p.Nbytes)
			if want := total - done; pos.after != want {
				t.Errorf("frame %d chunk %d: after = %d, want %d", pos.frame, pos.chunk, pos.after, want)
			}
			conc = append(conc, blockConcurrency(c, pos, 2))
		}
	}
	// Frame 1: three chunks and 1000 bytes; frame 2: the remaining two
	// chunks less 1000 bytes, as a whole one and a short one. With n = 2 a chunk decodes on two
	// goroutines when less than one chunk like it follows: the last two.
	conc := walk(ra.source(), 0)
	if want := []int{1, 1, 1, 1, 2, 2}; !slices.Equal(conc, want) {
		t.Errorf("block concurrency %v, want %v", conc, want)
	}
	from := int64(2*chunk + 10)
	src, skip, err := ra.sourceFrom(from)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(walk(src, from-int64(skip))); got != 4 {
		t.Errorf("%d chunks after the Seek, want 4", got)
	}
	// A stream read front to back does not know its rest: one goroutine.
	if got := blockConcurrency(frames[:0], chunkPos{after: -1}, 2); got != 1 {
		t.Errorf("unknown rest: concurrency %d, want 1", got)
	}
}
