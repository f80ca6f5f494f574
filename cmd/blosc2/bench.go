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
// testdata/data).
//
//go:embed sample.u16.bin
var sample []byte

// sampleTypeSize is the element size of sample.
const sampleTypeSize = 2

type benchResult struct {
	File string `json:"file"`
	// Tier is the automatic mode's tier ("" when off): the codec, level,
	// typesize and filters then are the frame header's, each chunk's
	// own are chosen per chunk.
	Tier      string  `json:"tier,omitempty"`
	Codec     string  `json:"codec"`
	Clevel    int     `json:"clevel"`
	Typesize  int     `json:"typesize"`
	Filters   string  `json:"filters"`
	Splitmode string  `json:"splitmode"`
	Blocksize int     `json:"blocksize"`
	Nthreads  int     `json:"nthreads"`
	Chunksize int     `json:"chunksize"`
	Nchunks   int     `json:"nchunks"`
	Nbytes    int     `json:"nbytes"`
	Cbytes    int     `json:"cbytes"`
	Ratio     float64 `json:"ratio"`
	// ChunksCbytes is the chunks' bytes alone, the frame without its
	// header, index, trailer and checksums: what C-Blosc2 counts as a
	// super-chunk's cbytes.
	ChunksCbytes int     `json:"chunks_cbytes"`
	Reps         int     `json:"reps"`
	CompBest     float64 `json:"comp_MBps_best"`
	CompMedian   float64 `json:"comp_MBps_median"`
	// stream.EncodeAll on the same input in memory: every chunk
	// compressed where it lies, as C-Blosc2 compresses a buffer into an
	// in-memory super-chunk, where the Writer above copies what a Write
	// leaves short of a chunk into its buffer.
	MemCompBest   float64 `json:"encodeall_MBps_best"`
	MemCompMedian float64 `json:"encodeall_MBps_median"`
	DecBest       float64 `json:"decomp_MBps_best"`
	DecMedian     float64 `json:"decomp_MBps_median"`
	// stream.DecodeAll on the same frame in memory: the chunks decoded
	// where they lie straight into the output, as C-Blosc2 decodes an
	// in-memory super-chunk, where the Reader above copies each chunk in
	// from its io.Reader and out to its io.Writer.
	MemDecBest   float64 `json:"decodeall_MBps_best"`
	MemDecMedian float64 `json:"decodeall_MBps_median"`
	// The chunk API alone (blosc2.Compress, blosc2.DecompressTo) on the
	// same chunks in memory: what C-Blosc2's blosc2_compress_ctx and
	// blosc2_decompress_ctx are timed on, without the stream's copies in
	// and out of its buffers and the frame around the chunks.
	ChunkCompBest   float64 `json:"chunk_comp_MBps_best"`
	ChunkCompMedian float64 `json:"chunk_comp_MBps_median"`
	ChunkDecBest    float64 `json:"chunk_decomp_MBps_best"`
	ChunkDecMedian  float64 `json:"chunk_decomp_MBps_median"`
	RoundTrip       bool    `json:"roundtrip_ok"`
}

func cmdBench(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cf cflags
	cf.register(fs)
	reps := fs.Int("reps", 5, "timed repetitions, after one untimed warm-up")
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
	a, err := cf.auto(true)
	if err != nil {
		return err
	}
	res, err := bench(src, &p, a, *chunksize, *reps)
	if err != nil {
		return err
	}
	res.File = name
	res.Splitmode = cf.splitmode
	res.Filters = cf.filters.String()
	if res.Filters == "" {
		res.Filters = "shuffle"
		if a != nil {
			res.Filters = "auto"
		}
	}
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", line)
	return err
}

