package stream

import (
	"errors"
	"testing"
)

// failingWriter refuses every write.
type failingWriter struct{}

var errRefused = errors.New("refused")

func (failingWriter) Write([]byte) (int, error) { return 0, errRefused }

// TestCloseIsSticky: a Close that failed returns the same error when
// called again, as framewriter's and b2nd's do.
func TestCloseIsSticky(t *testing.T) {
	for _, conc := range []int{1, 2} {
		w, err := NewWriter(failingWriter{}, WithConcurrency(conc))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(make([]byte, 100))
		if err := w.Close(); !errors.Is(err, errRefused) {
			t.Fatalf("concurrency %d: Close returned %v", conc, err)
		}
		if err := w.Close(); !errors.Is(err, errRefused) {
			t.Fatalf("concurrency %d: second Close returned %v", conc, err)
		}
	}
}
