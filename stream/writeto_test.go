package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/race"
)

// writeToData is 40 chunks of 64 KiB and a short one: telemetry, with a
// run of zero chunks (special chunks, read through a virtual chunk), a
// lone constant chunk and text among them, so that the chunks decoded in
// place alternate with chunks written by copying.
func writeToData(t *testing.T) []byte {
	const cs = 64 << 10
	var b bytes.Buffer
	b.Write(telemetry(12*cs, 1))
	b.Write(make([]byte, 20*cs)) // zeros: a run of special chunks
	b.Write(telemetry(3*cs, 2))
	b.Write(bytes.Repeat([]byte{7, 0, 0, 0, 0, 0, 0, 0}, cs/8)) // one special chunk
	b.Write(testData(t)[:3*cs+5000])
	return b.Bytes()
}

// TestWriteToBufferInPlace: io.Copy into a bytes.Buffer, where the chunks
// are decoded straight into the buffer's spare capacity, gives the
// stream's bytes after what the buffer held, from plain sources (where
// the window grows as the stream goes), random-access ones and memory,
// on 2-5
// goroutines, into empty buffers, buffers with content, buffers with
// room and buffers partly read (whose Grow slides the content down).
func TestWriteToBufferInPlace(t *testing.T) {
	defer noLeak(t)()
	data := writeToData(t)
	// Written to a plain io.Writer, as to a pipe: every chunk is in the
	// stream, so that plain sources can read it too.
	frame := unpatchedFrame(t, data, WithChunkSize(64<<10), WithTier(blosc2.TierFastest))
	buffers := map[string]func() *bytes.Buffer{
		"empty": func() *bytes.Buffer { return new(bytes.Buffer) },
		"content": func() *bytes.Buffer {
			return bytes.NewBufferString("what the buffer held")
		},
		"room": func() *bytes.Buffer {
			b := bytes.NewBuffer(make([]byte, 0, len(data)+100))
			b.WriteString("head")
			return b
		},
		"partly read": func() *bytes.Buffer {
			b := bytes.NewBuffer(make([]byte, 0, 3<<20))
			b.Write(bytes.Repeat([]byte("x"), 1<<20))
			b.Next(1<<20 - 3)
			return b
		},
	}
	for _, conc := range []int{2, 3, 5} {
		for _, kind := range sourceKinds {
			for name, mk := range buffers {
				r, err := NewReader(kind.of(frame), WithReaderConcurrency(conc))
				if err != nil {
					t.Fatal(err)
				}
				buf := mk()
				want := append(append([]byte(nil), buf.Bytes()...), data...)
				n, err := io.Copy(buf, r)
				if err != nil || n != int64(len(data)) || !bytes.Equal(buf.Bytes(), want) {
					t.Errorf("concurrency %d, %s source, %s buffer: %d bytes, %v; the output differs: %v",
						conc, kind.name, name, n, err, !bytes.Equal(buf.Bytes(), want))
				}
				if n, err := r.WriteTo(buf); n != 0 || err != nil {
					t.Errorf("WriteTo after the end: %d, %v", n, err)
				}
				// The Reader goes on with the next stream, through Read:
				// nothing of the destination is among its buffers.
				r.Reset(bytes.NewReader(frame))
				before := append([]byte(nil), buf.Bytes()...)
				got, err := io.ReadAll(struct{ io.Reader }{r})
				if err != nil || !bytes.Equal(got, data) || !bytes.Equal(buf.Bytes(), before) {
					t.Errorf("concurrency %d, %s buffer: the Reader reset after WriteTo read wrong data (%v) or wrote into the buffer", conc, name, err)
				}
				r.Close()
			}
		}
	}
}

// TestWriteToBufferDamage: a damaged chunk stops WriteTo with an error.
// Read through the index, where each chunk is verified before it is
// decoded, the buffer then holds the stream up to the chunk before it:
// the chunks decoded in place after it never become part of the buffer.
// (Read front to back, the chunks are verified at the frame's trailer.)
func TestWriteToBufferDamage(t *testing.T) {
	defer noLeak(t)()
	const cs = 64 << 10
	data := telemetry(24*cs, 5)
	p := blosc2.DefaultCParams()
	p.Codec, p.TypeSize = blosc2.LZ4, 8
	frame, err := EncodeAll(data, nil, WithCParams(p), WithChunkSize(cs))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(bytes.NewReader(frame), WithReaderConcurrency(3))
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []float64{0.3, 0.55, 0.8} {
		bad := append([]byte(nil), frame...)
		bad[int(at*float64(len(frame)))] ^= 0x5a
		for _, kind := range sourceKinds {
			if err := r.Reset(kind.of(bad)); err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			_, err := r.WriteTo(&buf)
			if !errors.Is(err, blosc2.ErrChecksum) && !errors.Is(err, blosc2.ErrCorrupt) {
				t.Errorf("damage at %.0f%%, %s source: %v, want a checksum or corruption error", 100*at, kind.name, err)
			}
			if got := buf.Bytes(); kind.name != "plain" && (len(got)%cs != 0 || !bytes.Equal(got, data[:len(got)])) {
				t.Errorf("damage at %.0f%%, %s source: the buffer holds %d bytes that are not the stream's first whole chunks", 100*at, kind.name, len(got))
			}
		}
	}
	r.Close()
}

