package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// isTerminal reports whether v is a terminal (a tty), as gzip and zstd ask
// with isatty: /dev/null is a character device but no terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress counts bytes read and prints how far a long job is on a
// terminal, once a second has passed.
type progress struct {
	r     io.Reader
	total int64 // -1 if unknown
	mu    sync.Mutex
	n     int64
	stop  chan struct{}
	done  sync.WaitGroup
}

// withProgress returns r, counted and reported on stderr when stderr is a
// terminal and show is set; stop ends the report (and must be called).
func withProgress(r io.Reader, name string, total int64, stderr io.Writer, show bool) (io.Reader, func()) {
	if !show || !isTerminal(stderr) {
		return r, func() {}
	}
	p := &progress{r: r, total: total, stop: make(chan struct{})}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		start := time.Now()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		shown := false
		for {
			select {
			case <-p.stop:
				if shown {
					fmt.Fprint(stderr, "\r\033[K")
				}
				return
			case <-t.C:
			}
			el := time.Since(start)
			if el < time.Second {
				continue
			}
			p.mu.Lock()
			n := p.n
			p.mu.Unlock()
			line := fmt.Sprintf("%s: %.1f MB, %.0f MB/s", name, float64(n)/1e6, float64(n)/1e6/el.Seconds())
			if p.total > 0 {
				line = fmt.Sprintf("%s: %3.0f%% %.1f/%.1f MB, %.0f MB/s", name, 100*float64(n)/float64(p.total), float64(n)/1e6, float64(p.total)/1e6, float64(n)/1e6/el.Seconds())
			}
			fmt.Fprintf(stderr, "\r%s\033[K", line)
			shown = true
		}
	}()
	return p, func() {
		close(p.stop)
		p.done.Wait()
	}
}

func (p *progress) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.mu.Lock()
	p.n += int64(n)
	p.mu.Unlock()
	return n, err
}
