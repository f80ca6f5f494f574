package stream

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/blosc2go/blosc2"
)

// recordingSink keeps the data of the chunks written to it, decompressed,
// in order, and fails from the failAt-th on (0: never).
type recordingSink struct {
	mu     sync.Mutex
	chunks [][]byte
	failAt int
}

func (s *recordingSink) WriteCompressed(c *blosc2.Chunk) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failAt > 0 && len(s.chunks)+1 >= s.failAt {
		return errors.New("destination full")
	}
	raw, err := blosc2.Decompress(nil, c.Append(nil), nil)
	if err != nil {
		return err
	}
	s.chunks = append(s.chunks, raw)
	return nil
}

// storeChunk compresses src into c as a stored (clevel 0) chunk.
func storeChunk(c *blosc2.Chunk, buf, src []byte) error {
	return c.Compress(buf, src, &blosc2.CParams{Codec: blosc2.BloscLZ, TypeSize: 1})
}
func (s *recordingSink) Close() error   { return nil }
func (s *recordingSink) Seekable() bool { return false }

// TestPipelineCompressesChunksAtOnce: with n compressors, n chunks are
// compressed at the same time (a compress function that waits until n
// calls are in progress would wait forever on one goroutine), and the
// destination gets them in stream order whatever order they finish in.
func TestPipelineCompressesChunksAtOnce(t *testing.T) {
	const n, chunks, size = 3, 12, 1 << 10
	var mu sync.Mutex
	inFlight, most := 0, 0
	allIn := make(chan struct{})
	compress := func(c *blosc2.Chunk, buf, src []byte) error {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		if inFlight == n {
			select {
			case <-allIn:
			default:
				close(allIn)
			}
		}
		mu.Unlock()
		select { // the first n wait for each other
		case <-allIn:
		case <-time.After(10 * time.Second):
		}
		time.Sleep(time.Duration(src[0]%3) * time.Millisecond) // finish out of order
		mu.Lock()
		inFlight--
		mu.Unlock()
		return storeChunk(c, buf, src[:8])
	}
	sink := &recordingSink{}
	pl := newPipeline(sink, compress, n, size, nil, nil)
	buf := make([]byte, 0, size)
	for i := range chunks {
		buf = buf[:size]
		for k := range buf {
			buf[k] = byte(i)
		}
		buf = pl.put(buf)[:0]
	}
	if err := pl.close(); err != nil {
		t.Fatal(err)
	}
	if most != n {
		t.Errorf("at most %d chunks compressed at once, want %d", most, n)
	}
	if len(sink.chunks) != chunks {
		t.Fatalf("%d chunks written, want %d", len(sink.chunks), chunks)
	}
	for i, c := range sink.chunks {
		if want := bytes.Repeat([]byte{byte(i)}, 8); !bytes.Equal(c, want) {
			t.Fatalf("chunk %d written is % x, want % x (out of order)", i, c, want)
		}
	}
}

// TestPipelineErrors: an error of the compressor or of the destination
// stops the writing (nothing after it reaches the destination) and is
// returned by close, and nothing blocks, whatever n.
func TestPipelineErrors(t *testing.T) {
	for _, n := range []int{1, 2, 4} {
		for _, failCompress := range []bool{false, true} {
			t.Run(fmt.Sprintf("n%d/compressFails=%v", n, failCompress), func(t *testing.T) {
				sink := &recordingSink{}
				compress := func(c *blosc2.Chunk, buf, src []byte) error {
					if failCompress && src[0] == 5 {
						return errors.New("bad chunk")
					}
					return storeChunk(c, buf, src[:1])
				}
				if !failCompress {
					sink.failAt = 6
				}
				pl := newPipeline(sink, compress, n, 64, nil, nil)
				buf := make([]byte, 0, 64)
				for i := range 20 {
					buf = append(buf[:0], byte(i))
					buf = pl.put(buf)[:0]
				}
				if err := pl.close(); err == nil {
					t.Fatal("close: no error")
				}
				if len(sink.chunks) != 5 {
					t.Fatalf("%d chunks written before the failing one, want 5", len(sink.chunks))
				}
				for i, c := range sink.chunks {
					if c[0] != byte(i) {
						t.Fatalf("chunk %d is %d", i, c[0])
					}
				}
			})
		}
	}
}
