package testvec

import "io"

// Flusher is a stream Writer as the tests drive one: Write, Flush, Close.
type Flusher interface {
	io.WriteCloser
	Flush() error
}

// WriteStream writes each of parts to w in Write calls of at most piece
// bytes, calls Flush after each part but the last when flush is set, and
// closes w, stopping at the first error: the write patterns that tests of
// a Writer compare.
func WriteStream(w Flusher, parts [][]byte, piece int, flush bool) error {
	for i, part := range parts {
		for p := part; len(p) > 0; p = p[min(piece, len(p)):] {
			if _, err := w.Write(p[:min(piece, len(p))]); err != nil {
				return err
			}
		}
		if flush && i < len(parts)-1 {
			if err := w.Flush(); err != nil {
				return err
			}
		}
	}
	return w.Close()
}
