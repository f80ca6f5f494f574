package stream

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// heapPeak samples the live heap (what the last GC found reachable: the
// memory the stream holds, not garbage awaiting collection) every few
// milliseconds until stopped.
type heapPeak struct {
	peak      atomic.Uint64
	gcPercent int
	stop      chan struct{}
	wg        sync.WaitGroup
}

// GC runs often meanwhile (GOGC 5) so that the live heap is measured at
// short intervals instead of only when the heap doubles.
func startHeapPeak() *heapPeak {
	old := debug.SetGCPercent(5)
	runtime.GC()
	h := &heapPeak{stop: make(chan struct{}), gcPercent: old}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > h.peak.Load() {
				h.peak.Store(v)
			}
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

func (h *heapPeak) done() uint64 {
	close(h.stop)
	h.wg.Wait()
	debug.SetGCPercent(h.gcPercent)
	return h.peak.Load()
}

// telemetry fills a buffer with float64 samples of a slowly varying signal.
func telemetry(n int, phase float64) []byte {
	b := make([]byte, n)
	for i := 0; i+8 <= n; i += 8 {
		v := 20 + 5*math.Sin(phase+float64(i)/8e4) + float64((i/8)%17)*0.01
		binary.LittleEndian.PutUint64(b[i:], math.Float64bits(v))
	}
	return b
}

// BenchmarkMemory streams a generated telemetry stream (10 GiB by default,
// BLOSC2_MEMBENCH_BYTES to change it) through a Writer into a pipe and a
// Reader out of it, and reports the peak live heap next to the bound:
// (2×concurrency+3) chunk sizes for the Writer, (concurrency+3) for the
// Reader.
func BenchmarkMemory(b *testing.B) {
	total := int64(10 << 30)
	if s := os.Getenv("BLOSC2_MEMBENCH_BYTES"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		total = n
	}
	const chunk = 4 << 20
	conc := autoConcurrency()
	src := telemetry(64<<20, 0)
	for b.Loop() {
		peak := startHeapPeak()
		time.Sleep(20 * time.Millisecond)
		base := peak.peak.Load() // the 64 MiB source buffer and the test binary
		pr, pw := io.Pipe()
		go func() {
			w, err := NewWriter(pw, WithChunkSize(chunk), WithTypeSize(8), WithConcurrency(conc))
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			for written := int64(0); written < total; {
				n := min(int64(len(src)), total-written)
				if _, err := w.Write(src[:n]); err != nil {
					pw.CloseWithError(err)
					return
				}
				written += n
			}
			pw.CloseWithError(w.Close())
		}()
		r, err := NewReader(pr, WithReaderConcurrency(conc))
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		n, err := io.Copy(io.Discard, r)
		r.Close()
		if err != nil || n != total {
			b.Fatalf("copied %d of %d: %v", n, total, err)
		}
		el := time.Since(t0)
		p := peak.done()
		bound := uint64((2*conc+4)*chunk + (conc+3)*chunk) // writer, reader
		b.ReportMetric(float64(p-base)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(bound)/(1<<20), "bound-MiB")
		b.ReportMetric(float64(total)/1e6/el.Seconds(), "MB/s")
		fmt.Fprintf(os.Stderr, "streamed %d bytes in %v: peak live heap above baseline %.1f MiB, bound (Writer + Reader) (2×%d+4 + %d+3)×4 MiB = %.0f MiB\n",
			total, el, float64(p-base)/(1<<20), conc, conc, float64(bound)/(1<<20))
	}
}
