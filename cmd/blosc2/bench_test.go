package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2/framereader"
)

// TestBenchCmd runs the main job on the embedded sample and on a file: the
// data must come back intact through both the stream and the chunk API,
// and the reported frame size must be what 'compress' writes with the same
// parameters.
func TestBenchCmd(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, input(300000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		file bool
	}{
		{"embedded", []string{"--reps", "2", "--chunksize", "1000000"}, false},
		{"file-zstd", []string{"--reps", "1", "--codec", "zstd", "--typesize", "1", "--chunksize", "65536", "--threads", "1"}, true},
		{"file-bitshuffle", []string{"--reps", "1", "--filter", "bitshuffle", "--typesize", "4", "--chunksize", "100000"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"bench"}, tc.args...)
			if tc.file {
				args = append(args, in)
			}
			out, e, err := runCmd(t, nil, args...)
			if err != nil {
				t.Fatalf("%v: %s", err, e)
			}
			var res benchResult
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v: %q", err, out)
			}
			if !res.RoundTrip {
				t.Fatalf("round trip failed: %s", out)
			}
			if want := (res.Nbytes + res.Chunksize - 1) / res.Chunksize; res.Nchunks != want {
				t.Errorf("nchunks %d, want %d", res.Nchunks, want)
			}
			for name, v := range map[string]float64{
				"comp": res.CompBest, "encodeall": res.MemCompBest, "decomp": res.DecBest, "decodeall": res.MemDecBest, "chunk comp": res.ChunkCompBest, "chunk decomp": res.ChunkDecBest,
			} {
				if !(v > 0) {
					t.Errorf("%s MB/s = %v", name, v)
				}
			}
			if res.CompMedian > res.CompBest || res.MemCompMedian > res.MemCompBest || res.MemDecMedian > res.MemDecBest || res.ChunkDecMedian > res.ChunkDecBest {
				t.Errorf("a median above the best: %s", out)
			}
			if !tc.file {
				if res.Nbytes != 8<<20 || res.Ratio <= 1 {
					t.Errorf("embedded sample: %d bytes, ratio %v", res.Nbytes, res.Ratio)
				}
				return
			}
			// The same frame through 'compress' (to a file).
			cargs := append([]string{"compress", "-k", "-o", filepath.Join(dir, tc.name+".b2frame")}, tc.args[2:]...)
			if _, e, err := runCmd(t, nil, append(cargs, in)...); err != nil {
				t.Fatalf("%v: %s", err, e)
			}
			fi, err := os.Stat(filepath.Join(dir, tc.name+".b2frame"))
			if err != nil {
				t.Fatal(err)
			}
			if int(fi.Size()) != res.Cbytes {
				t.Errorf("bench frame %d bytes, compress wrote %d", res.Cbytes, fi.Size())
			}
			// Its chunks alone are what bench counts as chunks_cbytes.
			fr, err := framereader.Open(filepath.Join(dir, tc.name+".b2frame"))
			if err != nil {
				t.Fatal(err)
			}
			defer fr.Close()
			chunks := 0
			for i := range fr.NumChunks() {
				ci, err := fr.ChunkInfo(i)
				if err != nil {
					t.Fatal(err)
				}
				chunks += ci.Cbytes
			}
			if chunks != res.ChunksCbytes || chunks >= res.Cbytes {
				t.Errorf("bench chunks_cbytes %d, the frame's chunks %d of %d bytes", res.ChunksCbytes, chunks, res.Cbytes)
			}
		})
	}
}
