package fanout

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunCalls: work runs n times (once for n below 2), and Run returns
// only after every call has returned.
func TestRunCalls(t *testing.T) {
	for _, n := range []int{-1, 0, 1, 2, 3, 8} {
		var calls, done atomic.Int64
		Run(n, func() {
			calls.Add(1)
			time.Sleep(time.Millisecond)
			done.Add(1)
		})
		want := int64(max(n, 1))
		if calls.Load() != want || done.Load() != want {
			t.Errorf("n=%d: %d calls, %d returned before Run did; want %d", n, calls.Load(), done.Load(), want)
		}
	}
}

// TestRunConcurrent: the n calls run at once. Each waits until all n
// have started, which never happens if Run made them one after another.
func TestRunConcurrent(t *testing.T) {
	for _, n := range []int{2, 3, 8} {
		var started sync.WaitGroup
		started.Add(n)
		all := make(chan struct{})
		go func() { started.Wait(); close(all) }()
		var timedOut atomic.Bool
		Run(n, func() {
			started.Done()
			select {
			case <-all:
			case <-time.After(10 * time.Second):
				timedOut.Store(true)
			}
		})
		if timedOut.Load() {
			t.Fatalf("n=%d: the calls did not all run at once", n)
		}
	}
}

// goid is the calling goroutine's number, from its stack's first line.
func goid() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return strings.Fields(string(buf))[1]
}

// TestRunCallerWorks: exactly one of the calls runs on the caller's
// goroutine, and the others each on a goroutine of their own.
func TestRunCallerWorks(t *testing.T) {
	for _, n := range []int{1, 2, 5} {
		caller := goid()
		var mu sync.Mutex
		seen := map[string]int{}
		Run(n, func() {
			id := goid()
			mu.Lock()
			seen[id]++
			mu.Unlock()
		})
		if seen[caller] != 1 || len(seen) != n {
			t.Errorf("n=%d: calls by goroutine %v, the caller being %s; want one each, the caller's among them", n, seen, caller)
		}
	}
}
