package codec

import (
	"fmt"
	"sync"

	"github.com/pierrec/lz4/v4"
)

// lz4Codec is C-Blosc2's LZ4 (id 1): raw LZ4 blocks, no frame. Compression
// is our port of the reference LZ4_compress_fast (lz4_encode.go) with
// acceleration 10-clevel, as C-Blosc2 does, so the streams are byte for byte
// those of C-Blosc2 built with LZ4 1.10; pierrec/lz4 decodes them. With
// acceleration set ([LZ4Accelerated]) that acceleration replaces
// 10-clevel.
type lz4Codec struct{ acceleration int }

func (c lz4Codec) Compress(dst, src []byte, clevel int, _ uint8, dict []byte) (int, error) {
	accel := 10 - clevel
	if c.acceleration != 0 {
		accel = c.acceleration
	}
	// 0 (does not fit) makes the caller store the stream raw.
	if dict != nil {
		return lz4CompressDict(dst, src, dict, accel), nil
	}
	return lz4Compress(dst, src, accel), nil
}

// MaxLZ4Acceleration is the largest acceleration [LZ4Accelerated] takes:
// lz4.c's LZ4_ACCELERATION_MAX, above which its searches step no faster.
const MaxLZ4Acceleration = lz4AccelMax

// LZ4Accelerated returns LZ4 (the codec [Lookup](LZ4) returns)
// compressing with the given acceleration whatever the clevel, instead of
// C-Blosc2's 10-clevel (1 to 9); as in lz4.c, values below 1 mean 1 and
// values above [MaxLZ4Acceleration] mean that. The acceleration is how
// fast LZ4's search steps ahead over input where it finds no match: above
// 9, on data it can barely compress, it stores the input nearly as it is
// at several times the speed, as S2 and zstd give up on such data. The
// blocks are LZ4's either way, which C-Blosc2 decodes: the acceleration
// is the encoder's alone, recorded nowhere.
func LZ4Accelerated(acceleration int) Codec {
	return lz4Codec{acceleration: lz4Acceleration(acceleration)}
}

func (lz4Codec) Decompress(dst, src []byte, _ uint8, dict []byte) (int, error) {
	return lz4Decompress(dst, src, dict)
}

func lz4Decompress(dst, src, dict []byte) (int, error) {
	var n int
	var err error
	if len(dict) > 0 {
		n, err = lz4.UncompressBlockWithDict(src, dst, dict)
	} else {
		n, err = lz4.UncompressBlock(src, dst)
	}
	if err != nil {
		return 0, fmt.Errorf("%w: lz4: %v", ErrCorrupt, err)
	}
	if n != len(dst) {
		return n, fmt.Errorf("%w: lz4 stream decodes to %d bytes, want %d", ErrCorrupt, n, len(dst))
	}
	return n, nil
}

// lz4hcCodec is LZ4HC (id 2): the same block format as LZ4, compressed with
// the high-compression search at depth clevel.
type lz4hcCodec struct{}

var lz4hcPool = sync.Pool{New: func() any { return new(lz4.CompressorHC) }}

// lz4hcLevels maps clevel to pierrec's search depth (match candidates tried
// per position). Reference LZ4HC tries 2 at levels 1-2, doubling up to 256
// at level 9, with a better match finder; four times those depths give
// about its ratio (within 2-5% on ../shared/data) at about its speed.
// pierrec's own Level constants are depths of 512 and up: on shuffled
// floats they ran a hundred times slower than C-Blosc2 for 4% more ratio.
var lz4hcLevels = [...]lz4.CompressionLevel{8, 8, 8, 16, 32, 64, 128, 256, 512, 1024}

func (lz4hcCodec) Compress(dst, src []byte, clevel int, _ uint8, _ []byte) (int, error) {
	c := lz4hcPool.Get().(*lz4.CompressorHC)
	defer lz4hcPool.Put(c)
	c.Level = lz4hcLevels[min(max(clevel, 0), 9)]
	n, err := c.CompressBlock(src, dst)
	if err != nil || n <= 0 || n > len(dst) {
		return 0, nil
	}
	return n, nil
}

func (lz4hcCodec) Decompress(dst, src []byte, _ uint8, dict []byte) (int, error) {
	return lz4Decompress(dst, src, dict)
}
