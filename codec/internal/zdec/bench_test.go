package zdec

import (
	"testing"

	"github.com/klauspost/compress/zstd"
)

func BenchmarkDecode(b *testing.B) {
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderCRC(false), zstd.WithAllLitEntropyCompression(true))
	kd, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	all := inputs()
	for _, name := range []string{"stamps", "text", "noise", "mixed"} {
		in := all[name][:200000]
		// Blosc-sized streams: 64 KiB.
		var frames [][]byte
		for off := 0; off < len(in); off += 64 << 10 {
			frames = append(frames, enc.EncodeAll(in[off:min(len(in), off+64<<10)], nil))
		}
		out := make([]byte, 64<<10)
		b.Run(name+"/zdec", func(b *testing.B) {
			var d Decoder
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				off := 0
				for _, f := range frames {
					n := min(len(in)-off, 64<<10)
					if err := d.DecodeAll(out[:n], f); err != nil {
						b.Fatal(err)
					}
					off += n
				}
			}
		})
		b.Run(name+"/klauspost", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				for _, f := range frames {
					if _, err := kd.DecodeAll(f, out[:0]); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
