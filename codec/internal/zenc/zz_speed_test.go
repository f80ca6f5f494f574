package zenc

import (
	"os"
	"path/filepath"
	"testing"
)

func BenchmarkZZDir(b *testing.B) {
	for _, d := range []string{"era1", "lg3"} {
		files, _ := filepath.Glob(filepath.Join("/tmp/zan", d, "b????"))
		var blocks [][]byte
		size := 0
		for _, f := range files {
			x, _ := os.ReadFile(f)
			blocks = append(blocks, x)
			size += len(x)
		}
		b.Run(d, func(b *testing.B) {
			var e Encoder
			dst := make([]byte, 0, 1<<20)
			b.SetBytes(int64(size))
			out := 0
			for b.Loop() {
				out = 0
				for _, blk := range blocks {
					f, _ := e.EncodeAll(dst[:0], blk, 1)
					out += len(f)
				}
			}
			b.ReportMetric(float64(out), "bytes")
		})
	}
}
