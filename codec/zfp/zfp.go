// Package zfp reads and writes ZFP compressed streams: the lossy
// floating-point array format of LLNL's ZFP library (version 1.0.1, the one
// C-Blosc2 3.3.2 bundles), written here in Go from the format's definition.
//
// An array of 1 to 4 dimensions of float32 or float64 values is cut into
// blocks of 4×…×4 values (edge blocks are padded). Each block is stored as a
// common exponent, then its values as integers, decorrelated by a lifting
// transform, mapped to negabinary and coded one bit plane at a time from the
// most significant, so that the stream for a block can stop after any bit.
// [Params] says where it stops: after a fixed number of bits per block
// ([Rate]), after a fixed number of bit planes ([Precision]), or once the
// error is below a tolerance ([Accuracy]). The stream carries no header:
// the reader must know the type, the shape and the Params.
//
// Only the lossy ("fixed") modes are implemented; ZFP's reversible mode and
// its integer arrays are not, as C-Blosc2 uses neither.
package zfp

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/blosc2go/blosc2/internal/errs"
)

// Type is the element type of an array.
type Type uint8

// The element types.
const (
	Float32 Type = 4 // IEEE-754 binary32, little-endian
	Float64 Type = 8 // IEEE-754 binary64, little-endian
)

// Size returns the size of one element in bytes.
func (t Type) Size() int { return int(t) }

// Limits of the format.
const (
	MaxDims = 4     // dimensions of an array
	MinBits = 1     // smallest number of bits a block takes
	MaxBits = 16658 // largest number of bits a block can take
	MaxPrec = 64    // most bit planes coded
	MinExp  = -1074 // smallest base-2 exponent
)

// Params bound the bits each block takes. The zero value is not valid: use
// [Accuracy], [Precision] or [Rate], which set them as ZFP's
// zfp_stream_set_accuracy, zfp_stream_set_precision and
// zfp_stream_set_rate do.
type Params struct {
	MinBits uint // bits a block takes at least (zero-padded)
	MaxBits uint // bits a block takes at most
	MaxPrec uint // bit planes coded at most
	MinExp  int  // bit planes below 2^MinExp are not coded
}

// Accuracy returns the parameters of ZFP's fixed-accuracy mode: the
// absolute error of every value stays within tolerance (for values whose
// magnitude the format can represent). A tolerance ≤ 0 codes every bit plane.
func Accuracy(tolerance float64) Params {
	minexp := MinExp
	if tolerance > 0 {
		_, e := math.Frexp(tolerance)
		minexp = e - 1
	}
	return Params{MinBits: MinBits, MaxBits: MaxBits, MaxPrec: MaxPrec, MinExp: minexp}
}

// Precision returns the parameters of ZFP's fixed-precision mode: prec bit
// planes per block (0 or more than [MaxPrec] mean MaxPrec).
func Precision(prec uint) Params {
	if prec == 0 || prec > MaxPrec {
		prec = MaxPrec
	}
	return Params{MinBits: MinBits, MaxBits: MaxBits, MaxPrec: prec, MinExp: MinExp}
}

// Rate returns the parameters of ZFP's fixed-rate mode (without word
// alignment): every block of a dims-dimensional array of t takes exactly
// round(rate·4^dims) bits, at least 1 plus the exponent's width.
func Rate(rate float64, t Type, dims int) Params {
	n := float64(uint(1) << (2 * uint(dims)))
	b := uint(math.Floor(n*rate + 0.5))
	if rate < 0 || math.IsNaN(rate) {
		b = 0
	}
	b = min(b, MaxBits)
	if t == Float64 {
		b = max(b, 1+11)
	} else {
		b = max(b, 1+8)
	}
	return Params{MinBits: b, MaxBits: b, MaxPrec: MaxPrec, MinExp: MinExp}
}

