package blosc2

import "encoding/binary"

// Portable SHUFFLE and BITSHUFFLE kernels. They are always compiled: they
// are the fallback on architectures without assembly, they finish the tails
// the vector kernels leave, and every test compares the vector kernels with
// them. They work on 64-bit words (byte and bit matrices transposed in
// registers) rather than byte by byte.

// Masks of the three delta-swap stages of an 8x8 byte transpose of eight
// uint64 rows (little-endian: byte c of row r is column c).
const (
	lo32 = 0x00000000ffffffff
	lo16 = 0x0000ffff0000ffff
	lo8  = 0x00ff00ff00ff00ff
)

// transposeBytes8 transposes the 8x8 byte matrix whose row r is x[r]
// (byte c of x[r] is column c): afterwards byte r of x[c] is the old byte c
// of x[r].
func transposeBytes8(x *[8]uint64) {
	x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7] = transpose8x8(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7])
}

// transpose8x8 is transposeBytes8 on scalars, which the compiler keeps in
// registers (it does not for an array). Three stages of delta swaps
// exchange 4x4, 2x2 and 1x1 blocks.
func transpose8x8(x0, x1, x2, x3, x4, x5, x6, x7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	var t uint64
	t = (x0>>32 ^ x4) & lo32
	x4 ^= t
	x0 ^= t << 32
	t = (x1>>32 ^ x5) & lo32
	x5 ^= t
	x1 ^= t << 32
	t = (x2>>32 ^ x6) & lo32
	x6 ^= t
	x2 ^= t << 32
	t = (x3>>32 ^ x7) & lo32
	x7 ^= t
	x3 ^= t << 32

	t = (x0>>16 ^ x2) & lo16
	x2 ^= t
	x0 ^= t << 16
	t = (x1>>16 ^ x3) & lo16
	x3 ^= t
	x1 ^= t << 16
	t = (x4>>16 ^ x6) & lo16
	x6 ^= t
	x4 ^= t << 16
	t = (x5>>16 ^ x7) & lo16
	x7 ^= t
	x5 ^= t << 16

	t = (x0>>8 ^ x1) & lo8
	x1 ^= t
	x0 ^= t << 8
	t = (x2>>8 ^ x3) & lo8
	x3 ^= t
	x2 ^= t << 8
	t = (x4>>8 ^ x5) & lo8
	x5 ^= t
	x4 ^= t << 8
	t = (x6>>8 ^ x7) & lo8
	x7 ^= t
	x6 ^= t << 8
	return x0, x1, x2, x3, x4, x5, x6, x7
}

// transposeBits8 transposes the 8x8 bit matrix held in x, byte r being row
// r and bit c of that byte column c: bit 8r+c moves to 8c+r.
func transposeBits8(x uint64) uint64 {
	t := (x ^ x>>7) & 0x00aa00aa00aa00aa
	x ^= t ^ t<<7
	t = (x ^ x>>14) & 0x0000cccc0000cccc
	x ^= t ^ t<<14
	t = (x ^ x>>28) & 0x00000000f0f0f0f0
	x ^= t ^ t<<28
	return x
}

func load64(b []byte, i int) uint64     { return binary.LittleEndian.Uint64(b[i:]) }
func store64(b []byte, i int, v uint64) { binary.LittleEndian.PutUint64(b[i:], v) }

// shuffleGeneric is the portable shuffle; contract as shuffle.
func shuffleGeneric(dst, src []byte, typesize int) {
	n := len(src)
	dst = dst[:n]
	if typesize <= 1 || n < typesize {
		copy(dst, src)
		return
	}
	e := n / typesize
	body := e * typesize
	shuffleElems(dst, src[:body], typesize, 0, e, e)
	copy(dst[body:], src[body:])
}

// unshuffleGeneric is the portable unshuffle; contract as unshuffle.
func unshuffleGeneric(dst, src []byte, typesize int) {
	n := len(src)
	dst = dst[:n]
	if typesize <= 1 || n < typesize {
		copy(dst, src)
		return
	}
	e := n / typesize
	body := e * typesize
	unshuffleElems(dst[:body], src, typesize, 0, e, e)
	copy(dst[body:], src[body:])
}

