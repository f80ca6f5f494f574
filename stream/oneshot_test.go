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

// TestWriteDoesNotRetainBuffer: Write compresses whole chunks of a large
// buffer where they lie, yet the buffer is the caller's again when Write
// returns: it is overwritten at once, and the stream still holds what was
// written, the same frame as written in small pieces (which are copied),
// at concurrency 1, 2 and 4, with and without a partial chunk before.
func TestWriteDoesNotRetainBuffer(t *testing.T) {
	data := testData(t)
	const chunk = 50_000
	for _, n := range []int{1, 2, 4} {
		for _, lead := range []int{0, 777} {
			opts := []WriterOption{WithChunkSize(chunk), WithConcurrency(n)}
			var small bytes.Buffer
			w, err := NewWriter(&small, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for p := data; len(p) > 0; p = p[min(1000, len(p)):] {
				w.Write(p[:min(1000, len(p))])
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}

			var big bytes.Buffer
			if w, err = NewWriter(&big, opts...); err != nil {
				t.Fatal(err)
			}
			buf := bytes.Clone(data)
			for _, part := range [][]byte{buf[:lead], buf[lead:]} {
				if k, err := w.Write(part); err != nil || k != len(part) {
					t.Fatalf("Write: %d, %v", k, err)
				}
				for i := range part {
					part[i] = byte(i * 7) // the caller's again
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(big.Bytes(), small.Bytes()) {
				t.Errorf("concurrency %d, lead %d: the frame differs from the one written in small pieces", n, lead)
			}
			got, err := DecodeAll(big.Bytes(), nil)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("concurrency %d, lead %d: %v", n, lead, err)
			}
		}
	}
}