func (p *Params) check(t Type) error {
	ebits := uint(8)
	if t == Float64 {
		ebits = 11
	}
	switch {
	case t != Float32 && t != Float64:
		return fmt.Errorf("%w: zfp: element size %d (4 or 8)", errs.ErrInvalidOption, t)
	case p.MaxBits < 1+ebits || p.MaxBits > MaxBits || p.MinBits > p.MaxBits:
		return fmt.Errorf("%w: zfp: bits per block %d-%d", errs.ErrInvalidOption, p.MinBits, p.MaxBits)
	case p.MaxPrec == 0 || p.MaxPrec > MaxPrec:
		return fmt.Errorf("%w: zfp: precision %d", errs.ErrInvalidOption, p.MaxPrec)
	case p.MinExp < MinExp || p.MinExp > 1<<20:
		return fmt.Errorf("%w: zfp: minimum exponent %d", errs.ErrInvalidOption, p.MinExp)
	}
	return nil
}

// field is an array's extent, x (the fastest-varying, C order's last) first.
type field struct {
	nd int
	n  [MaxDims]int
}

func newField(shape []int, t Type, nbytes int) (field, error) {
	var f field
	if len(shape) < 1 || len(shape) > MaxDims {
		return f, fmt.Errorf("%w: zfp: %d dimensions (1-%d)", errs.ErrInvalidOption, len(shape), MaxDims)
	}
	f.nd = len(shape)
	count := 1
	for i, s := range shape {
		if s <= 0 || count > nbytes/s {
			return f, fmt.Errorf("%w: zfp: shape %v does not match %d bytes", errs.ErrInvalidOption, shape, nbytes)
		}
		count *= s
		f.n[len(shape)-1-i] = s
	}
	if count*t.Size() != nbytes {
		return f, fmt.Errorf("%w: zfp: shape %v of %d-byte values does not match %d bytes", errs.ErrInvalidOption, shape, t.Size(), nbytes)
	}
	for i := f.nd; i < MaxDims; i++ {
		f.n[i] = 1
	}
	return f, nil
}