// shuffleElems shuffles elements [from, to) of src (width t) into the rows
// of dst: dst[j*e+i] = src[i*t+j]. The vector kernels use it for their tails.
func shuffleElems(dst, src []byte, t, from, to, e int) {
	i := from
	switch t {
	case 2:
		for ; i+8 <= to; i += 8 {
			a, b := load64(src, 2*i), load64(src, 2*i+8)
			store64(dst, i, evenBytes(a)|evenBytes(b)<<32)
			store64(dst, e+i, evenBytes(a>>8)|evenBytes(b>>8)<<32)
		}
	case 4:
		for ; i+8 <= to; i += 8 {
			var x [4]uint64
			for w := range x {
				x[w] = zip4x2(load64(src, 4*i+8*w))
			}
			transpose16x4(&x)
			for j := range x {
				store64(dst, j*e+i, x[j])
			}
		}
	default:
		if t < 8 {
			// Eight-byte loads from an element's start run into the next
			// elements (and must stay inside src); only rows < t are kept.
			for ; i+8 <= to && (i+7)*t+8 <= len(src); i += 8 {
				var x [8]uint64
				for r := range x {
					x[r] = load64(src, (i+r)*t)
				}
				transposeBytes8(&x)
				for j := 0; j < t; j++ {
					store64(dst, j*e+i, x[j])
				}
			}
			break
		}
		// Tiles of 8 elements x 8 columns; when t is not a multiple of 8
		// the last tile overlaps the previous one (same values rewritten).
		for ; i+8 <= to; i += 8 {
			for c := 0; c < t; c += 8 {
				c = min(c, t-8)
				var x [8]uint64
				for r := range x {
					x[r] = load64(src, (i+r)*t+c)
				}
				transposeBytes8(&x)
				for j := range x {
					store64(dst, (c+j)*e+i, x[j])
				}
			}
		}
	}
	for ; i < to; i++ {
		for j := 0; j < t; j++ {
			dst[j*e+i] = src[i*t+j]
		}
	}
}

// unshuffleElems is the inverse of shuffleElems: dst[i*t+j] = src[j*e+i]
// for elements [from, to).
func unshuffleElems(dst, src []byte, t, from, to, e int) {
	i := from
	switch t {
	case 2:
		for ; i+8 <= to; i += 8 {
			a, b := load64(src, i), load64(src, e+i)
			store64(dst, 2*i, spreadBytes(uint32(a))|spreadBytes(uint32(b))<<8)
			store64(dst, 2*i+8, spreadBytes(uint32(a>>32))|spreadBytes(uint32(b>>32))<<8)
		}
	case 4:
		for ; i+8 <= to; i += 8 {
			var x [4]uint64
			for j := range x {
				x[j] = load64(src, j*e+i)
			}
			transpose16x4(&x)
			for w := range x {
				store64(dst, 4*i+8*w, unzip4x2(x[w]))
			}
		}
	default:
		if t < 8 {
			// Each eight-byte store runs into the next element, which the
			// following store (or the tail loop below) rewrites: the last
			// one must stay below element to.
			for ; i+8 <= to && (i+7)*t+8 <= to*t; i += 8 {
				var x [8]uint64
				for j := 0; j < t; j++ {
					x[j] = load64(src, j*e+i)
				}
				transposeBytes8(&x)
				for r := range x {
					store64(dst, (i+r)*t, x[r])
				}
			}
			break
		}
		for ; i+8 <= to; i += 8 {
			for c := 0; c < t; c += 8 {
				c = min(c, t-8)
				var x [8]uint64
				for j := range x {
					x[j] = load64(src, (c+j)*e+i)
				}
				transposeBytes8(&x)
				for r := range x {
					store64(dst, (i+r)*t+c, x[r])
				}
			}
		}
	}
	for ; i < to; i++ {
		for j := 0; j < t; j++ {
			dst[i*t+j] = src[j*e+i]
		}
	}
}

