package stream

import (
	"bytes"
	"fmt"
	"io"
	"testing"
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

// BenchmarkChecksums compares writing and reading 32 MiB of telemetry with
// the per-chunk checksums (the default) and without, side by side: the
// README quotes the ratio.
func BenchmarkChecksums(b *testing.B) {
	src := telemetry(32<<20, 0)
	for _, sums := range []bool{true, false} {
		name := map[bool]string{true: "on", false: "off"}[sums]
		var opts []WriterOption
		if !sums {
			opts = append(opts, WithoutChecksums())
		}
		frame, err := EncodeAll(nil, src, append(opts, WithTypeSize(8))...)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("write/"+name, func(b *testing.B) {
			var buf bytes.Buffer
			w, err := NewWriter(&buf, append(opts, WithTypeSize(8), WithConcurrency(1))...)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				buf.Reset()
				w.Reset(&buf)
				w.Write(src)
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
		for _, seq := range []bool{false, true} {
			b.Run(fmt.Sprintf("read-sequential-%v/%s", seq, name), func(b *testing.B) {
				src := func() io.Reader {
					if seq {
						return struct{ io.Reader }{bytes.NewReader(frame)}
					}
					return bytes.NewReader(frame)
				}
				r, err := NewReader(src(), WithReaderConcurrency(1))
				if err != nil {
					b.Fatal(err)
				}
				defer r.Close()
				b.SetBytes(32 << 20)
				for b.Loop() {
					if err := r.Reset(src()); err != nil {
						b.Fatal(err)
					}
					if _, err := io.Copy(io.Discard, r); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