// TestWriteToBufferNoDecodedBuffers: into a bytes.Buffer with room, a
// Reader of a file or of memory allocates no buffer for decoded chunks: blosc2.Decompress, which
// allocates a chunk's output when it is given no room, allocates no
// chunk-sized buffer on 16 chunks of 1 MiB; into io.Discard, at least one. Counted in
// the heap profile by call stack, so that what the scheduler varies (how
// far the read-ahead gets, the blocks' scratch space) does not count.
func TestWriteToBufferNoDecodedBuffers(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates on its own")
	}
	const cs = 1 << 20
	data := bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog, 0123456789\n"), 16*cs/56)
	frame, err := EncodeAll(data, nil, WithChunkSize(cs))
	if err != nil {
		t.Fatal(err)
	}
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	decodedBytes := func() int64 {
		runtime.GC() // the profile is as of the last collection
		var recs []runtime.MemProfileRecord
		n, _ := runtime.MemProfile(nil, true)
		for {
			recs = make([]runtime.MemProfileRecord, n+50)
			var ok bool
			if n, ok = runtime.MemProfile(recs, true); ok {
				recs = recs[:n]
				break
			}
		}
		var total int64
		for _, rec := range recs {
			frames := runtime.CallersFrames(rec.Stack())
			output, scratch := false, false
			for {
				f, more := frames.Next()
				output = output || f.Function == "github.com/blosc2go/blosc2.Decompress"
				scratch = scratch || strings.HasSuffix(f.Function, "blosc2.getScratch")
				if !more {
					break
				}
			}
			if output && !scratch && rec.AllocObjects > 0 && rec.AllocBytes/rec.AllocObjects >= cs {
				total += rec.AllocBytes // chunk-sized: an output
			}
		}
		return total
	}
	read := func(src io.Reader, w io.Writer) int64 {
		before := decodedBytes()
		r, err := NewReader(src, WithReaderConcurrency(2))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.WriteTo(w); err != nil {
			t.Fatal(err)
		}
		return decodedBytes() - before
	}
	for _, kind := range sourceKinds[1:] { // through the index, and from memory
		buf := bytes.NewBuffer(make([]byte, 0, len(data)))
		inPlace := read(kind.of(frame), buf)
		if !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("%s source: the stream read back wrong", kind.name)
		}
		t.Logf("%s source: chunk outputs allocated into a bytes.Buffer: %d bytes", kind.name, inPlace)
		if inPlace != 0 {
			t.Errorf("%s source: allocated %d bytes of chunk output reading into a bytes.Buffer with room: the chunks were not decoded in place", kind.name, inPlace)
		}
	}
	runtime.GC()
	runtime.GC() // empty the pools: the Reader into io.Discard allocates its buffers
	copied := read(bytes.NewReader(frame), io.Discard)
	t.Logf("chunk outputs allocated into io.Discard: %d bytes", copied)
	if copied < cs {
		t.Errorf("allocated %d bytes of chunk output reading into io.Discard: the test cannot tell the two apart", copied)
	}
}

// slowCodec is LZ4 whose Decompress waits before it writes, so that a
// Close meets decoders at work.
type slowCodec struct{ lz4 codec.Codec }

func (c slowCodec) Compress(dst, src []byte, clevel int, meta uint8, dict []byte) (int, error) {
	return c.lz4.Compress(dst, src, clevel, meta, dict)
}

func (c slowCodec) Decompress(dst, src []byte, meta uint8, dict []byte) (int, error) {
	time.Sleep(15 * time.Millisecond)
	return c.lz4.Decompress(dst, src, meta, dict)
}

