package codec

import (
	"os"
	"testing"
)

func BenchmarkTmpFile(b *testing.B) {
	fn := os.Getenv("BLZFILE")
	data, _ := os.ReadFile(fn)
	B := 256 << 10
	cl := 9
	if os.Getenv("BLZCL") != "" {
		cl = int(os.Getenv("BLZCL")[0] - '0')
	}
	dst := make([]byte, B)
	var comp [][]byte
	for k := 0; k+B <= len(data); k += B {
		n, _ := blosclzCodec{}.Compress(dst, data[k:k+B], cl, 0, nil)
		if n > 0 {
			comp = append(comp, append([]byte(nil), dst[:n]...))
		}
	}
	b.Run("compress", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for k := 0; k+B <= len(data); k += B {
				blosclzCodec{}.Compress(dst, data[k:k+B], cl, 0, nil)
			}
		}
	})
	b.Run("decompress", func(b *testing.B) {
		b.SetBytes(int64(len(comp) * B))
		for b.Loop() {
			for _, c := range comp {
				blosclzCodec{}.Decompress(dst, c, 0, nil)
			}
		}
	})
}