// evenBytes packs bytes 0, 2, 4, 6 of x into the low 32 bits.
func evenBytes(x uint64) uint64 {
	x &= lo8
	x = (x | x>>8) & lo16
	return (x | x>>16) & lo32
}

// spreadBytes is the inverse of evenBytes: byte k of x goes to byte 2k.
func spreadBytes(x uint32) uint64 {
	y := uint64(x)
	y = (y | y<<16) & lo16
	return (y | y<<8) & lo8
}

// zip4x2 interleaves the two 4-byte elements held in x:
// a0 a1 a2 a3 b0 b1 b2 b3 -> a0 b0 a1 b1 a2 b2 a3 b3.
func zip4x2(x uint64) uint64 {
	t := (x ^ x>>16) & 0x00000000ffff0000
	x ^= t ^ t<<16
	t = (x ^ x>>8) & 0x0000ff000000ff00
	return x ^ t ^ t<<8
}

// unzip4x2 is the inverse of zip4x2 (the same two swaps in reverse order).
func unzip4x2(x uint64) uint64 {
	t := (x ^ x>>8) & 0x0000ff000000ff00
	x ^= t ^ t<<8
	t = (x ^ x>>16) & 0x00000000ffff0000
	return x ^ t ^ t<<16
}

// transpose16x4 transposes the 4x4 matrix of 16-bit lanes held in x.
func transpose16x4(x *[4]uint64) {
	for i := 0; i < 2; i++ {
		t := (x[i]>>32 ^ x[i+2]) & lo32
		x[i+2] ^= t
		x[i] ^= t << 32
	}
	for i := 0; i < 4; i += 2 {
		t := (x[i]>>16 ^ x[i+1]) & lo16
		x[i+1] ^= t
		x[i] ^= t << 16
	}
}

// bitTransGeneric is the portable bit transpose of one byte row; contract
// in kernelSet.
func bitTransGeneric(dst, src []byte, stride int) {
	bitTransFrom(dst, src, stride, 0)
}

// bitTransFrom runs bitTransGeneric from byte offset from (a multiple of 8)
// of src, for the vector kernels' tails.
func bitTransFrom(dst, src []byte, stride, from int) {
	g := from / 8 // 8-byte group = output byte column
	ng := len(src) / 8
	// 64 bytes at a time: eight bit transposes give, in word k, the output
	// bytes of group g+k for each row b (byte b); a byte transpose turns that
	// into one word per row.
	for ; g+8 <= ng; g += 8 {
		var x [8]uint64
		for k := range x {
			x[k] = transposeBits8(load64(src, 8*(g+k)))
		}
		transposeBytes8(&x)
		for b := range x {
			store64(dst, b*stride+g, x[b])
		}
	}
	for ; g < ng; g++ {
		x := transposeBits8(load64(src, 8*g))
		for b := 0; b < 8; b++ {
			dst[b*stride+g] = byte(x >> (8 * b))
		}
	}
}

// bitUntransGeneric is the portable inverse bit transpose of one byte row.
func bitUntransGeneric(dst, src []byte, stride int) {
	bitUntransFrom(dst, src, stride, 0)
}

// bitUntransFrom runs bitUntransGeneric from byte offset from (a multiple
// of 8) of dst.
func bitUntransFrom(dst, src []byte, stride, from int) {
	g := from / 8
	ng := len(dst) / 8
	for ; g+8 <= ng; g += 8 {
		var x [8]uint64
		for b := range x {
			x[b] = load64(src, b*stride+g)
		}
		transposeBytes8(&x)
		for k := range x {
			store64(dst, 8*(g+k), transposeBits8(x[k]))
		}
	}
	for ; g < ng; g++ {
		var x uint64
		for b := 0; b < 8; b++ {
			x |= uint64(src[b*stride+g]) << (8 * b)
		}
		store64(dst, 8*g, transposeBits8(x))
	}
}