// blocks calls fn for each block, in the order of the stream, with the
// element index of its first value, the element strides and the extent of
// the block that lies inside the array.
func (f *field) blocks(fn func(base int, stride, ext [MaxDims]int) error) error {
	var stride [MaxDims]int
	s := 1
	for d := range MaxDims {
		stride[d] = s
		s *= f.n[d]
	}
	var ext [MaxDims]int
	for w := 0; w < f.n[3]; w += 4 {
		ext[3] = min(4, f.n[3]-w)
		for z := 0; z < f.n[2]; z += 4 {
			ext[2] = min(4, f.n[2]-z)
			for y := 0; y < f.n[1]; y += 4 {
				ext[1] = min(4, f.n[1]-y)
				for x := 0; x < f.n[0]; x += 4 {
					ext[0] = min(4, f.n[0]-x)
					base := x*stride[0] + y*stride[1] + z*stride[2] + w*stride[3]
					if err := fn(base, stride, ext); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// Decode decodes a ZFP stream into dst, the little-endian values of type t
// of an array of the given shape (C order: the last dimension varies
// fastest; 1 to 4 dimensions; len(dst) must be the product times the type's
// size), and returns the number of bytes of src the stream took, rounded up
// to whole 64-bit words as ZFP does. A stream that ends before the array
// does fails with an error wrapping [blosc2.ErrCorrupt]; so does a stream
// that is not a multiple of 8 bytes and needs its missing bytes.
//
// [blosc2.ErrCorrupt]: https://pkg.go.dev/github.com/blosc2go/blosc2#ErrCorrupt
func Decode(dst []byte, t Type, shape []int, p Params, src []byte) (int, error) {
	if err := p.check(t); err != nil {
		return 0, err
	}
	f, err := newField(shape, t, len(dst))
	if err != nil {
		return 0, err
	}
	r := newBitReader(src)
	size := 1 << (2 * f.nd)
	offs := f.blockOffsets()
	if t == Float32 {
		var iblock [256]int32
		var ublock [256]uint32
		var out [256]float32
		err = f.blocks(func(base int, stride, ext [MaxDims]int) error {
			decodeBlock32(&r, f.nd, &p, iblock[:size], ublock[:size], out[:size])
			if r.overrun > 0 {
				return fmt.Errorf("%w: zfp: stream of %d bytes ends inside block at element %d", errs.ErrCorrupt, len(src), base)
			}
			full := isFull(ext, f.nd)
			for i, v := range out[:size] {
				if full || inside(i, ext) {
					binary.LittleEndian.PutUint32(dst[4*(base+offs[i]):], math.Float32bits(v))
				}
			}
			return nil
		})
	} else {
		var iblock [256]int64
		var ublock [256]uint64
		var out [256]float64
		err = f.blocks(func(base int, stride, ext [MaxDims]int) error {
			decodeBlock64(&r, f.nd, &p, iblock[:size], ublock[:size], out[:size])
			if r.overrun > 0 {
				return fmt.Errorf("%w: zfp: stream of %d bytes ends inside block at element %d", errs.ErrCorrupt, len(src), base)
			}
			full := isFull(ext, f.nd)
			for i, v := range out[:size] {
				if full || inside(i, ext) {
					binary.LittleEndian.PutUint64(dst[8*(base+offs[i]):], math.Float64bits(v))
				}
			}
			return nil
		})
	}
	if err != nil {
		return 0, err
	}
	n := int((r.consumed() + 63) / 64 * 8)
	return min(n, len(src)), nil
}

// blockOffsets returns the element offset of each value of a block from
// the block's first element, for the array's strides.
func (f *field) blockOffsets() *[256]int {
	var offs [256]int
	s := [MaxDims]int{1}
	for d := 1; d < MaxDims; d++ {
		s[d] = s[d-1] * f.n[d-1]
	}
	for j := range 1 << (2 * f.nd) {
		offs[j] = (j&3)*s[0] + (j>>2&3)*s[1] + (j>>4&3)*s[2] + (j>>6&3)*s[3]
	}
	return &offs
}

// isFull reports whether a block of extent ext lies wholly in the array.
func isFull(ext [MaxDims]int, nd int) bool {
	for d := range nd {
		if ext[d] != 4 {
			return false
		}
	}
	return true
}

// inside reports whether value i of a block of extent ext lies in the
// array.
func inside(i int, ext [MaxDims]int) bool {
	return i&3 < ext[0] && i>>2&3 < ext[1] && i>>4&3 < ext[2] && i>>6&3 < ext[3]
}

func decodeBlock32(r *bitReader, nd int, p *Params, iblock []int32, ublock []uint32, out []float32) {
	bits := uint(1)
	if r.bit() == 0 {
		clear(out)
		if p.MinBits > bits {
			r.skip(p.MinBits - bits)
		}
		return
	}
	bits += 8
	emax := int(r.bits(8)) - 127
	maxprec := precision(emax, p.MaxPrec, p.MinExp, nd)
	decodeIntBlock(r, nd, p.MinBits-min(bits, p.MinBits), p.MaxBits-bits, maxprec, iblock, ublock, 32)
	s := float32(math.Ldexp(1, emax-30))
	for i, v := range iblock {
		out[i] = s * float32(v)
	}
}

func decodeBlock64(r *bitReader, nd int, p *Params, iblock []int64, ublock []uint64, out []float64) {
	bits := uint(1)
	if r.bit() == 0 {
		clear(out)
		if p.MinBits > bits {
			r.skip(p.MinBits - bits)
		}
		return
	}
	bits += 11
	emax := int(r.bits(11)) - 1023
	maxprec := precision(emax, p.MaxPrec, p.MinExp, nd)
	decodeIntBlock(r, nd, p.MinBits-min(bits, p.MinBits), p.MaxBits-bits, maxprec, iblock, ublock, 64)
	s := math.Ldexp(1, emax-62)
	for i, v := range iblock {
		out[i] = s * float64(v)
	}
}
