package stream

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"testing"
	"time"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framewriter"
	"github.com/blosc2go/blosc2/internal/hostile"
)

// TestSpecialRuns: runs of special chunks the index implies (zeros, NaN,
// uninitialized; tiny chunks, chunks of 100,000 bytes that are not a whole
// number of elements, a shorter last chunk, a stored chunk before and
// after) read as their bytes: C's NaN bit pattern, zeros, the stored data,
// front to back and through the index, with 1 and 3 goroutines, and from
// every offset Seek lands on.
func TestSpecialRuns(t *testing.T) {
	nan8 := make([]byte, 8)
	binary.LittleEndian.PutUint64(nan8, 0x7FF8000000000000) // C's NAN (Go's math.NaN differs)
	cases := []struct {
		name      string
		kind      blosc2.Special
		chunksize int
		items     int64
		elem      []byte
	}{
		{"zeros-8B", blosc2.SpecialZero, 8, 300_001, make([]byte, 8)},
		{"nan-24B", blosc2.SpecialNaN, 24, 100_003, nan8},
		{"uninit-40000B", blosc2.SpecialUninit, 40_000, 120_001, make([]byte, 8)},
		{"nan-100000B", blosc2.SpecialNaN, 100_000, 100_001, nan8}, // 12,500 elements a chunk
	}
	for _, c := range cases {
		p := blosc2.DefaultCParams()
		p.TypeSize = 8
		path := t.TempDir() + "/f.b2frame"
		w, err := framewriter.Create(path, framewriter.WithCParams(p), framewriter.WithoutSync())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.FillSpecial(c.items, c.kind, c.chunksize); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		frame := readFile(t, path)
		want := bytes.Repeat(c.elem, int(c.items))
		for _, conc := range []int{1, 3} {
			for _, seq := range []bool{true, false} {
				src := frameSource(frame, seq)
				r, err := NewReader(src, WithReaderConcurrency(conc))
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(r)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s conc %d sequential %v: %d bytes (want %d), equal %v, %v", c.name, conc, seq, len(got), len(want), bytes.Equal(got, want), err)
				}
				if seq {
					continue
				}
				for _, off := range []int64{0, 1, 7, int64(c.chunksize) + 3, int64(len(want)) / 2, int64(len(want)) - 5} {
					if _, err := r.Seek(off, io.SeekStart); err != nil {
						t.Fatal(err)
					}
					got, err := io.ReadAll(r)
					if err != nil || !bytes.Equal(got, want[off:]) {
						t.Fatalf("%s conc %d from %d: %d bytes, %v", c.name, conc, off, len(got), err)
					}
				}
			}
		}
	}
}

// TestSpecialRunsTakeTimeOfBytes: 268,435,450 zero chunks of 8 bytes (the
// 172-byte frame of blosc2_schunk_fill_special) read in about the time of
// their 2 GiB of zeros, not chunk after chunk (which took minutes).
func TestSpecialRunsTakeTimeOfBytes(t *testing.T) {
	const n = 268_435_450 // the most C allows
	frame := hostile.FillZeros(n)
	for _, seq := range []bool{true, false} {
		src := frameSource(frame, seq)
		start := time.Now()
		r, err := NewReader(src)
		if err != nil {
			t.Fatal(err)
		}
		var z zeroCounter
		if _, err := io.Copy(&z, r); err != nil || z.n != 8*n || z.nonZero {
			t.Fatalf("sequential %v: %d bytes, non-zero %v, %v", seq, z.n, z.nonZero, err)
		}
		// Generous: zeroCounter compares every byte, about a second; chunk
		// after chunk took minutes.
		if d := time.Since(start); d > 60*time.Second {
			t.Fatalf("sequential %v: %v", seq, d)
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
