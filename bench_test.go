package blosc2

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// benchFiles are the data sets of the benchmarks: from ../shared/data when
// it is beside the module, else the small copies in testdata/data.
func benchFiles(b *testing.B) map[string][]byte {
	dir := testvec.SharedData()
	names := []string{"era5_t2m_uk_2019-03.f32.bin", "nab_aws_cloudwatch.value.f64.bin", "timgm6mb_samples.i16.bin", "loghub_2k_12sources.log",
		"egm96_15_geoid.f32.bin", "ett_h1.f64.bin"}
	if dir == "" {
		dir = testvec.DataDir()
		names = []string{"rainfall_grid_150x150.f32.bin", "nab_nyc_taxi.value.f64.bin", "ecg_mitbih_208.u16.bin"}
	}
	out := map[string][]byte{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			b.Fatal(err)
		}
		// One chunk of at most 4 MiB, the default chunk size of the stream.
		out[n] = data[:min(len(data), 4<<20)]
	}
	return out
}

var benchPipelines = []struct {
	name    string
	filters [MaxFilters]Filter
}{
	{"shuffle", Pipeline(Filter{ID: Shuffle})},
	{"bitshuffle", Pipeline(Filter{ID: BitShuffle})},
	{"nofilter", [MaxFilters]Filter{}},
}

// BenchmarkCompress reports MB/s of one-chunk compression per data set,
// codec and filter, at clevel 5, single-threaded like C-Blosc2's nthreads=1.
func BenchmarkCompress(b *testing.B) {
	for name, src := range benchFiles(b) {
		for _, c := range []codec.ID{BloscLZ, LZ4, LZ4HC, Zlib, Zstd} {
			for _, pl := range benchPipelines {
				p := CParams{Codec: c, Level: 5, TypeSize: typesizeOf(name), Filters: pl.filters, Concurrency: 1}
				b.Run(fmt.Sprintf("%s/%s/%s", name, codec.Name(c), pl.name), func(b *testing.B) {
					dst := make([]byte, 0, len(src)+MaxOverhead)
					b.SetBytes(int64(len(src)))
					b.ReportAllocs()
					var n int
					for b.Loop() {
						out, err := Compress(dst[:0], src, &p)
						if err != nil {
							b.Fatal(err)
						}
						n = len(out)
					}
					b.ReportMetric(float64(len(src))/float64(n), "ratio")
				})
			}
		}
	}
}

// BenchmarkDecompress reports MB/s of one-chunk decompression.
func BenchmarkDecompress(b *testing.B) {
	for name, src := range benchFiles(b) {
		for _, c := range []codec.ID{BloscLZ, LZ4, LZ4HC, Zlib, Zstd} {
			for _, pl := range benchPipelines {
				p := CParams{Codec: c, Level: 5, TypeSize: typesizeOf(name), Filters: pl.filters, Concurrency: 1}
				chunk, err := Compress(nil, src, &p)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("%s/%s/%s", name, codec.Name(c), pl.name), func(b *testing.B) {
					out := make([]byte, len(src))
					b.SetBytes(int64(len(src)))
					b.ReportAllocs()
					for b.Loop() {
						if _, err := DecompressTo(out, chunk, nil); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkThreads shows block parallelism on one 4 MiB chunk.
func BenchmarkThreads(b *testing.B) {
	var src []byte
	for _, s := range benchFiles(b) {
		if len(s) > len(src) {
			src = s
		}
	}
	for _, threads := range []int{1, 2, 4} {
		p := CParams{Codec: LZ4, Level: 5, TypeSize: 4, Filters: Pipeline(Filter{ID: Shuffle}), Concurrency: threads}
		chunk, _ := Compress(nil, src, &p)
		b.Run(fmt.Sprintf("compress/lz4/threads%d", threads), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			dst := make([]byte, 0, len(src)+MaxOverhead)
			for b.Loop() {
				if _, err := Compress(dst[:0], src, &p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("decompress/lz4/threads%d", threads), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			out := make([]byte, len(src))
			for b.Loop() {
				if _, err := DecompressTo(out, chunk, &DParams{Concurrency: threads}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAuto reports MB/s of CompressAuto per data set and tier,
// single-threaded, with the share of its time the probe takes
// ("probe-%": ChooseCParams against Compress with the chosen parameters,
// timed in the same loop) and the ratio.
func BenchmarkAuto(b *testing.B) {
	for name, src := range benchFiles(b) {
		for _, tier := range []Tier{TierFastest, TierDefault, TierBetter, TierBest} {
			b.Run(fmt.Sprintf("%s/%v", name, tier), func(b *testing.B) {
				a := DefaultAuto(tier)
				a.Base.Concurrency = 1
				dst := make([]byte, 0, len(src)+MaxOverhead)
				b.SetBytes(int64(len(src)))
				var probe, comp time.Duration
				var n int
				for b.Loop() {
					t0 := time.Now()
					p, err := ChooseCParams(src, &a)
					if err != nil {
						b.Fatal(err)
					}
					t1 := time.Now()
					out, err := Compress(dst[:0], src, &p)
					if err != nil {
						b.Fatal(err)
					}
					probe, comp = probe+t1.Sub(t0), comp+time.Since(t1)
					n = len(out)
				}
				b.ReportMetric(100*probe.Seconds()/comp.Seconds(), "probe-%")
				b.ReportMetric(float64(len(src))/float64(n), "ratio")
			})
		}
	}
}
