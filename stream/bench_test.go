package stream

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/blosc2go/blosc2"
)

// BenchmarkStream writes and reads 32 MiB of generated telemetry (eight
// 4 MiB chunks) through one Writer and one Reader, Reset between passes as
// in a long-running program: MB/s and bytes allocated per pass, at one
// goroutine and at the default concurrency.
func BenchmarkStream(b *testing.B) {
	src := telemetry(32<<20, 0)
	for _, conc := range []int{1, autoConcurrency()} {
		var frame bytes.Buffer
		w, err := NewWriter(&frame, WithTypeSize(8), WithConcurrency(conc))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Write(src); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("write/concurrency%d", conc), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				frame.Reset()
				w.Reset(&frame)
				if _, err := w.Write(src); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The frame read front to back from a plain io.Reader, through
		// Read calls of 64 KiB (what io.Copy does without WriteTo).
		b.Run(fmt.Sprintf("read-sequential-64k/concurrency%d", conc), func(b *testing.B) {
			r, err := NewReader(struct{ io.Reader }{bytes.NewReader(frame.Bytes())}, WithReaderConcurrency(conc))
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			buf := make([]byte, 64<<10)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if err := r.Reset(struct{ io.Reader }{bytes.NewReader(frame.Bytes())}); err != nil {
					b.Fatal(err)
				}
				if n, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, struct{ io.Reader }{r}, buf); err != nil || n != int64(len(src)) {
					b.Fatalf("read %d of %d bytes: %v", n, len(src), err)
				}
			}
		})
		b.Run(fmt.Sprintf("read/concurrency%d", conc), func(b *testing.B) {
			r, err := NewReader(bytes.NewReader(frame.Bytes()), WithReaderConcurrency(conc))
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if err := r.Reset(bytes.NewReader(frame.Bytes())); err != nil {
					b.Fatal(err)
				}
				if n, err := io.Copy(io.Discard, r); err != nil || n != int64(len(src)) {
					b.Fatalf("read %d of %d bytes: %v", n, len(src), err)
				}
			}
		})
	}
}

// BenchmarkChecksums compares writing and reading 32 MiB with the
// per-chunk checksums (the default) and without. Each iteration runs both,
// back to back, and the benchmark reports on/off, the speed ratio: on this
// kind of shared machine two separate benchmarks seconds apart differ by
// more than the checksums cost. Two kinds of data: noisy float64
// telemetry that compresses 1.4× (the worst case: the checksummed
// compressed bytes are most of the data) and int64 timestamps that
// compress about 30×. The README quotes the ratios.
func BenchmarkChecksums(b *testing.B) {
	stamps := make([]byte, 32<<20)
	for i := 0; i+8 <= len(stamps); i += 8 {
		binary.LittleEndian.PutUint64(stamps[i:], 1700000000000+uint64(i/8)*1000+uint64(i/8%7))
	}
	// The automatic mode (the default) and C-Blosc2's fixed defaults
	// (BloscLZ 5, shuffle), whose faster decoding makes the CRC a larger
	// share of the time.
	fixed := blosc2.DefaultCParams()
	fixed.TypeSize = 8
	for _, data := range []struct {
		name string
		src  []byte
		opts []WriterOption
	}{
		{"telemetry", telemetry(32<<20, 0), []WriterOption{WithTypeSize(8)}},
		{"telemetry-fixed", telemetry(32<<20, 0), []WriterOption{WithCParams(fixed)}},
		{"timestamps", stamps, []WriterOption{WithTypeSize(8)}},
		{"timestamps-fixed", stamps, []WriterOption{WithCParams(fixed)}},
	} {
		onOff := [][]WriterOption{data.opts, append(slices.Clone(data.opts), WithoutChecksums())}
		var frames [2][]byte // on, off
		for k, opts := range onOff {
			f, err := EncodeAll(data.src, nil, opts...)
			if err != nil {
				b.Fatal(err)
			}
			frames[k] = f
		}
		for _, conc := range []int{1, autoConcurrency()} {
			b.Run(fmt.Sprintf("%s/write/conc%d", data.name, conc), func(b *testing.B) {
				var ws [2]*Writer
				var buf bytes.Buffer
				for k, opts := range onOff {
					w, err := NewWriter(&buf, append(slices.Clone(opts), WithConcurrency(conc))...)
					if err != nil {
						b.Fatal(err)
					}
					ws[k] = w
				}
				pairs(b, len(data.src), func(k int) {
					buf.Reset()
					ws[k].Reset(&buf)
					ws[k].Write(data.src)
					if err := ws[k].Close(); err != nil {
						b.Fatal(err)
					}
				})
			})
			for _, seq := range []bool{false, true} {
				kind := map[bool]string{false: "index", true: "sequential"}[seq]
				b.Run(fmt.Sprintf("%s/read-%s/conc%d", data.name, kind, conc), func(b *testing.B) {
					src := func(k int) io.Reader {
						if seq {
							return struct{ io.Reader }{bytes.NewReader(frames[k])}
						}
						return bytes.NewReader(frames[k])
					}
					var rs [2]*Reader
					for k := range rs {
						r, err := NewReader(src(k), WithReaderConcurrency(conc))
						if err != nil {
							b.Fatal(err)
						}
						defer r.Close()
						rs[k] = r
					}
					pairs(b, len(data.src), func(k int) {
						if err := rs[k].Reset(src(k)); err != nil {
							b.Fatal(err)
						}
						if _, err := io.Copy(io.Discard, rs[k]); err != nil {
							b.Fatal(err)
						}
					})
				})
			}
		}
	}
}

// pairs times run(0) (checksums on) and run(1) (off) back to back in each
// iteration and reports both speeds and their ratio.
func pairs(b *testing.B, n int, run func(k int)) {
	var d [2]time.Duration
	// The order alternates: whichever runs second finds the caches warm
	// and its buffers sized, which favoured "off" by 3-5%.
	for i := 0; b.Loop(); i++ {
		for j := range 2 {
			k := (i + j) % 2
			t0 := time.Now()
			run(k)
			d[k] += time.Since(t0)
		}
	}
	on, off := float64(n)*float64(b.N)/d[0].Seconds()/1e6, float64(n)*float64(b.N)/d[1].Seconds()/1e6
	b.ReportMetric(on, "on-MB/s")
	b.ReportMetric(off, "off-MB/s")
	b.ReportMetric(on/off, "on/off")
}