// TestWriteToBufferClose: a Close during WriteTo into a bytes.Buffer
// returns once no decoder writes into the buffer's spare capacity any
// more: the capacity, filled with a pattern as soon as WriteTo returns,
// keeps it (and the race detector sees no write of ours after the
// return), for Closes at several points of the stream, whatever the
// source.
func TestWriteToBufferClose(t *testing.T) {
	defer noLeak(t)()
	lz4, err := codec.Lookup(blosc2.LZ4)
	if err != nil {
		t.Fatal(err)
	}
	const id codec.ID = 232
	if err := codec.Register(id, "slow-test", slowCodec{lz4}); err != nil {
		t.Fatal(err)
	}
	const cs = 64 << 10
	data := telemetry(32*cs, 7)
	p := blosc2.DefaultCParams()
	p.Codec, p.TypeSize, p.BlockSize = id, 8, cs
	frame, err := EncodeAll(data, nil, WithCParams(p), WithChunkSize(cs))
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range sourceKinds {
		for _, after := range []time.Duration{5, 20, 35, 50, 65} {
			t.Run(fmt.Sprint(kind.name, "/", after*time.Millisecond), func(t *testing.T) {
				r, err := NewReader(kind.of(frame), WithReaderConcurrency(2))
				if err != nil {
					t.Fatal(err)
				}
				closer := time.AfterFunc(after*time.Millisecond, func() { r.Close() })
				defer closer.Stop()
				var buf bytes.Buffer
				_, err = r.WriteTo(&buf)
				spare := buf.AvailableBuffer()
				spare = spare[:cap(spare)]
				for i := range spare {
					spare[i] = 0xa5
				}
				if err == nil {
					t.Fatal("the stream ended before the Close: 32 chunks take 240 ms")
				}
				if !errors.Is(err, blosc2.ErrClosed) {
					t.Fatalf("WriteTo: %v, want ErrClosed", err)
				}
				time.Sleep(40 * time.Millisecond) // longer than a chunk's decoding
				for i, c := range spare {
					if c != 0xa5 {
						t.Fatalf("Close after %d ms: byte %d of the buffer's spare capacity was written after WriteTo returned", after, i)
					}
				}
				if got := buf.Bytes(); !bytes.Equal(got, data[:len(got)]) {
					t.Errorf("Close after %d ms: the buffer's %d bytes are not the stream's first", after, len(got))
				}
			})
		}
	}
}

// TestWriteToMemorySource: from a bytes.Reader, WriteTo into a
// bytes.Buffer decodes the source's bytes where they lie, and leaves it
// as reading through ReadAt does: the frames start at the position the
// source had at Reset and the source is back there afterwards; with
// WithMultistream(false) only the first frame of two is read. A source
// moved since Reset, or frames declaring more than the memory cap, are
// read through the read-ahead instead, to the same bytes.
func TestWriteToMemorySource(t *testing.T) {
	defer noLeak(t)()
	data := writeToData(t)
	frame, err := EncodeAll(data, nil, WithChunkSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	lead := []byte("not a frame")
	src := append(append(append([]byte(nil), lead...), frame...), frame...)
	both := append(append([]byte(nil), data...), data...)
	for _, tc := range []struct {
		name  string
		opts  []ReaderOption
		moved int64 // bytes the source is read past between Reset and WriteTo
		want  []byte
	}{
		{"two frames", nil, 0, both},
		{"first frame", []ReaderOption{WithMultistream(false)}, 0, data},
		{"moved source", nil, 5, both},
		{"over the cap", []ReaderOption{WithMaxMemory(1 << 20)}, 0, both},
	} {
		for _, conc := range []int{1, 2} {
			br := bytes.NewReader(src)
			br.Seek(int64(len(lead)), io.SeekStart)
			r, err := NewReader(br, append([]ReaderOption{WithReaderConcurrency(conc)}, tc.opts...)...)
			if err != nil {
				t.Fatal(err)
			}
			br.Seek(tc.moved, io.SeekCurrent)
			var buf bytes.Buffer
			n, err := r.WriteTo(&buf)
			if err != nil || n != int64(len(tc.want)) || !bytes.Equal(buf.Bytes(), tc.want) {
				t.Errorf("%s, concurrency %d: %d bytes, %v; equal %v", tc.name, conc, n, err, bytes.Equal(buf.Bytes(), tc.want))
			}
			if pos, _ := br.Seek(0, io.SeekCurrent); pos != int64(len(lead))+tc.moved {
				t.Errorf("%s, concurrency %d: the source is at %d, not %d where it was", tc.name, conc, pos, int64(len(lead))+tc.moved)
			}
			if k, err := r.Read(make([]byte, 1)); k != 0 || err != io.EOF {
				t.Errorf("%s, concurrency %d: Read after WriteTo: %d, %v", tc.name, conc, k, err)
			}
			r.Close()
		}
	}
}

// TestWriteToMemorySourceChanged: bytes of a bytes.Reader changed under a
// Reader between Reset and WriteTo, so that the frame now declares
// another size, fail with ErrCorrupt rather than give the new frame's
// bytes as the stream the Reader opened.
func TestWriteToMemorySourceChanged(t *testing.T) {
	data := writeToData(t)
	long, err := EncodeAll(data, nil, WithChunkSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	short, err := EncodeAll(data[:len(data)/2], nil, WithChunkSize(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	src := bytes.Clone(long)
	r, err := NewReader(bytes.NewReader(src), WithMultistream(false))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	copy(src, short)
	var buf bytes.Buffer
	if _, err := r.WriteTo(&buf); !errors.Is(err, blosc2.ErrCorrupt) {
		t.Fatalf("WriteTo: %v (%d bytes), want ErrCorrupt", err, buf.Len())
	}
}
