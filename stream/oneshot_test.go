package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/hostile"
	"github.com/blosc2go/blosc2/internal/testvec"
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
	for _, n := range []int{1, 2, 3, 4, 5} {
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

// TestDecodeAllReportsFirstBadChunk: with some of the ten chunks (of
// several blocks each, the last one half as long) damaged,
// DecodeAll on 2 to 5 goroutines always fails on the first damaged chunk
// in stream order, with ErrChecksum, and returns dst as it was: also when
// that chunk or another damaged one is among the last chunks, whose
// blocks are spread over the goroutines.
func TestDecodeAllReportsFirstBadChunk(t *testing.T) {
	data := testData(t)
	good, err := EncodeAll(data, nil, WithChunkSize(len(data)*2/19), WithBlockSize(4096), WithCodec(blosc2.LZ4), WithTypeSize(8))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := framereader.NewReaderBytes(good)
	if err != nil {
		t.Fatal(err)
	}
	if fr.NumChunks() != 10 {
		t.Fatalf("%d chunks, want 10 (a short last one)", fr.NumChunks())
	}
	last, err := fr.ChunkInfo(9)
	if err != nil || last.Header.BlockSize*2 > last.Nbytes {
		t.Fatalf("the last chunk holds one block (%+v, %v); want several", last, err)
	}
	for _, damaged := range [][]int{{6, 3}, {9, 3}, {8, 9}, {9}} {
		frame := bytes.Clone(good)
		for _, i := range damaged {
			off, ok := fr.ChunkOffset(i)
			info, err := fr.ChunkInfo(i)
			if !ok || err != nil {
				t.Fatalf("chunk %d: no offset, or %v", i, err)
			}
			frame[off+int64(info.Cbytes)/2] ^= 0x40
		}
		want := fmt.Sprintf("chunk %d:", slices.Min(damaged))
		for _, n := range []int{2, 3, 4, 5} {
			for range 10 {
				got, err := DecodeAll(frame, []byte("kept"), WithReaderConcurrency(n))
				if !errors.Is(err, blosc2.ErrChecksum) || !strings.Contains(err.Error(), want) || string(got) != "kept" {
					t.Fatalf("chunks %v damaged, %d goroutines: %q, %v; want dst as it was and ErrChecksum on %s", damaged, n, got, err, want)
				}
			}
		}
	}
}

// writeInPieces writes data to dst through a Writer made with opts, in
// Writes of 1000 bytes (which it copies), and closes it.
func writeInPieces(t *testing.T, dst io.Writer, data []byte, opts ...WriterOption) {
	t.Helper()
	w, err := NewWriter(dst, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := testvec.WriteStream(w, [][]byte{data}, 1000, false); err != nil {
		t.Fatal(err)
	}
}

// TestWriteDoesNotRetainBuffer: Write compresses whole chunks of a large
// buffer where they lie, and a first Write shorter than a chunk too (held
// until the next call), yet the buffer is the caller's again when Write
// returns: it is overwritten at once, and the stream still holds what was
// written, the same frame as written in small pieces (which are copied),
// at concurrency 1, 2 and 4, with and without a partial chunk before
// (777 bytes, copied; 30000, held and then decompressed back when the
// rest comes; two chunks and 30000 bytes, the last held), and for streams
// shorter than a chunk, or two chunks and 30000 bytes, written at once.
func TestWriteDoesNotRetainBuffer(t *testing.T) {
	all := testData(t)
	const chunk = 50_000
	for _, n := range []int{1, 2, 4} {
		for _, c := range []struct{ lead, size int }{
			{0, len(all)}, {777, len(all)}, {30_000, len(all)}, {30_000, 40_000}, {0, 25_000}, {0, chunk - 1},
			{0, 130_000}, {130_000, len(all)},
		} {
			data, lead := all[:c.size], c.lead
			opts := []WriterOption{WithChunkSize(chunk), WithConcurrency(n)}
			var small bytes.Buffer
			writeInPieces(t, &small, data, opts...)

			var big bytes.Buffer
			w, err := NewWriter(&big, opts...)
			if err != nil {
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
				t.Errorf("concurrency %d, lead %d of %d bytes: the frame differs from the one written in small pieces", n, lead, len(data))
			}
			got, err := DecodeAll(big.Bytes(), nil)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("concurrency %d, lead %d of %d bytes: %v", n, lead, len(data), err)
			}
		}
	}
}

// driftFilter is a user filter whose Backward does not undo its Forward:
// each pass through it adds 1 to every byte.
type driftFilter struct{}

func (driftFilter) Forward(dst, src []byte, _ uint8, _ int) error {
	for i, b := range src {
		dst[i] = b + 1
	}
	return nil
}

func (driftFilter) Backward(dst, src []byte, _ uint8, _ int) error {
	copy(dst, src)
	return nil
}

// slowWriter and slowFile take a millisecond to write.
type slowWriter struct{ w io.Writer }

func (s slowWriter) Write(p []byte) (int, error) {
	time.Sleep(time.Millisecond)
	return s.w.Write(p)
}

type slowFile struct{ *memWriter }

func (s slowFile) Write(p []byte) (int, error) {
	time.Sleep(time.Millisecond)
	return s.memWriter.Write(p)
}

// TestHeldFirstWrite: a first Write shorter than a chunk, or the short
// chunk after a first Write's whole ones (compressed while the pipeline
// compresses those), compressed where it lies and held, gives the frame
// its copy gives, followed by a Flush
// (a short chunk; on a pipe, a frame ended) or by more data (the held
// chunk decompressed back), on a file and on a pipe. A pipeline that does
// not decode to its input (a user filter here) is never held: held and
// decompressed, the first bytes would pass the filter twice.
func TestHeldFirstWrite(t *testing.T) {
	const drift = blosc2.FilterID(251)
	if err := blosc2.RegisterFilter(drift, driftFilter{}); err != nil {
		t.Fatal(err)
	}
	data := testData(t)[:160_000]
	const chunk = 50_000
	for _, filters := range [][]blosc2.Filter{{{ID: blosc2.Shuffle}}, {{ID: drift}}} {
		for _, c := range []struct {
			first int
			flush bool
		}{{30_000, false}, {30_000, true}, {130_000, false}, {130_000, true}} {
			first, flush := c.first, c.flush
			for _, seekable := range []bool{false, true} {
				opts := []WriterOption{WithChunkSize(chunk), WithConcurrency(2), WithCodec(codec.LZ4), WithFilters(filters...)}
				frame := func(piece int) []byte {
					// Destinations that take a while to write, so that the
					// pipeline is still writing the whole chunks when the
					// held one comes.
					var pipe bytes.Buffer
					file := &memWriter{}
					var dst io.Writer = slowWriter{&pipe}
					if seekable {
						dst = slowFile{file}
					}
					w, err := NewWriter(dst, opts...)
					if err != nil {
						t.Fatal(err)
					}
					if err := testvec.WriteStream(w, [][]byte{data[:first], data[first:]}, piece, flush); err != nil {
						t.Fatal(err)
					}
					if seekable {
						return file.buf
					}
					return pipe.Bytes()
				}
				held, copied := frame(len(data)), frame(1000)
				if !bytes.Equal(held, copied) {
					t.Errorf("filter %d, first Write %d, flush %v, seekable %v: the frame differs from the one written in small pieces", filters[0].ID, first, flush, seekable)
				}
			}
		}
	}
}

// TestHeldInVain: a Writer whose held first Write was followed by more
// data holds no more, also after Reset (its caller writes in pieces, and
// each hold would cost a compression lost); a fresh one holds, and an
// empty Write leaves the chunk held.
func TestHeldInVain(t *testing.T) {
	data := testData(t)[:100_000]
	w, err := NewWriter(io.Discard, WithChunkSize(80_000), WithConcurrency(2))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, false} {
		w.Reset(io.Discard)
		if _, err := w.Write(data[:50_000]); err != nil {
			t.Fatal(err)
		}
		if w.held != want {
			t.Fatalf("frame %d: held %v", i, w.held)
		}
		// An empty Write brings no data: the chunk stays held.
		if _, err := w.Write(nil); err != nil || w.held != want {
			t.Fatalf("frame %d: after an empty Write, held %v, %v", i, w.held, err)
		}
		if i == 1 {
			if _, err := w.Write(data[50_000:]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// overlapCodec is LZ4 that records how many of its Decompress calls ran
// at once, each held for a while so that calls on other goroutines meet.
type overlapCodec struct {
	lz4              codec.Codec
	inflight, widest atomic.Int32
}

func (c *overlapCodec) Compress(dst, src []byte, clevel int, meta uint8, dict []byte) (int, error) {
	return c.lz4.Compress(dst, src, clevel, meta, dict)
}

func (c *overlapCodec) Decompress(dst, src []byte, meta uint8, dict []byte) (int, error) {
	now := c.inflight.Add(1)
	defer c.inflight.Add(-1)
	for w := c.widest.Load(); now > w && !c.widest.CompareAndSwap(w, now); w = c.widest.Load() {
	}
	time.Sleep(3 * time.Millisecond)
	return c.lz4.Decompress(dst, src, meta, dict)
}

// TestDecodeAllSpreadsBlocks: DecodeAll on n goroutines decodes the blocks
// of a lone chunk on several goroutines at once, not on one while the
// others wait; chunks of one block each are spread as chunks.
func TestDecodeAllSpreadsBlocks(t *testing.T) {
	lz4, err := codec.Lookup(blosc2.LZ4)
	if err != nil {
		t.Fatal(err)
	}
	oc := &overlapCodec{lz4: lz4}
	const id codec.ID = 231
	if err := codec.Register(id, "overlap-test", oc); err != nil {
		t.Fatal(err)
	}
	data := testData(t)[:8*16384]
	for _, tc := range []struct {
		chunk, goroutines int
		least             int32 // blocks decoded at once, at least
	}{
		{len(data), 2, 2},     // one chunk of 8 blocks
		{len(data), 4, 3},     // the same on 4 goroutines
		{len(data) / 8, 2, 2}, // a block per chunk
	} {
		p := blosc2.DefaultCParams()
		p.Codec, p.TypeSize, p.BlockSize = id, 8, 16384
		frame, err := EncodeAll(data, nil, WithCParams(p), WithChunkSize(tc.chunk))
		if err != nil {
			t.Fatal(err)
		}
		oc.widest.Store(0)
		got, err := DecodeAll(frame, nil, WithReaderConcurrency(tc.goroutines))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("chunks of %d on %d goroutines: %d bytes, %v", tc.chunk, tc.goroutines, len(got), err)
		}
		if w := oc.widest.Load(); w < tc.least || w > int32(tc.goroutines) {
			t.Errorf("chunks of %d bytes on %d goroutines: %d blocks decoded at once at most, want %d to %d", tc.chunk, tc.goroutines, w, tc.least, tc.goroutines)
		}
	}
}

// TestDecodeAllCapsOutput: DecodeAll allocates its output at the size the
// frames declare, so WithMaxMemory caps that size: 172 bytes declaring
// 2 GiB of zeros (C's blosc2_schunk_fill_special of 268 million chunks)
// fail with ErrTooLarge under the default cap without allocating, dst
// left as it was; a smaller fill decodes to exactly its zeros at a cap of
// its size and fails one byte below it, in one frame and in a
// concatenation.
func TestDecodeAllCapsOutput(t *testing.T) {
	bomb := hostile.FillZeros(268_435_450)
	dst := []byte("kept")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	got, err := DecodeAll(bomb, dst)
	runtime.ReadMemStats(&ms)
	if !errors.Is(err, blosc2.ErrTooLarge) || string(got) != "kept" {
		t.Fatalf("%d bytes declaring 2 GiB: %d bytes, %v", len(bomb), len(got), err)
	}
	if alloc := ms.TotalAlloc - before; alloc > 1<<20 {
		t.Fatalf("refusing it allocated %d bytes", alloc)
	}
	t.Logf("%d bytes: %v", len(bomb), err)
	fill := hostile.FillZeros(1 << 17) // 1 MiB of zeros
	for _, src := range [][]byte{fill, append(bytes.Clone(fill), fill...)} {
		size := len(src) / len(fill) << 20
		if _, err := DecodeAll(src, dst, WithMaxMemory(size-1)); !errors.Is(err, blosc2.ErrTooLarge) {
			t.Fatalf("%d bytes under a cap of one less: %v", size, err)
		}
		got, err := DecodeAll(src, dst, WithMaxMemory(size), WithReaderConcurrency(2))
		if err != nil || len(got) != 4+size || string(got[:4]) != "kept" || !bytes.Equal(got[4:], make([]byte, size)) {
			t.Fatalf("%d bytes under a cap of as many: %d bytes, %v", size, len(got), err)
		}
	}
}

// TestEncodeAllMatchesWriter: EncodeAll, which compresses every chunk of
// its source where it lies (the last, short one too), writes the frame a
// Writer writes from the same bytes in small pieces (which it copies),
// at concurrency 1, 2 and 4, for sources shorter than a chunk, of whole
// chunks, and of whole chunks and a short one; the source is left as it
// was and decodes back.
func TestEncodeAllMatchesWriter(t *testing.T) {
	data := testData(t)
	const chunk = 50_000
	for _, n := range []int{1, 2, 4} {
		for _, size := range []int{0, 1, 777, chunk, 3 * chunk, 3*chunk + 777, len(data)} {
			src := data[:min(size, len(data))]
			opts := []WriterOption{WithChunkSize(chunk), WithConcurrency(n)}
			// A seekable destination, as EncodeAll's: the header patched.
			small := &memWriter{}
			writeInPieces(t, small, src, opts...)
			kept := bytes.Clone(src)
			frame, err := EncodeAll(src, []byte("dst"), opts...)
			if err != nil {
				t.Fatal(err)
			}
			if string(frame[:3]) != "dst" || !bytes.Equal(frame[3:], small.buf) {
				t.Errorf("concurrency %d, %d bytes: EncodeAll's frame differs from the Writer's", n, len(src))
			}
			if !bytes.Equal(src, kept) {
				t.Fatalf("concurrency %d, %d bytes: EncodeAll changed its source", n, len(src))
			}
			if got, err := DecodeAll(frame[3:], nil); err != nil || !bytes.Equal(got, src) {
				t.Fatalf("concurrency %d, %d bytes: %v", n, len(src), err)
			}
		}
	}
}
