package blosc2

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blosc2go/blosc2/codec"
)

// failingCodec keeps the first half of a stream (not a real codec: it
// only has to be called), and fails on a stream whose first byte is in
// fail, naming that byte; on byte slow, 20 ms late.
type failingCodec struct {
	fail map[byte]bool
	slow byte
}

var errFailingCodec = errors.New("failing codec")

func (c failingCodec) Compress(dst, src []byte, clevel int, meta uint8, dict []byte) (int, error) {
	if c.fail[src[0]] {
		if src[0] == c.slow {
			time.Sleep(20 * time.Millisecond)
		}
		return 0, fmt.Errorf("%w: block %d", errFailingCodec, src[0])
	}
	if len(src)/2 > len(dst) {
		return 0, nil
	}
	return copy(dst, src[:len(src)/2]), nil
}

func (c failingCodec) Decompress(dst, src []byte, meta uint8, dict []byte) (int, error) {
	return 0, errors.New("failingCodec decodes nothing")
}

// TestCompressParallelErrors: on any number of goroutines, a chunk whose
// codec fails on blocks 5 and 9 of 16 fails with block 5's error, the
// first in block order, as on one, also when block 9 fails first (block
// 5 fails late); without failures the goroutines write the serial path's
// bytes.
func TestCompressParallelErrors(t *testing.T) {
	const id codec.ID = 240
	fc := failingCodec{fail: map[byte]bool{}, slow: 5}
	if err := codec.Register(id, "failing-test", fc); err != nil {
		t.Fatal(err)
	}
	const bs = 4096
	src := make([]byte, 16*bs)
	for j := range 16 {
		for i := range bs {
			src[j*bs+i] = byte(j + i%7*16) // no run: the codec sees every block
		}
	}
	p := CParams{Codec: id, Level: 5, TypeSize: 1, BlockSize: bs, SplitMode: SplitNever, Concurrency: 1}
	serial, err := Compress(nil, src, &p)
	if err != nil {
		t.Fatal(err)
	}
	fc.fail[5], fc.fail[9] = true, true
	for _, threads := range []int{1, 2, 3, 4, 16} {
		p.Concurrency = threads
		_, err := Compress(nil, src, &p)
		if !errors.Is(err, errFailingCodec) || !strings.Contains(err.Error(), "block 5") {
			t.Errorf("%d goroutines: %v, want block 5's error", threads, err)
		}
		var c Chunk
		if err := c.Compress(nil, src, &p); !errors.Is(err, errFailingCodec) || !strings.Contains(err.Error(), "block 5") || c.Len() != 0 || len(c.Pieces()) != 0 {
			t.Errorf("%d goroutines: Chunk.Compress: %v and %d pieces, want block 5's error and none", threads, err, len(c.Pieces()))
		}
	}
	delete(fc.fail, 5)
	delete(fc.fail, 9)
	for _, threads := range []int{2, 3, 16} {
		p.Concurrency = threads
		chunk, err := Compress(nil, src, &p)
		if err != nil || !bytes.Equal(chunk, serial) {
			t.Errorf("%d goroutines: other bytes than one (%v)", threads, err)
		}
	}
}
