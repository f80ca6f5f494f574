package stream

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/race"
)

// TestNoAllocationPerChunk: a Reader reset for stream after stream
// allocates per stream (its frame's index and checksum record), never per
// chunk: a stream of 40 chunks costs no more allocations than one of 8,
// through an io.ReaderAt and through a plain io.Reader, with one goroutine
// and with several. One allocation every two extra chunks is allowed: the
// per-frame lists of chunk offsets and CRCs grow by doubling (6-7 more
// for 40 chunks than for 8 through a plain io.Reader), where before the
// recycling every chunk cost 4.
func TestNoAllocationPerChunk(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector drops sync.Pool items at random")
	}
	if testing.Short() {
		t.Skip("encodes 40 chunks")
	}
	const chunk = 256 << 10
	p := blosc2.DefaultCParams()
	p.Codec, p.TypeSize = blosc2.LZ4, 8
	frames := map[int][]byte{}
	for _, n := range []int{8, 40} {
		// A short last chunk, as most streams have.
		src := telemetry(n*chunk-1000, float64(n))
		f, err := EncodeAll(src, nil, WithCParams(p), WithChunkSize(chunk))
		if err != nil {
			t.Fatal(err)
		}
		frames[n] = f
	}
	for _, conc := range []int{1, 3} {
		for _, seq := range []bool{false, true} {
			t.Run(fmt.Sprintf("conc%d/sequential=%v", conc, seq), func(t *testing.T) {
				allocs := map[int]float64{}
				for n, f := range frames {
					source := func() io.Reader {
						if seq {
							return struct{ io.Reader }{bytes.NewReader(f)}
						}
						return bytes.NewReader(f)
					}
					r, err := NewReader(source(), WithReaderConcurrency(conc))
					if err != nil {
						t.Fatal(err)
					}
					out := bytes.NewBuffer(make([]byte, 0, 41*chunk))
					allocs[n] = testing.AllocsPerRun(5, func() {
						out.Reset()
						if err := r.Reset(source()); err != nil {
							t.Fatal(err)
						}
						if _, err := r.WriteTo(out); err != nil {
							t.Fatal(err)
						}
					})
					r.Close()
				}
				t.Logf("%.0f allocations for 8 chunks, %.0f for 40", allocs[8], allocs[40])
				if extra := allocs[40] - allocs[8]; extra > 32/2 {
					t.Errorf("%.0f allocations for 8 chunks, %.0f for 40: %.1f a chunk", allocs[8], allocs[40], extra/32)
				}
			})
		}
	}
}

// TestFreshReadersReuseBuffers: a program reading short stream after
// short stream, each with a new Reader (one message, one small file), does
// not allocate a chunk's buffers for each: the Readers that reached the end
// leave them to the next ones. Of 20 Readers of a 2-chunk stream, at most 5
// allocate over a fifth of a chunk; before, each allocated its decoded
// and compressed buffers, more than 2 chunks.
func TestFreshReadersReuseBuffers(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector drops sync.Pool items at random")
	}
	const chunk = 1 << 20
	p := blosc2.DefaultCParams()
	p.Codec, p.TypeSize = blosc2.LZ4, 8
	f, err := EncodeAll(telemetry(2*chunk-1000, 3), nil, WithCParams(p), WithChunkSize(chunk))
	if err != nil {
		t.Fatal(err)
	}
	out := bytes.NewBuffer(make([]byte, 0, 2*chunk))
	for _, conc := range []int{2, 3} {
		read := func() {
			out.Reset()
			r, err := NewReader(bytes.NewReader(f), WithReaderConcurrency(conc))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.WriteTo(out); err != nil {
				t.Fatal(err)
			}
		}
		checkFewHeavyRuns(t, fmt.Sprintf("concurrency %d: Readers of a 2-chunk stream", conc), read, chunk/5)
	}
}

// TestFreshWritersReuseBuffers: writing short stream after short stream,
// each with a new Writer (EncodeAll on each message), does not allocate a
// chunk buffer and an output buffer for each: closed Writers leave theirs
// to the next ones. Of 20 Writers of a 1.5-chunk stream, or of one
// shorter than a chunk, at most 5 allocate over a fifth of a chunk;
// before, each grew its chunk buffer from 64 KiB and allocated its
// output, over 2 chunks.
func TestFreshWritersReuseBuffers(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector drops sync.Pool items at random")
	}
	const chunk = 1 << 20
	p := blosc2.DefaultCParams()
	p.Codec, p.TypeSize = blosc2.LZ4, 8
	for _, tc := range []struct {
		conc, n int
	}{{1, chunk * 9 / 10}, {2, chunk * 9 / 10}, {1, chunk + chunk/2}, {2, chunk + chunk/2}} {
		conc, src := tc.conc, telemetry(tc.n, 5)
		out := bytes.NewBuffer(make([]byte, 0, 2*chunk))
		write := func() {
			out.Reset()
			w, err := NewWriter(out, WithCParams(p), WithChunkSize(chunk), WithConcurrency(conc))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write(src); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
		}
		checkFewHeavyRuns(t, fmt.Sprintf("concurrency %d: Writers of a %d-byte stream", conc, tc.n), write, chunk/5)
	}
}

// checkFewHeavyRuns runs f once to warm up, then 20 times, and fails if
// more than 5 of those allocated over limit bytes. sync.Pool keeps a
// buffer on the processor that put it, so a goroutine that moved finds
// none now and then, and the garbage collector empties it: most runs, not
// all, must allocate little.
func checkFewHeavyRuns(t *testing.T, what string, f func(), limit uint64) {
	t.Helper()
	f()
	var before, after runtime.MemStats
	heavy, most := 0, uint64(0)
	for range 20 {
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		n := after.TotalAlloc - before.TotalAlloc
		most = max(most, n)
		if n > limit {
			heavy++
		}
	}
	t.Logf("%s: %d of 20 allocated over %d bytes; the most %d", what, heavy, limit, most)
	if heavy > 5 {
		t.Errorf("%s: %d of 20 allocated over %d bytes; the most %d", what, heavy, limit, most)
	}
}
