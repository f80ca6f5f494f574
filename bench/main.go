// Command bench compares the stream package with other Go streaming
// compressors (klauspost zstd and s2, pgzip, pierrec lz4) on real data:
// compression ratio and MB/s both ways, best of N runs, all at their
// default concurrency. It prints a Markdown table.
//
//	cd bench && go run . -data ../../shared/data -reps 3
//
// It is a module of its own so that the peers stay out of the library's
// dependencies.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/stream"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/klauspost/pgzip"
	"github.com/pierrec/lz4/v4"
)

type contender struct {
	name string
	enc  func(w io.Writer, typesize int) (io.WriteCloser, error)
	dec  func(r io.Reader) (io.Reader, func(), error)
}

func blosc2Contender(name string, c codec.ID, level int, f blosc2.FilterID) contender {
	return contender{
		name: name,
		enc: func(w io.Writer, ts int) (io.WriteCloser, error) {
			return stream.NewWriter(w, stream.WithCodec(c), stream.WithLevel(level), stream.WithTypeSize(ts),
				stream.WithFilters(blosc2.Filter{ID: f}))
		},
		dec: func(r io.Reader) (io.Reader, func(), error) {
			zr, err := stream.NewReader(r)
			if err != nil {
				return nil, nil, err
			}
			return zr, func() { zr.Close() }, nil
		},
	}
}

var contenders = []contender{
	blosc2Contender("blosc2 lz4 5 shuffle", codec.LZ4, 5, blosc2.Shuffle),
	blosc2Contender("blosc2 blosclz 5 shuffle", codec.BloscLZ, 5, blosc2.Shuffle),
	blosc2Contender("blosc2 zstd 3 bitshuffle", codec.Zstd, 3, blosc2.BitShuffle),
	blosc2Contender("blosc2 zstd 3 shuffle", codec.Zstd, 3, blosc2.Shuffle),
	{
		name: "klauspost zstd default",
		enc: func(w io.Writer, _ int) (io.WriteCloser, error) {
			return zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedDefault))
		},
		dec: func(r io.Reader) (io.Reader, func(), error) {
			d, err := zstd.NewReader(r)
			if err != nil {
				return nil, nil, err
			}
			return d, d.Close, nil
		},
	},
	{
		name: "klauspost zstd fastest",
		enc: func(w io.Writer, _ int) (io.WriteCloser, error) {
			return zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedFastest))
		},
		dec: func(r io.Reader) (io.Reader, func(), error) {
			d, err := zstd.NewReader(r)
			if err != nil {
				return nil, nil, err
			}
			return d, d.Close, nil
		},
	},
	{
		name: "klauspost s2",
		enc:  func(w io.Writer, _ int) (io.WriteCloser, error) { return s2.NewWriter(w), nil },
		dec:  func(r io.Reader) (io.Reader, func(), error) { return s2.NewReader(r), func() {}, nil },
	},
	{
		name: "pgzip 1",
		enc:  func(w io.Writer, _ int) (io.WriteCloser, error) { return pgzip.NewWriterLevel(w, 1) },
		dec: func(r io.Reader) (io.Reader, func(), error) {
			z, err := pgzip.NewReader(r)
			if err != nil {
				return nil, nil, err
			}
			return z, func() { z.Close() }, nil
		},
	},
	{
		name: "pierrec lz4",
		enc: func(w io.Writer, _ int) (io.WriteCloser, error) {
			z := lz4.NewWriter(w)
			return z, z.Apply(lz4.ConcurrencyOption(-1))
		},
		dec: func(r io.Reader) (io.Reader, func(), error) {
			z := lz4.NewReader(r)
			return z, func() {}, z.Apply(lz4.ConcurrencyOption(-1))
		},
	},
}

type dataset struct {
	file     string
	typesize int
	label    string
}

var datasets = []dataset{
	{"era5_t2m_uk_2019-03.f32.bin", 4, "climate grid f32"},
	{"nab_aws_cloudwatch.value.f64.bin", 8, "telemetry values f64"},
	{"nab_aws_cloudwatch.ts.i64.bin", 8, "telemetry timestamps i64"},
	{"timgm6mb_samples.i16.bin", 2, "audio i16"},
	{"loghub_2k_12sources.log", 1, "logs"},
}

func main() {
	dir := flag.String("data", "../../shared/data", "directory of the data sets")
	reps := flag.Int("reps", 3, "repetitions (best is kept)")
	flag.Parse()
	fmt.Println("| data | compressor | ratio | compress MB/s | decompress MB/s |")
	fmt.Println("|---|---|---:|---:|---:|")
	for _, ds := range datasets {
		src, err := os.ReadFile(filepath.Join(*dir, ds.file))
		if err != nil {
			log.Fatal(err)
		}
		for _, c := range contenders {
			ratio, cMBps, dMBps, err := measure(c, src, ds.typesize, *reps)
			if err != nil {
				log.Fatalf("%s on %s: %v", c.name, ds.file, err)
			}
			fmt.Printf("| %s (%.1f MB) | %s | %.2f | %.0f | %.0f |\n", ds.label, float64(len(src))/1e6, c.name, ratio, cMBps, dMBps)
		}
	}
}

func measure(c contender, src []byte, typesize, reps int) (ratio, cMBps, dMBps float64, err error) {
	var ctimes, dtimes []float64
	var frame bytes.Buffer
	for range reps {
		frame.Reset()
		t0 := time.Now()
		w, err := c.enc(&frame, typesize)
		if err != nil {
			return 0, 0, 0, err
		}
		if _, err := w.Write(src); err != nil {
			return 0, 0, 0, err
		}
		if err := w.Close(); err != nil {
			return 0, 0, 0, err
		}
		ctimes = append(ctimes, time.Since(t0).Seconds())

		t0 = time.Now()
		r, done, err := c.dec(bytes.NewReader(frame.Bytes()))
		if err != nil {
			return 0, 0, 0, err
		}
		var out bytes.Buffer
		out.Grow(len(src))
		if _, err := io.Copy(&out, r); err != nil {
			return 0, 0, 0, err
		}
		done()
		dtimes = append(dtimes, time.Since(t0).Seconds())
		if !bytes.Equal(out.Bytes(), src) {
			return 0, 0, 0, fmt.Errorf("round trip differs")
		}
	}
	sort.Float64s(ctimes)
	sort.Float64s(dtimes)
	mb := float64(len(src)) / 1e6
	return float64(len(src)) / float64(frame.Len()), mb / ctimes[0], mb / dtimes[0], nil
}
