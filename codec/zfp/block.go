package zfp

// The integer stage of ZFP, shared by both floating-point types: the
// decorrelating block transform, the reordering of its coefficients by
// sequency, the negabinary mapping and the embedded bit-plane coder.
// I is the signed integer type of the values (int32 for float32, int64 for
// float64), U its unsigned counterpart. Arithmetic wraps as C's does on the
// machines C-Blosc2 runs on, so blocks holding NaN or Inf come out the same.

import "math/bits"

type signed interface{ ~int32 | ~int64 }
type unsigned interface{ ~uint32 | ~uint64 }

// fwdLift is the forward lifting transform of the 4 values p[i+k*s].
func fwdLift[I signed](p []I, i, s int) {
	x, y, z, w := p[i], p[i+s], p[i+2*s], p[i+3*s]
	x += w
	x >>= 1
	w -= x
	z += y
	z >>= 1
	y -= z
	x += z
	x >>= 1
	z -= x
	w += y
	w >>= 1
	y -= w
	w += y >> 1
	y -= w >> 1
	p[i], p[i+s], p[i+2*s], p[i+3*s] = x, y, z, w
}

// invLift undoes fwdLift.
func invLift[I signed](p []I, i, s int) {
	x, y, z, w := p[i], p[i+s], p[i+2*s], p[i+3*s]
	y += w >> 1
	w -= y >> 1
	y += w
	w <<= 1
	w -= y
	z += x
	x <<= 1
	x -= z
	y += z
	z <<= 1
	z -= y
	w += x
	x <<= 1
	x -= w
	p[i], p[i+s], p[i+2*s], p[i+3*s] = x, y, z, w
}

// fwdXform transforms a block of 4^nd values along x (stride 1), then y,
// z and w.
func fwdXform[I signed](p []I, nd int) {
	size := len(p)
	for s := 1; s < size; s *= 4 {
		for hi := 0; hi < size; hi += 4 * s {
			for i := hi; i < hi+s; i++ {
				fwdLift(p, i, s)
			}
		}
	}
}

// invXform undoes fwdXform, dimensions in the reverse order.
func invXform[I signed](p []I, nd int) {
	size := len(p)
	for s := size / 4; s >= 1; s /= 4 {
		for hi := 0; hi < size; hi += 4 * s {
			for i := hi; i < hi+s; i++ {
				invLift(p, i, s)
			}
		}
	}
}

func bits64Len(x uint64) int { return bits.Len64(x) }

// nbmask is the negabinary mask 0xaaaa…aa of U.
func nbmask[U unsigned]() U { return ^U(0) / 3 * 2 }

// precision is the number of bit planes coded for a block whose largest
// exponent is emax.
func precision(emax int, maxprec uint, minexp, nd int) uint {
	v := emax - minexp + 2*nd + 2
	if v < 0 {
		v = 0
	}
	return min(maxprec, uint(v))
}

// decodeInts decodes the bit planes of len(data) coefficients, most
// significant first, reading at most maxbits bits, and returns the number
// of bits read. intprec is the width of U in bits.
func decodeInts[U unsigned](r *bitReader, maxbits, maxprec uint, data []U, intprec uint) uint {
	kmin := uint(0)
	if intprec > maxprec {
		kmin = intprec - maxprec
	}
	size := uint(len(data))
	clear(data)
	bits := maxbits
	n := uint(0)
	for k := intprec; bits > 0 && k > kmin; {
		k--
		// The first n coefficients are already significant: one bit each.
		m := min(n, bits)
		bits -= m
		for i := uint(0); i < m; {
			c := min(m-i, 56)
			x := r.bits(c)
			for ; x != 0; x &= x - 1 {
				data[i+uint(trailingZeros64(x))] += U(1) << k
			}
			i += c
		}
		// Unary run-length code of the rest of the plane.
		for ; bits > 0 && n < size; n++ {
			bits--
			if r.bit() == 0 {
				break
			}
			for ; bits > 0 && n < size-1; n++ {
				bits--
				if r.bit() != 0 {
					break
				}
			}
			data[n] += U(1) << k
		}
	}
	return maxbits - bits
}

