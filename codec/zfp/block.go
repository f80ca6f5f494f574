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

func bits64TrailingZeros(x uint64) int { return bits.TrailingZeros64(x) }

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
				data[i+uint(bits64TrailingZeros(x))] += U(1) << k
			}
			i += c
		}
		// Unary run-length code of the rest of the plane: a group bit
		// (any one left?), then the distance to the next one.
		for ; bits > 0 && n < size; n++ {
			bits--
			if r.bit() == 0 {
				break
			}
			z, one := r.zeroRun(min(bits, size-1-n))
			bits -= z
			if one {
				bits--
			}
			n += z
			data[n] += U(1) << k
		}
	}
	return maxbits - bits
}

// encodeInts is the inverse of decodeInts: it writes at most maxbits bits
// and returns the number written.
func encodeInts[U unsigned](w *bitWriter, maxbits, maxprec uint, data []U, intprec uint, planes *planes) uint {
	kmin := uint(0)
	if intprec > maxprec {
		kmin = intprec - maxprec
	}
	size := uint(len(data))
	nw := (size + 63) / 64
	// The bit planes, 64 coefficients to a word, built from the set bits
	// only (coefficients are mostly small).
	for k := kmin; k < intprec; k++ {
		clear(planes[k][:nw])
	}
	for i, v := range data {
		for x := uint64(v) >> kmin << kmin; x != 0; x &= x - 1 { // planes below kmin are not coded
			planes[bits64TrailingZeros(x)][i>>6] |= 1 << (uint(i) & 63)
		}
	}
	bits := maxbits
	n := uint(0)
	for k := intprec; bits > 0 && k > kmin; {
		k--
		p := &planes[k]
		m := min(n, bits)
		bits -= m
		for i := uint(0); i < m; i += 64 {
			w.bits(p[i>>6], min(m-i, 64))
		}
		for ; bits > 0 && n < size; n++ {
			bits--
			t, ok := nextOne(p, n, nw)
			if !ok {
				w.bit(0)
				break
			}
			w.bit(1)
			// Zeros up to the next one, which is implied when last.
			end := min(t, size-1)
			if z := end - n; z >= bits {
				w.pad(bits)
				bits = 0
				break
			} else {
				w.pad(z)
				bits -= z
			}
			n = end
			if n < size-1 {
				bits--
				w.bit(1)
			}
		}
	}
	return maxbits - bits
}

// planes is scratch for encodeInts: bit plane k of up to 256 coefficients.
type planes [64][4]uint64

// nextOne returns the index of the first set bit at or after n of the nw
// words of p.
func nextOne(p *[4]uint64, n, nw uint) (uint, bool) {
	j := n >> 6
	if x := p[j] >> (n & 63); x != 0 {
		return n + uint(bits64TrailingZeros(x)), true
	}
	for j++; j < nw; j++ {
		if p[j] != 0 {
			return j<<6 + uint(bits64TrailingZeros(p[j])), true
		}
	}
	return 0, false
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
func encodeIntBlock[I signed, U unsigned](w *bitWriter, nd int, minbits, maxbits, maxprec uint, iblock []I, ublock []U, intprec uint, pl *planes) uint {
	fwdXform(iblock, nd)
	nb := nbmask[U]()
	for i := range ublock {
		ublock[i] = (U(iblock[perm[nd][i]]) + nb) ^ nb
	}
	bits := encodeInts(w, maxbits, maxprec, ublock, intprec, pl)
	if bits < minbits {
		w.pad(minbits - bits)
		bits = minbits
	}
	return bits
}
