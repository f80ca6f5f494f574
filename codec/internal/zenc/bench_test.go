package zenc

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// benchInputs are files of the shared data set when it is beside the
// repository (else the copies in testdata), shuffled where C-Blosc2
// would shuffle them, cut into C-Blosc2's 128 KiB blocks.
func benchInputs(b *testing.B) map[string][][]byte {
	m := map[string][][]byte{}
	add := func(name, file string, typesize int) {
		src, err := os.ReadFile(filepath.Join("../../../../shared/data", file))
		if err != nil {
			if src, err = os.ReadFile(filepath.Join("../../../testdata/data", file)); err != nil {
				return
			}
		}
		for off := 0; off < len(src); off += 128 << 10 {
			blk := src[off:min(off+128<<10, len(src))]
			if typesize > 1 && len(blk)%typesize == 0 {
				blk = shuffleBytes(blk, typesize)
			}
			m[name] = append(m[name], blk)
		}
	}
	add("era_shuffled", "era_interim_z.f32.bin", 4)
	add("rainfall_shuffled", "rainfall_grid_150x150.f32.bin", 4)
	add("stamps_shuffled", "nab_nyc_taxi.ts.i64.bin", 8)
	add("logs", "loghub_2k_12sources.log", 1)
	add("values", "nab_nyc_taxi.value.f64.bin", 1)
	return m
}

func shuffleBytes(src []byte, ts int) []byte {
	n := len(src) / ts
	dst := make([]byte, len(src))
	for i := range n {
		for j := range ts {
			dst[j*n+i] = src[i*ts+j]
		}
	}
	return dst
}

// BenchmarkEncode compares this package's levels with the klauspost
// encoder level the codec used for them before, frame by frame:
// name/zstd-level/encoder.
func BenchmarkEncode(b *testing.B) {
	peers := []struct {
		level int
		speed zstd.EncoderLevel
	}{{1, zstd.SpeedFastest}, {3, zstd.SpeedDefault}, {5, zstd.SpeedDefault}, {7, zstd.SpeedBetterCompression}, {9, zstd.SpeedBetterCompression},
		{13, zstd.SpeedBestCompression}, {22, zstd.SpeedBestCompression}}
	for name, blocks := range benchInputs(b) {
		size := 0
		for _, blk := range blocks {
			size += len(blk)
		}
		dst := make([]byte, 0, 256<<10)
		for _, peer := range peers {
			b.Run(fmt.Sprintf("%s/%d/zenc", name, peer.level), func(b *testing.B) {
				var e Encoder
				b.SetBytes(int64(size))
				out := 0
				for b.Loop() {
					out = 0
					for _, blk := range blocks {
						f, err := e.EncodeAll(dst[:0], blk, peer.level)
						if err != nil {
							b.Fatal(err)
						}
						out += len(f)
					}
				}
				b.ReportMetric(float64(size)/float64(out), "ratio")
			})
			b.Run(fmt.Sprintf("%s/%d/klauspost", name, peer.level), func(b *testing.B) {
				enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(peer.speed), zstd.WithAllLitEntropyCompression(true),
					zstd.WithEncoderCRC(false), zstd.WithEncoderConcurrency(1), zstd.WithZeroFrames(true))
				b.SetBytes(int64(size))
				out := 0
				for b.Loop() {
					out = 0
					for _, blk := range blocks {
						out += len(enc.EncodeAll(blk, dst[:0]))
					}
				}
				b.ReportMetric(float64(size)/float64(out), "ratio")
			})
		}
	}
}
