package zfp

import (
	"encoding/binary"
	"math/bits"
)

// ZFP's bit stream is a sequence of 64-bit little-endian words whose bits are
// consumed from the least significant end: byte for byte, an LSB-first
// stream. A compressed stream ends padded with zeros to a whole word.

// bitReader reads an LSB-first stream. Reading past the end yields zero bits
// and records the overrun, so a lying stream ends the decode with an error
// instead of a fault.
type bitReader struct {
	src     []byte
	pos     int    // next byte of src to load into buf
	buf     uint64 // bits not yet consumed, lowest first
	n       uint   // number of valid bits in buf
	overrun uint64 // zero bits supplied past the end of src
}

func newBitReader(src []byte) bitReader { return bitReader{src: src} }

// fill loads whole bytes into buf until it holds at least 57 bits or src is
// exhausted.
func (r *bitReader) fill() {
	if r.pos+8 <= len(r.src) {
		v := binary.LittleEndian.Uint64(r.src[r.pos:])
		r.buf |= v << r.n
		k := (64 - r.n) >> 3 // whole bytes that fit
		r.pos += int(k)
		r.n += k << 3
		return
	}
	for r.n <= 56 && r.pos < len(r.src) {
		r.buf |= uint64(r.src[r.pos]) << r.n
		r.pos++
		r.n += 8
	}
}

// bit returns the next bit.
func (r *bitReader) bit() uint64 {
	if r.n == 0 {
		r.fill()
		if r.n == 0 {
			r.overrun++
			return 0
		}
	}
	b := r.buf & 1
	r.buf >>= 1
	r.n--
	return b
}

// bits returns the next n ≤ 64 bits, the first one read in bit 0.
func (r *bitReader) bits(n uint) uint64 {
	if n == 0 {
		return 0
	}
	if n > 56 {
		lo := r.bits(32)
		return lo | r.bits(n-32)<<32
	}
	if r.n < n {
		r.fill()
		if r.n < n {
			// The end of the stream: what is left, then zeros.
			v := r.buf
			r.overrun += uint64(n - r.n)
			r.buf, r.n = 0, 0
			return v
		}
	}
	v := r.buf & (1<<n - 1)
	r.buf >>= n
	r.n -= n
	return v
}

// zeroRun consumes zero bits, at most lim of them, and the one bit that
// ends the run if it comes within lim. It returns the number of zeros
// consumed and whether the one was found.
func (r *bitReader) zeroRun(lim uint) (uint, bool) {
	z := uint(0)
	for z < lim {
		if r.n == 0 {
			r.fill()
			if r.n == 0 {
				r.overrun += uint64(lim - z)
				return lim, false
			}
		}
		avail := min(r.n, lim-z)
		if tz := uint(bits.TrailingZeros64(r.buf)); tz < avail {
			r.buf >>= tz + 1
			r.n -= tz + 1
			return z + tz, true
		}
		r.buf >>= avail
		r.n -= avail
		z += avail
	}
	return z, false
}

// skip discards n bits.
func (r *bitReader) skip(n uint) {
	for n > 56 {
		r.bits(56)
		n -= 56
	}
	r.bits(n)
}

// consumed returns the number of bits read so far, overrun included.
func (r *bitReader) consumed() uint64 {
	return uint64(r.pos)*8 - uint64(r.n) + r.overrun
}

// bitWriter appends an LSB-first stream to a byte slice.
type bitWriter struct {
	dst []byte
	buf uint64 // pending bits, lowest first
	n   uint   // number of pending bits (< 64)
}

// bit appends the lowest bit of b.
func (w *bitWriter) bit(b uint64) {
	w.buf |= (b & 1) << w.n
	w.n++
	if w.n == 64 {
		w.dst = binary.LittleEndian.AppendUint64(w.dst, w.buf)
		w.buf, w.n = 0, 0
	}
}

// bits appends the n ≤ 64 lowest bits of v, bit 0 first.
func (w *bitWriter) bits(v uint64, n uint) {
	if n == 0 {
		return
	}
	if n < 64 {
		v &= 1<<n - 1
	}
	w.buf |= v << w.n
	if w.n+n >= 64 {
		w.dst = binary.LittleEndian.AppendUint64(w.dst, w.buf)
		used := 64 - w.n
		w.n = w.n + n - 64
		if used == 64 {
			w.buf = 0
		} else {
			w.buf = v >> used
		}
		return
	}
	w.n += n
}

// pad appends n zero bits.
func (w *bitWriter) pad(n uint) {
	for n >= 64 {
		w.bits(0, 64)
		n -= 64
	}
	w.bits(0, n)
}

// flush pads the stream with zeros to a whole 64-bit word, as ZFP does at
// the end of a compressed stream.
func (w *bitWriter) flush() {
	if w.n > 0 {
		w.dst = binary.LittleEndian.AppendUint64(w.dst, w.buf)
		w.buf, w.n = 0, 0
	}
}
