package zfp

import (
	"encoding/binary"
	"math"
)

// Encode appends to dst the ZFP stream of src, the little-endian values of
// type t of an array of the given shape (as for [Decode]), coded with p,
// and padded to a whole 64-bit word. The stream is the one ZFP 1.0.1's
// zfp_compress writes, bit for bit, for the same input and parameters.
func Encode(dst, src []byte, t Type, shape []int, p Params) ([]byte, error) {
	if err := p.check(t); err != nil {
		return dst, err
	}
	f, err := newField(shape, t, len(src))
	if err != nil {
		return dst, err
	}
	w := bitWriter{dst: dst}
	size := 1 << (2 * f.nd)
	pl := new(planes)
	offs := f.blockOffsets()
	if t == Float32 {
		var iblock [256]int32
		var ublock [256]uint32
		var in [256]float32
		_ = f.blocks(func(base int, stride, ext [MaxDims]int) error {
			full := isFull(ext, f.nd)
			for i := range in[:size] {
				if full || inside(i, ext) {
					in[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*(base+offs[i]):]))
				}
			}
			if !full {
				padBlock(in[:size], f.nd, ext)
			}
			encodeBlock32(&w, f.nd, &p, in[:size], iblock[:size], ublock[:size], pl)
			return nil
		})
	} else {
		var iblock [256]int64
		var ublock [256]uint64
		var in [256]float64
		_ = f.blocks(func(base int, stride, ext [MaxDims]int) error {
			full := isFull(ext, f.nd)
			for i := range in[:size] {
				if full || inside(i, ext) {
					in[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*(base+offs[i]):]))
				}
			}
			if !full {
				padBlock(in[:size], f.nd, ext)
			}
			encodeBlock64(&w, f.nd, &p, in[:size], iblock[:size], ublock[:size], pl)
			return nil
		})
	}
	w.flush()
	return w.dst, nil
}

// MaxEncodedLen returns the largest stream Encode can write for an array of
// the given shape and type with p (no more than ZFP's
// zfp_stream_maximum_size), or 0 for a shape Encode refuses.
func MaxEncodedLen(t Type, shape []int, p Params) int {
	if len(shape) < 1 || len(shape) > MaxDims {
		return 0
	}
	nblocks := 1
	for _, s := range shape {
		if s <= 0 {
			return 0
		}
		nblocks *= (s + 3) / 4
	}
	ebits := 8
	if t == Float64 {
		ebits = 11
	}
	size := 1 << (2 * len(shape))
	perBlock := min(int(p.MaxBits), 1+ebits+(int(min(p.MaxPrec, uint(8*t.Size())))+1)*size-1)
	perBlock = max(perBlock, int(p.MinBits))
	return (nblocks*perBlock + 63) / 64 * 8
}

// padBlock pads the values of a partial block (extent ext) that lie
// outside the array as ZFP does: a partial row a b c becomes a b c a, a b
// becomes a b b a, a becomes a a a a, along x, then y, z and w.
func padBlock[T float32 | float64](block []T, nd int, ext [MaxDims]int) {
	size := len(block)
	for d := range nd {
		s := 1 << (2 * d)
		for i := range size {
			if (i/s)%4 != 0 {
				continue
			}
			in := true
			for e := d + 1; e < nd; e++ {
				if (i>>(2*e))&3 >= ext[e] {
					in = false
				}
			}
			if in {
				pad(block, i, s, ext[d])
			}
		}
	}
}

// pad completes the partial row of n ≤ 4 values at p[i], p[i+s], ….
func pad[T float32 | float64](p []T, i, s, n int) {
	switch n {
	case 0:
		p[i] = 0
		fallthrough
	case 1:
		p[i+s] = p[i]
		fallthrough
	case 2:
		p[i+2*s] = p[i+s]
		fallthrough
	case 3:
		p[i+3*s] = p[i]
	}
}

// exponent returns ZFP's block exponent of a block whose largest magnitude
// is m: that of frexp, at least 1-bias, and -bias for a block of zeros.
func exponent(m float64, bias int) int {
	if m > 0 {
		_, e := math.Frexp(m)
		return max(e, 1-bias)
	}
	return -bias
}

// toInt32 converts as x86's cvttss2si does: NaN and values out of range
// give the "integer indefinite" MinInt32, which is what C-Blosc2's ZFP
// produces for blocks holding NaN or Inf.
func toInt32(x float32) int32 {
	if !(x > -2147483904 && x < 2147483648) { // NaN, or truncates outside int32
		return math.MinInt32
	}
	return int32(x)
}

// toInt64 is toInt32 for cvttsd2si's 64-bit form.
func toInt64(x float64) int64 {
	if !(x >= -9223372036854775808 && x < 9223372036854775808) {
		return math.MinInt64
	}
	return int64(x)
}

func encodeBlock32(w *bitWriter, nd int, p *Params, in []float32, iblock []int32, ublock []uint32, pl *planes) {
	var m float32
	for _, v := range in {
		if a := float32(math.Abs(float64(v))); m < a {
			m = a
		}
	}
	emax := exponent(float64(m), 127)
	maxprec := precision(emax, p.MaxPrec, p.MinExp, nd)
	e := 0
	if maxprec != 0 {
		e = emax + 127
	}
	if e == 0 {
		w.bit(0)
		if p.MinBits > 1 {
			w.pad(p.MinBits - 1)
		}
		return
	}
	bits := uint(1 + 8)
	w.bits(uint64(2*e+1), bits)
	s := float32(math.Ldexp(1, 30-emax))
	for i, v := range in {
		iblock[i] = toInt32(s * v)
	}
	encodeIntBlock(w, nd, p.MinBits-min(bits, p.MinBits), p.MaxBits-bits, maxprec, iblock, ublock, 32, pl)
}

func encodeBlock64(w *bitWriter, nd int, p *Params, in []float64, iblock []int64, ublock []uint64, pl *planes) {
	var m float64
	for _, v := range in {
		if a := math.Abs(v); m < a {
			m = a
		}
	}
	emax := exponent(m, 1023)
	maxprec := precision(emax, p.MaxPrec, p.MinExp, nd)
	e := 0
	if maxprec != 0 {
		e = emax + 1023
	}
	if e == 0 {
		w.bit(0)
		if p.MinBits > 1 {
			w.pad(p.MinBits - 1)
		}
		return
	}
	bits := uint(1 + 11)
	w.bits(uint64(2*e+1), bits)
	s := math.Ldexp(1, 62-emax)
	for i, v := range in {
		iblock[i] = toInt64(s * v)
	}
	encodeIntBlock(w, nd, p.MinBits-min(bits, p.MinBits), p.MaxBits-bits, maxprec, iblock, ublock, 64, pl)
}
