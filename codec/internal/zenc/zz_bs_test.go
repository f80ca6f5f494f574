package zenc

import (
	"os"
	"strconv"
	"testing"
)

func BenchmarkZZFile(b *testing.B) {
	src, err := os.ReadFile(os.Getenv("ZZFILE"))
	if err != nil {
		b.Skip(err)
	}
	bs, _ := strconv.Atoi(os.Getenv("ZZBS"))
	lvl, _ := strconv.Atoi(os.Getenv("ZZL"))
	var e Encoder
	dst := make([]byte, 0, 2*bs+1024)
	b.SetBytes(int64(len(src)))
	out := 0
	for b.Loop() {
		out = 0
		for off := 0; off < len(src); off += bs {
			f, err := e.EncodeAll(dst[:0], src[off:min(off+bs, len(src))], lvl)
			if err != nil {
				b.Fatal(err)
			}
			out += len(f)
		}
	}
	b.ReportMetric(float64(out), "bytes")
}

func BenchmarkZZHuff(b *testing.B) {
	src, err := os.ReadFile("/tmp/vals_bs.bin")
	if err != nil {
		b.Skip(err)
	}
	var h huffCoder
	blocks := [][]byte{}
	for off := 0; off+32<<10 <= len(src); off += 32 << 10 {
		blocks = append(blocks, src[off:off+32<<10])
	}
	b.SetBytes(int64(len(blocks) * 32 << 10))
	for b.Loop() {
		for _, l := range blocks {
			h.compress(l, false)
		}
	}
}

func BenchmarkZZBuild(b *testing.B) {
	src, err := os.ReadFile("/tmp/vals_bs.bin")
	if err != nil {
		b.Skip(err)
	}
	var hs []*huffCoder
	for off := 0; off+32<<10 <= len(src); off += 32 << 10 {
		h := new(huffCoder)
		for _, c := range src[off : off+32<<10] {
			h.count[c]++
		}
		hs = append(hs, h)
	}
	for b.Loop() {
		for _, h := range hs {
			h.build(255, 11)
		}
	}
}
