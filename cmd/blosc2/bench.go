package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/stream"
)

// sample is the input of 'blosc2 bench' when no file is named: an ECG
// recording (MIT-BIH record 208, uint16 samples; see
// testdata/data and ../shared/data/MANIFEST.md).
//
//go:embed sample.u16.bin
var sample []byte

// sampleTypeSize is the element size of sample.
const sampleTypeSize = 2

type benchResult struct {
	File       string  `json:"file"`
	Codec      string  `json:"codec"`
	Clevel     int     `json:"clevel"`
	Typesize   int     `json:"typesize"`
	Filters    string  `json:"filters"`
	Splitmode  string  `json:"splitmode"`
	Blocksize  int     `json:"blocksize"`
	Nthreads   int     `json:"nthreads"`
	Chunksize  int     `json:"chunksize"`
	Nchunks    int     `json:"nchunks"`
	Nbytes     int     `json:"nbytes"`
	Cbytes     int     `json:"cbytes"`
	Ratio      float64 `json:"ratio"`
	Reps       int     `json:"reps"`
	CompBest   float64 `json:"comp_MBps_best"`
	CompMedian float64 `json:"comp_MBps_median"`
	DecBest    float64 `json:"decomp_MBps_best"`
	DecMedian  float64 `json:"decomp_MBps_median"`
	RoundTrip  bool    `json:"roundtrip_ok"`
}

func cmdBench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf cflags
	cf.register(fs)
	reps := fs.Int("reps", 5, "repetitions")
	chunksize := fs.Int("chunksize", stream.DefaultChunkSize, "bytes per chunk")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *reps < 1 || *chunksize < 1 {
		return fmt.Errorf("--reps and --chunksize must be positive")
	}
	name := "(embedded ECG sample, repeated to 8 MiB)"
	var src []byte
	switch len(pos) {
	case 0:
		// Repeat the sample so that timings cover several chunks.
		src = bytes.Repeat(sample, (8<<20)/len(sample)+1)[:8<<20]
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "typesize" })
		if !set {
			cf.typesize = sampleTypeSize
		}
	case 1:
		name = pos[0]
		if src, err = os.ReadFile(name); err != nil {
			return err
		}
	default:
		return fmt.Errorf("bench takes one file, got %d", len(pos))
	}
	p, err := cf.params()
	if err != nil {
		return err
	}
	res, err := bench(src, &p, *chunksize, *reps)
	if err != nil {
		return err
	}
	res.File = name
	res.Splitmode = cf.splitmode
	res.Filters = cf.filters.String()
	if res.Filters == "" {
		res.Filters = "shuffle"
	}
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", line)
	return err
}

// bench compresses src into a frame in memory with the stream package
// and decompresses it back, reps times.
func bench(src []byte, p *blosc2.CParams, chunksize, reps int) (*benchResult, error) {
	res := &benchResult{
		Codec: codec.Name(p.Codec), Clevel: p.Level, Typesize: p.TypeSize,
		Blocksize: p.BlockSize, Nthreads: p.Threads, Chunksize: chunksize,
		Nchunks: (len(src) + chunksize - 1) / chunksize, Nbytes: len(src), Reps: reps,
	}
	wopts := []stream.WriterOption{stream.WithCParams(*p), stream.WithChunkSize(chunksize)}
	var frame bytes.Buffer
	frame.Grow(len(src) + len(src)/16 + 4096)
	out := bytes.NewBuffer(make([]byte, 0, len(src)))
	// One Writer and one Reader, Reset between repetitions, so that
	// buffers are reused as in a long stream.
	w, err := stream.NewWriter(&frame, wopts...)
	if err != nil {
		return nil, err
	}
	var r *stream.Reader
	var ctimes, dtimes []float64
	for range reps {
		frame.Reset()
		w.Reset(&frame)
		t0 := time.Now()
		if _, err := w.Write(src); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
		ctimes = append(ctimes, time.Since(t0).Seconds())
		res.Cbytes = frame.Len()

		out.Reset()
		t0 = time.Now()
		if r == nil {
			if r, err = stream.NewReader(bytes.NewReader(frame.Bytes()), stream.WithReaderConcurrency(p.Threads)); err != nil {
				return nil, err
			}
		} else if err := r.Reset(bytes.NewReader(frame.Bytes())); err != nil {
			return nil, err
		}
		_, err = r.WriteTo(out)
		if err != nil {
			return nil, err
		}
		dtimes = append(dtimes, time.Since(t0).Seconds())
	}
	if r != nil {
		r.Close()
	}
	res.RoundTrip = bytes.Equal(out.Bytes(), src)
	if res.Cbytes > 0 {
		res.Ratio = round(float64(res.Nbytes)/float64(res.Cbytes), 3)
	}
	mbps := func(sec float64) float64 { return round(float64(len(src))/1e6/sec, 1) }
	slices.Sort(ctimes)
	slices.Sort(dtimes)
	res.CompBest, res.CompMedian = mbps(ctimes[0]), mbps(ctimes[len(ctimes)/2])
	res.DecBest, res.DecMedian = mbps(dtimes[0]), mbps(dtimes[len(dtimes)/2])
	return res, nil
}

func round(x float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	return float64(int64(x*p+0.5)) / p
}
