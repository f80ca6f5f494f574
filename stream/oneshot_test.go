package stream

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
)

// TestDecodeAllLeavesSourceIntact: DecodeAll reads the chunks of src where
// they lie; whatever the concurrency, and with several calls at once on
// the same src (run with -race), src keeps every byte and each call
// returns the data, appended after what dst held.
func TestDecodeAllLeavesSourceIntact(t *testing.T) {
	data := testData(t)
	var frames []byte
	for _, opts := range [][]WriterOption{
		{WithChunkSize(40_000), WithCodec(blosc2.LZ4), WithTypeSize(8)},
		{WithChunkSize(100_000)}, // automatic mode, checksums
		{WithChunkSize(1 << 20), WithCodec(blosc2.Zstd), WithoutChecksums()},
	} {
		f, err := EncodeAll(data, nil, opts...)
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, f...) // a concatenation: three frames
	}
	want := bytes.Repeat(data, 3)
	orig := bytes.Clone(frames)
	for _, n := range []int{1, 2, 4} {
		var wg sync.WaitGroup
		for k := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				prefix := []byte{byte(k), 1, 2}
				got, err := DecodeAll(frames, bytes.Clone(prefix), WithReaderConcurrency(n))
				if err != nil {
					t.Errorf("concurrency %d: %v", n, err)
					return
				}
				if !bytes.Equal(got[:3], prefix) || !bytes.Equal(got[3:], want) {
					t.Errorf("concurrency %d: %d bytes decoded differ from the %d written", n, len(got)-3, len(want))
				}
			}()
		}
		wg.Wait()
		if !bytes.Equal(frames, orig) {
			t.Fatalf("concurrency %d: DecodeAll changed its source", n)
		}
	}
}

// TestDecodeAllReportsFirstBadChunk: with chunks 3 and 6 damaged, DecodeAll
// on 4 goroutines always fails on chunk 3, the first in stream order, with
// ErrChecksum, and returns dst as it was.
func TestDecodeAllReportsFirstBadChunk(t *testing.T) {
	data := testData(t)
	frame, err := EncodeAll(data, nil, WithChunkSize(len(data)/9), WithCodec(blosc2.LZ4), WithTypeSize(8))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := framereader.NewReaderBytes(frame)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{6, 3} {
		off, ok := fr.ChunkOffset(i)
		if !ok {
			t.Fatalf("chunk %d has no offset", i)
		}
		frame[off+blosc2.ExtendedHeaderLen+20] ^= 0x40
	}
	for range 20 {
		got, err := DecodeAll(frame, []byte("kept"), WithReaderConcurrency(4))
		if !errors.Is(err, blosc2.ErrChecksum) || !strings.Contains(err.Error(), "chunk 3") || string(got) != "kept" {
			t.Fatalf("%q, %v; want dst as it was and ErrChecksum on chunk 3", got, err)
		}
	}
}
