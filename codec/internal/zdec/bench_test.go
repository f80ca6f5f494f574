package zdec

import (
	"testing"

	"github.com/blosc2go/blosc2/codec/internal/zfmt"

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

// BenchmarkBuild times the FSE table builds of a sequences section: the
// three kinds at their largest logs, with counts of every size and
// without, then with, "less than 1" symbols.
func BenchmarkBuild(b *testing.B) {
	var norms [3][]int16
	for k := range 3 {
		size := 1 << zfmt.MaxLog[k]
		n := zfmt.MaxSymbol[k] + 1
		norm := make([]int16, n)
		left := size
		for i := range norm {
			c := min(left, max(1, size>>(i%7+1)))
			norm[i] = int16(c)
			left -= c
		}
		norm[0] += int16(left)
		norms[k] = norm
	}
	b.Run("spread", func(b *testing.B) {
		var t fseTable
		for b.Loop() {
			for k := range 3 {
				if err := t.build(k, norms[k], zfmt.MaxLog[k]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("lowprob", func(b *testing.B) {
		var t fseTable
		for b.Loop() {
			for k := range 3 {
				if err := t.build(k, zfmt.DefaultNorm[k], zfmt.DefaultLog[k]); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
