package zfp_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/blosc2go/blosc2/codec/zfp"
)

// A 2-D float64 field kept within 1e-3 of the input in fixed-accuracy
// mode, and the same field at a fixed rate of 8 bits per value.
func Example() {
	const ny, nx = 30, 40
	raw := make([]byte, 8*ny*nx)
	for y := range ny {
		for x := range nx {
			v := math.Sin(float64(x)/7) * math.Cos(float64(y)/5) * 100
			binary.LittleEndian.PutUint64(raw[8*(y*nx+x):], math.Float64bits(v))
		}
	}
	shape := []int{ny, nx} // C order: x varies fastest

	p := zfp.Accuracy(1e-3)
	enc, err := zfp.Encode(nil, raw, zfp.Float64, shape, p)
	if err != nil {
		panic(err)
	}
	dec := make([]byte, len(raw))
	if _, err := zfp.Decode(dec, zfp.Float64, shape, p, enc); err != nil {
		panic(err)
	}
	worst := 0.0
	for i := 0; i < len(raw); i += 8 {
		a := math.Float64frombits(binary.LittleEndian.Uint64(raw[i:]))
		b := math.Float64frombits(binary.LittleEndian.Uint64(dec[i:]))
		worst = max(worst, math.Abs(a-b))
	}
	fmt.Println("accuracy 1e-3 kept:", worst <= 1e-3)

	rate, _ := zfp.Encode(nil, raw, zfp.Float64, shape, zfp.Rate(8, zfp.Float64, 2))
	fmt.Println("rate 8:", len(rate), "bytes for", ny*nx, "values in", 8*10, "blocks of 16")
	// Output:
	// accuracy 1e-3 kept: true
	// rate 8: 1280 bytes for 1200 values in 80 blocks of 16
}