// bench compresses src into a frame in memory with the stream package
// and decompresses it back, reps times after a warm-up, with the parameters p or, when a
// is not nil, in the automatic mode a.
func bench(src []byte, p *blosc2.CParams, a *blosc2.Auto, chunksize, reps int) (*benchResult, error) {
	res := &benchResult{
		Codec: codec.Name(p.Codec), Clevel: p.Level, Typesize: p.TypeSize,
		Blocksize: p.BlockSize, Nthreads: p.Concurrency, Chunksize: chunksize,
		Nchunks: (len(src) + chunksize - 1) / chunksize, Nbytes: len(src), Reps: reps,
	}
	wopts := []stream.WriterOption{stream.WithCParams(*p), stream.WithChunkSize(chunksize)}
	if a != nil {
		wopts = append(wopts, stream.WithAuto(*a))
		res.Tier = a.Tier.String()
		fp := a.FrameCParams()
		res.Codec, res.Clevel = "auto: "+codec.Name(fp.Codec), fp.Level
	}
	var frame bytes.Buffer
	frame.Grow(len(src) + len(src)/16 + 4096)
	out := bytes.NewBuffer(make([]byte, 0, len(src)))
	// One Writer and one Reader, Reset between repetitions, so that
	// buffers are reused as in a long stream. Each operation's
	// repetitions run back to back, as C-Blosc2's are timed (b2c bench):
	// each finds the caches as the one before it left them, not as the
	// other operations did. One more round of each than timed: the first
	// finds every buffer fresh (page faults, a heap the collector has not
	// sized yet) and ran at half the speed of the others; it is dropped
	// below.
	w, err := stream.NewWriter(&frame, wopts...)
	if err != nil {
		return nil, err
	}
	var ctimes, dtimes, mtimes []float64
	for range reps + 1 {
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
	}
	res.Cbytes = frame.Len()
	// EncodeAll writes the frame the Writer writes to a seekable
	// destination, into a buffer grown once; WithCParams sets its
	// goroutines as the Writer's.
	ftimes := make([]float64, 0, reps+1)
	encoded := make([]byte, 0, frame.Len()+4096)
	for range reps + 1 {
		t0 := time.Now()
		if encoded, err = stream.EncodeAll(src, encoded[:0], wopts...); err != nil {
			return nil, err
		}
		ftimes = append(ftimes, time.Since(t0).Seconds())
	}
	var r *stream.Reader
	for range reps + 1 {
		out.Reset()
		t0 := time.Now()
		if r == nil {
			if r, err = stream.NewReader(bytes.NewReader(frame.Bytes()), stream.WithReaderConcurrency(p.Concurrency)); err != nil {
				return nil, err
			}
		} else if err := r.Reset(bytes.NewReader(frame.Bytes())); err != nil {
			return nil, err
		}
		if _, err = r.WriteTo(out); err != nil {
			return nil, err
		}
		dtimes = append(dtimes, time.Since(t0).Seconds())
	}
	r.Close()
	var mem []byte
	for range reps + 1 {
		t0 := time.Now()
		if mem, err = stream.DecodeAll(frame.Bytes(), mem[:0], stream.WithReaderConcurrency(p.Concurrency), stream.WithMaxMemory(max(len(src), stream.DefaultMaxMemory))); err != nil {
			return nil, err
		}
		mtimes = append(mtimes, time.Since(t0).Seconds())
	}
	ctimes, dtimes, mtimes, ftimes = ctimes[1:], dtimes[1:], mtimes[1:], ftimes[1:]
	decoded, err := stream.DecodeAll(encoded, nil, stream.WithMaxMemory(max(len(src), stream.DefaultMaxMemory)))
	if err != nil {
		return nil, err
	}
	res.RoundTrip = bytes.Equal(out.Bytes(), src) && bytes.Equal(mem, src) && bytes.Equal(decoded, src)
	if res.Cbytes > 0 {
		res.Ratio = round(float64(res.Nbytes)/float64(res.Cbytes), 3)
	}
	res.CompBest, res.CompMedian = throughput(len(src), ctimes)
	res.MemCompBest, res.MemCompMedian = throughput(len(src), ftimes)
	res.DecBest, res.DecMedian = throughput(len(src), dtimes)
	res.MemDecBest, res.MemDecMedian = throughput(len(src), mtimes)

	compress := func(dst, src []byte) ([]byte, error) { return blosc2.Compress(dst, src, p) }
	if a != nil {
		compress = func(dst, src []byte) ([]byte, error) {
			out, _, err := blosc2.CompressAuto(dst, src, a)
			return out, err
		}
	}
	ctimes, dtimes, cbytes, ok, err := benchChunks(src, compress, p.Concurrency, chunksize, reps)
	if err != nil {
		return nil, err
	}
	res.RoundTrip = res.RoundTrip && ok
	res.ChunksCbytes = cbytes
	res.ChunkCompBest, res.ChunkCompMedian = throughput(len(src), ctimes)
	res.ChunkDecBest, res.ChunkDecMedian = throughput(len(src), dtimes)
	return res, nil
}

// benchChunks times the chunk API over src cut into chunks, reps times after a warm-up:
// every chunk compressed into a buffer allocated beforehand, then every
// chunk decompressed into its place in one output buffer. It reports the
// seconds of each repetition, the chunks' total size and whether the
// output equals src.
func benchChunks(src []byte, compress func(dst, src []byte) ([]byte, error), threads, chunksize, reps int) (ctimes, dtimes []float64, cbytes int, ok bool, err error) {
	n := (len(src) + chunksize - 1) / chunksize
	chunks := make([][]byte, n)
	for i := range chunks {
		chunks[i] = make([]byte, 0, min(chunksize, len(src)-i*chunksize)+blosc2.MaxOverhead)
	}
	out := make([]byte, len(src))
	dp := blosc2.DParams{Concurrency: threads}
	for range reps + 1 { // the first is a warm-up, as in bench

		t0 := time.Now()
		for i := range chunks {
			in := src[i*chunksize : min(len(src), (i+1)*chunksize)]
			if chunks[i], err = compress(chunks[i][:0], in); err != nil {
				return nil, nil, 0, false, err
			}
		}
		ctimes = append(ctimes, time.Since(t0).Seconds())
		clear(out)
		t0 = time.Now()
		for i, c := range chunks {
			if _, err := blosc2.DecompressTo(out[i*chunksize:], c, &dp); err != nil {
				return nil, nil, 0, false, err
			}
		}
		dtimes = append(dtimes, time.Since(t0).Seconds())
	}
	for _, c := range chunks {
		cbytes += len(c)
	}
	return ctimes[1:], dtimes[1:], cbytes, bytes.Equal(out, src), nil
}

// throughput returns the best and the median MB/s of moving n bytes in
// each of the given times (seconds); times is sorted in place.
func throughput(n int, times []float64) (best, median float64) {
	slices.Sort(times)
	mbps := func(sec float64) float64 { return round(float64(n)/1e6/sec, 1) }
	return mbps(times[0]), mbps(times[len(times)/2])
}

func round(x float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	return float64(int64(x*p+0.5)) / p
}
