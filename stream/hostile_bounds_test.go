package stream

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/errs"
	"github.com/blosc2go/blosc2/internal/hostile"
	"github.com/blosc2go/blosc2/internal/race"
)

// peakHeap runs f and returns the most live heap seen above what was live
// before it: the heap the garbage collector found reachable at the end of
// each cycle (/gc/heap/live:bytes), sampled every 200 µs, with a cycle at
// every 1% of growth meanwhile. Garbage not yet collected is left out:
// how much piles up depends on how busy the machine is (CI runs packages
// side by side), not on what f holds.
func peakHeap(f func()) int64 {
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	base := int64(sample[0].Value.Uint64())
	var peak int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: sample[0].Name}}
		for {
			metrics.Read(s)
			peak = max(peak, int64(s[0].Value.Uint64())-base)
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return peak
}

// TestHostileFramesStayInCap: stream.NewReader with WithMaxMemory(64 MiB)
// reads each crafted frame of internal/hostile (through the index and front
// to back, with 1 and 4 goroutines) within the cap plus 64 MiB of heap
// and in bounded time: it yields the bytes the frame holds (checked up to
// 512 MiB) or fails with an error wrapping a sentinel, and frames whose
// sizes lie always fail.
func TestHostileFramesStayInCap(t *testing.T) {
	const memCap, slack = 64 << 20, 64 << 20
	const most = 512 << 20 // bytes read of each frame
	frames := hostile.Frames(268_435_450)
	concs := []int{1, 4}
	if testing.Short() {
		concs = []int{4}
	}
	for _, f := range frames {
		for _, conc := range concs {
			for _, seq := range []bool{false, true} {
				var n int64
				var err error
				start := time.Now()
				peak := peakHeap(func() {
					src := frameSource(f.Data, seq)
					var r *Reader
					if r, err = NewReader(src, WithMaxMemory(memCap), WithReaderConcurrency(conc)); err != nil {
						return
					}
					defer r.Close()
					n, err = io.Copy(io.Discard, io.LimitReader(r, most))
				})
				took := time.Since(start)
				t.Logf("%-17s conc %d sequential %-5v: %4d MiB peak heap, %5.2f s, %d bytes, %v", f.Name, conc, seq, peak>>20, took.Seconds(), n, err)
				// The race detector's slower allocations let garbage pile up
				// between collections: the bound is checked without it.
				if peak > memCap+slack && !race.Enabled {
					t.Errorf("%s conc %d sequential %v: peak heap %d MiB", f.Name, conc, seq, peak>>20)
				}
				if took > 60*time.Second {
					t.Errorf("%s conc %d sequential %v: %v", f.Name, conc, seq, took)
				}
				switch {
				case err == nil && (f.Out < 0 || n != min(f.Out, most)):
					t.Errorf("%s conc %d sequential %v: %d bytes and no error, want %d or an error", f.Name, conc, seq, n, f.Out)
				case err != nil && !isSentinel(err):
					t.Errorf("%s conc %d sequential %v: %v wraps no sentinel", f.Name, conc, seq, err)
				case err != nil && f.Out >= 0 && !f.TooLarge && !seq:
					t.Errorf("%s conc %d through the index: %v", f.Name, conc, err)
				}
			}
		}
	}
}

func isSentinel(err error) bool { return errs.IsBadInput(err) }

// TestHostileFramesDecodeAllInCap: DecodeAll with WithMaxMemory(64 MiB)
// on each crafted frame of internal/hostile stays within the cap plus
// 64 MiB of heap: a frame that declares more than the cap fails with
// ErrTooLarge before decoding, one within it decodes to the bytes the
// Reader yields, and frames whose sizes lie fail with a sentinel. So does
// a Reader's WriteTo from a bytes.Reader into a bytes.Buffer, which
// decodes as DecodeAll does, for the frames within the cap.
func TestHostileFramesDecodeAllInCap(t *testing.T) {
	const memCap, slack = 64 << 20, 64 << 20
	for _, f := range hostile.Frames(268_435_450) {
		for _, conc := range []int{1, 4} {
			var got []byte
			var err error
			start := time.Now()
			peak := peakHeap(func() {
				got, err = DecodeAll(f.Data, nil, WithMaxMemory(memCap), WithReaderConcurrency(conc))
			})
			t.Logf("%-17s conc %d: %4d MiB peak heap, %5.2f s, %d bytes, %v", f.Name, conc, peak>>20, time.Since(start).Seconds(), len(got), err)
			if peak > memCap+slack && !race.Enabled {
				t.Errorf("%s conc %d: peak heap %d MiB", f.Name, conc, peak>>20)
			}
			switch {
			case f.Out > memCap:
				if !errors.Is(err, blosc2.ErrTooLarge) {
					t.Errorf("%s conc %d: %d bytes declared over a cap of %d: %v", f.Name, conc, f.Out, memCap, err)
				}
			case f.Out < 0:
				if err == nil || !isSentinel(err) {
					t.Errorf("%s conc %d: %v, want an error wrapping a sentinel", f.Name, conc, err)
				}
			case err != nil:
				t.Errorf("%s conc %d: %v", f.Name, conc, err)
			default:
				r, err := NewReader(bytes.NewReader(f.Data), WithMaxMemory(memCap))
				if err != nil {
					t.Fatal(err)
				}
				want, err := io.ReadAll(r)
				r.Close()
				if err != nil || int64(len(want)) != f.Out || !bytes.Equal(got, want) {
					t.Errorf("%s conc %d: %d bytes, the Reader's %d (%v), declared %d", f.Name, conc, len(got), len(want), err, f.Out)
				}
			}
			if f.Out > memCap {
				continue // WriteTo would take the read-ahead, and fill the buffer with all of it
			}
			// A Reader's WriteTo from memory into a bytes.Buffer decodes as
			// DecodeAll does, within the same bounds.
			var buf bytes.Buffer
			peak = peakHeap(func() {
				var r *Reader
				if r, err = NewReader(bytes.NewReader(f.Data), WithMaxMemory(memCap), WithReaderConcurrency(conc)); err != nil {
					return
				}
				_, err = r.WriteTo(&buf)
				r.Close()
			})
			t.Logf("%-17s conc %d: WriteTo from memory: %4d MiB peak heap, %d bytes, %v", f.Name, conc, peak>>20, buf.Len(), err)
			if peak > memCap+slack && !race.Enabled {
				t.Errorf("%s conc %d: WriteTo from memory: peak heap %d MiB", f.Name, conc, peak>>20)
			}
			if f.Out < 0 && (err == nil || !isSentinel(err)) || f.Out >= 0 && (err != nil || !bytes.Equal(buf.Bytes(), got)) {
				t.Errorf("%s conc %d: WriteTo from memory: %d bytes, %v; DecodeAll's %d", f.Name, conc, buf.Len(), err, len(got))
			}
		}
	}
}
