package codec_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
)

// rle is a toy run-length codec: each run of up to 255 equal bytes becomes
// a count and the byte.
type rle struct{}

func (rle) Compress(dst, src []byte, clevel int, meta uint8, dict []byte) (int, error) {
	n := 0
	for i := 0; i < len(src); {
		j := i + 1
		for j < len(src) && j-i < 255 && src[j] == src[i] {
			j++
		}
		if n+2 > len(dst) {
			return 0, nil // does not fit: the chunk stores the stream raw
		}
		dst[n], dst[n+1] = byte(j-i), src[i]
		n, i = n+2, j
	}
	return n, nil
}

func (rle) Decompress(dst, src []byte, meta uint8, dict []byte) (int, error) {
	n := 0
	for i := 0; i+1 < len(src); i += 2 {
		run := int(src[i])
		if run == 0 || n+run > len(dst) {
			return n, fmt.Errorf("%w: rle run of %d at %d", codec.ErrCorrupt, run, n)
		}
		n += copy(dst[n:n+run], bytes.Repeat(src[i+1:i+2], run))
	}
	return n, nil
}

// Register a codec of one's own under a user id (160-255) and compress
// with it: the chunk names the codec by its id, so a reader needs the same
// registration (as C-Blosc2's blosc2_register_codec).
func ExampleRegister() {
	const id codec.ID = 244
	if err := codec.Register(id, "rle", rle{}); err != nil {
		log.Fatal(err)
	}
	src := bytes.Repeat([]byte("aaaaaaaabbbbbbbb"), 512)
	chunk, err := blosc2.Compress(nil, src, &blosc2.CParams{Codec: id, Level: 5, TypeSize: 1})
	if err != nil {
		log.Fatal(err)
	}
	h, _ := blosc2.ParseHeader(chunk)
	back, err := blosc2.Decompress(nil, chunk, nil)
	fmt.Println(codec.Name(h.Codec), len(src), "->", len(chunk), bytes.Equal(back, src), err)
	// Output: rle 8192 -> 2088 true <nil>
}
