package blosc2

import (
	"encoding/binary"
	"fmt"
)

// truncPrec applies TRUNC_PREC (blosc/trunc-prec.c): it clears low mantissa bits
// of IEEE float32 (typesize 4) or float64 (typesize 8) elements, stored
// little-endian. prec > 0 is the number of mantissa bits kept, prec < 0 the
// number removed; valid ranges are [1, 23] and [-22, -1] for float32,
// [1, 52] and [-51, -1] for float64. The len(src)%typesize trailing bytes
// are copied. It is lossy and has no inverse.
func truncPrec(dst, src []byte, typesize int, prec int8) error {
	var mant int
	switch typesize {
	case 4:
		mant = 23
	case 8:
		mant = 52
	default:
		return fmt.Errorf("%w: TRUNC_PREC needs typesize 4 or 8, not %d", ErrInvalidOption, typesize)
	}
	p := int(prec)
	if p == 0 || p > mant || p <= -mant {
		return fmt.Errorf("%w: TRUNC_PREC precision %d outside [1, %d] and [%d, -1] for typesize %d",
			ErrInvalidOption, p, mant, 1-mant, typesize)
	}
	zeroBits := -p // bits to clear
	if p > 0 {
		zeroBits = mant - p
	}
	n := len(src)
	dst = dst[:n]
	i := 0
	if typesize == 4 {
		mask := ^uint32(0) << zeroBits
		for ; i+4 <= n; i += 4 {
			binary.LittleEndian.PutUint32(dst[i:], binary.LittleEndian.Uint32(src[i:])&mask)
		}
	} else {
		mask := ^uint64(0) << zeroBits
		for ; i+8 <= n; i += 8 {
			binary.LittleEndian.PutUint64(dst[i:], binary.LittleEndian.Uint64(src[i:])&mask)
		}
	}
	copy(dst[i:], src[i:]) // C leaves these unwritten; keep the data
	return nil
}