// encodeInts is the inverse of decodeInts: it writes at most maxbits bits
// and returns the number written.
func encodeInts[U unsigned](w *bitWriter, maxbits, maxprec uint, data []U, intprec uint) uint {
	if len(data) <= 64 {
		return encodeFewInts(w, maxbits, maxprec, data, intprec)
	}
	kmin := uint(0)
	if intprec > maxprec {
		kmin = intprec - maxprec
	}
	size := uint(len(data))
	bits := maxbits
	n := uint(0)
	for k := intprec; bits > 0 && k > kmin; {
		k--
		m := min(n, bits)
		bits -= m
		for i := uint(0); i < m; {
			c := min(m-i, 64)
			var x uint64
			for j := uint(0); j < c; j++ {
				x |= uint64((data[i+j]>>k)&1) << j
			}
			w.bits(x, c)
			i += c
		}
		ones := 0
		for i := m; i < size; i++ {
			ones += int((data[i] >> k) & 1)
		}
		for ; bits > 0 && n < size; n++ {
			bits--
			if ones == 0 {
				w.bit(0)
				break
			}
			w.bit(1)
			ones--
			for ; bits > 0 && n < size-1; n++ {
				bits--
				b := uint64((data[n] >> k) & 1)
				w.bit(b)
				if b != 0 {
					break
				}
			}
		}
	}
	return maxbits - bits
}

// encodeFewInts is encodeInts for blocks of at most 64 values, one bit
// plane in a word.
func encodeFewInts[U unsigned](w *bitWriter, maxbits, maxprec uint, data []U, intprec uint) uint {
	kmin := uint(0)
	if intprec > maxprec {
		kmin = intprec - maxprec
	}
	size := uint(len(data))
	bits := maxbits
	n := uint(0)
	var all U
	for _, v := range data {
		all |= v
	}
	top := uint(bits64Len(uint64(all))) // planes at and above top are empty
	for k := intprec; bits > 0 && k > kmin; {
		k--
		var x uint64
		if k < top {
			for i, v := range data {
				x |= uint64((v>>k)&1) << uint(i)
			}
		}
		m := min(n, bits)
		bits -= m
		w.bits(x, m)
		x >>= m & 63
		if m == 64 {
			x = 0
		}
		for ; bits > 0 && n < size; x, n = x>>1, n+1 {
			bits--
			if x == 0 {
				w.bit(0)
				break
			}
			w.bit(1)
			for ; bits > 0 && n < size-1; x, n = x>>1, n+1 {
				bits--
				w.bit(x & 1)
				if x&1 != 0 {
					break
				}
			}
		}
	}
	return maxbits - bits
}

// decodeIntBlock decodes one block of integers into iblock (4^nd values),
// reading at least minbits and at most maxbits bits; ublock is scratch of
// the same length. It returns the number of bits read.
func decodeIntBlock[I signed, U unsigned](r *bitReader, nd int, minbits, maxbits, maxprec uint, iblock []I, ublock []U, intprec uint) uint {
	bits := decodeInts(r, maxbits, maxprec, ublock, intprec)
	if bits < minbits {
		r.skip(minbits - bits)
		bits = minbits
	}
	nb := nbmask[U]()
	for i, u := range ublock {
		iblock[perm[nd][i]] = I((u ^ nb) - nb)
	}
	invXform(iblock, nd)
	return bits
}

// encodeIntBlock transforms iblock in place and writes it, at least minbits
// and at most maxbits bits, returning the number written.
func encodeIntBlock[I signed, U unsigned](w *bitWriter, nd int, minbits, maxbits, maxprec uint, iblock []I, ublock []U, intprec uint) uint {
	fwdXform(iblock, nd)
	nb := nbmask[U]()
	for i := range ublock {
		ublock[i] = (U(iblock[perm[nd][i]]) + nb) ^ nb
	}
	bits := encodeInts(w, maxbits, maxprec, ublock, intprec)
	if bits < minbits {
		w.pad(minbits - bits)
		bits = minbits
	}
	return bits
}
