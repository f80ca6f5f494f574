package stream

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMain fails the run if goroutines outlive the tests: every Writer and
// Reader must stop its goroutines at Close, EOF or an error.
func TestMain(m *testing.M) {
	base := runtime.NumGoroutine()
	code := m.Run()
	if code == 0 {
		deadline := time.Now().Add(10 * time.Second)
		for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > base {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			fmt.Fprintf(os.Stderr, "leaked goroutines: %d > %d\n%s\n", n, base, buf)
			code = 1
		}
	}
	os.Exit(code)
}

// noLeak checks, at the end of a test, that the goroutine count came back.
func noLeak(t *testing.T) func() {
	base := runtime.NumGoroutine()
	return func() {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > base {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			var ours []string
			for _, g := range strings.Split(string(buf), "\n\n") {
				if strings.Contains(g, "blosc2/stream") && !strings.Contains(g, "noLeak") {
					ours = append(ours, g)
				}
			}
			t.Fatalf("goroutines leaked: %d > %d\n%s", n, base, strings.Join(ours, "\n\n"))
		}
	}
}
