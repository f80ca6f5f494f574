package testvec

import "io"

// WriteParts writes each of parts to w in Write calls of at most piece
// bytes, and calls after(i) once part i is written (a Flush between
// parts, say), stopping at the first error: the write patterns that tests
// of a Writer compare.
func WriteParts(w io.Writer, parts [][]byte, piece int, after func(i int) error) error {
	for i, part := range parts {
		for p := part; len(p) > 0; p = p[min(piece, len(p)):] {
			if _, err := w.Write(p[:min(piece, len(p))]); err != nil {
				return err
			}
		}
		if err := after(i); err != nil {
			return err
		}
	}
	return nil
}
