package codec

import (
	"encoding/binary"
	"fmt"
)

// blosclzCodec is BloscLZ (codec id 0, format 0), the LZ77 coder built into
// C-Blosc2 (blosc/blosclz.c, BloscLZ 2.5.3 in C-Blosc2 3.3.2).
//
// The encoder reproduces C-Blosc2 2.16.0…3.3.2 byte for byte (see
// blosclz_encode.go). The decoder accepts exactly the streams C accepts when
// Blosc asks for a given output size, but, unlike C, checks every length and
// distance against both buffers before using it.
//
// BloscLZ has no dictionary: dict and meta are ignored.
type blosclzCodec struct{}

// Stream format (blosc/blosclz.c). The first byte's top 3 bits are a marker
// (C writes 001) and are masked off: the first instruction is always a
// literal run. Then, per control byte c:
//
//	c < 32:  literal run of c+1 bytes (1…32) that follow.
//	c >= 32: match. L = c>>5, H = c&31. If L == 7, extension bytes follow
//	         until one is not 255; their sum X gives length 9+X, otherwise
//	         the length is L+2. Then a distance byte d: dist = H<<8 + d + 1,
//	         or, when H == 31 and d == 255, a "far" match whose distance is
//	         two more big-endian bytes + 8192.
const (
	blzMaxCopy     = 32               // longest literal run
	blzMaxDistance = 8191             // largest biased near distance + 1
	blzMaxFar      = 65535 + 8191 - 1 // MAX_FARDISTANCE: matches must be closer than this
)

// Decompress decodes the BloscLZ stream src into dst, which must be filled
// exactly. Any stream that would read past src, write past dst, copy from
// before the start of dst, end on a match, or stop short of len(dst) is an
// error wrapping ErrCorrupt.
func (blosclzCodec) Decompress(dst, src []byte, _ uint8, _ []byte) (int, error) {
	return blosclzDecompress(dst, src)
}

// Decoder failures, reported by blzFail.
const (
	blzErrEmpty = iota
	blzErrLitOut
	blzErrLitIn
	blzErrExtIn
	blzErrMatchOut
	blzErrMatchIn
	blzErrFarIn
	blzErrDist
	blzErrEndsMatch
	blzErrShort
)

// blzFail builds the error for a failure of kind at input offset off (the
// start of the instruction). It is kept out of line so that the decoder's
// loop carries no formatting code.
//
//go:noinline
func blzFail(kind, off, op, n, dist, outLen, inLeft int) error {
	var msg string
	switch kind {
	case blzErrEmpty:
		msg = "empty stream"
	case blzErrLitOut:
		msg = fmt.Sprintf("literal run of %d bytes at output offset %d overruns output of %d bytes", n, op, outLen)
	case blzErrLitIn:
		msg = fmt.Sprintf("literal run of %d bytes needs %d input bytes, only %d left", n, n, inLeft)
	case blzErrExtIn:
		msg = "match length extension runs past end of input"
	case blzErrMatchOut:
		msg = fmt.Sprintf("match of %d bytes at output offset %d overruns output of %d bytes", n, op, outLen)
	case blzErrMatchIn:
		msg = "match truncated at end of input"
	case blzErrFarIn:
		msg = "far match distance truncated at end of input"
	case blzErrDist:
		msg = fmt.Sprintf("match distance %d reaches before start of output (output offset %d)", dist, op)
	case blzErrEndsMatch:
		msg = "stream ends with a match"
	case blzErrShort:
		msg = fmt.Sprintf("stream decodes to %d bytes, want %d", op, outLen)
	}
	return fmt.Errorf("%w: blosclz: %s (input offset %d)", ErrCorrupt, msg, off)
}

// blosclzDecompress is the decoder proper. When both buffers have at least
// 32 spare bytes past the current positions, it copies literal runs and
// short matches in fixed 16-byte blocks and lets the surplus spill into
// bytes that later instructions overwrite (the output is written strictly
// in order, so nothing past op has been produced yet); near the ends of the
// buffers it checks and copies exactly.
func blosclzDecompress(dst, src []byte) (int, error) {
	if len(src) == 0 {
		return 0, blzFail(blzErrEmpty, 0, 0, 0, 0, len(dst), 0)
	}
	ip, op := 1, 0
	c := uint(src[0] & 31)
	for {
		if c < 32 {
			// Literal run of c+1 <= 32 bytes.
			n := int(c) + 1
			if len(dst)-op >= 32 && len(src)-ip >= 32 {
				d, s := dst[op:], src[ip:]
				*(*[16]byte)(d) = *(*[16]byte)(s)
				*(*[16]byte)(d[16:]) = *(*[16]byte)(s[16:])
			} else {
				if n > len(dst)-op {
					return op, blzFail(blzErrLitOut, ip-1, op, n, 0, len(dst), 0)
				}
				if n > len(src)-ip {
					return op, blzFail(blzErrLitIn, ip-1, op, n, 0, len(dst), len(src)-ip)
				}
				copy(dst[op:op+n], src[ip:ip+n])
			}
			op += n
			ip += n
			if ip >= len(src) {
				break
			}
			c = uint(src[ip])
			ip++
			continue
		}

		// Match.
		start := ip - 1
		n := int(c>>5) + 2
		if c>>5 == 7 {
			for {
				// Like C: an extension byte must be followed by at
				// least the distance byte.
				if ip+1 >= len(src) {
					return op, blzFail(blzErrExtIn, start, op, n, 0, len(dst), 0)
				}
				b := src[ip]
				ip++
				n += int(b)
				if n > len(dst)-op {
					// Checked inside the loop so that a run of 255s
					// cannot overflow n on 32-bit platforms.
					return op, blzFail(blzErrMatchOut, start, op, n, 0, len(dst), 0)
				}
				if b != 255 {
					break
				}
			}
		} else if ip+1 >= len(src) {
			// C requires the distance byte and one more (the next
			// control byte): a stream never ends with a near match.
			return op, blzFail(blzErrMatchIn, start, op, n, 0, len(dst), 0)
		}
		d := src[ip]
		ip++
		dist := int(c&31)<<8 + int(d) + 1
		if d == 255 && c&31 == 31 {
			if ip+1 >= len(src) {
				return op, blzFail(blzErrFarIn, start, op, n, 0, len(dst), 0)
			}
			dist = (int(src[ip])<<8 | int(src[ip+1])) + 8192
			ip += 2
		}
		if n > len(dst)-op {
			return op, blzFail(blzErrMatchOut, start, op, n, 0, len(dst), 0)
		}
		if dist > op {
			return op, blzFail(blzErrDist, start, op, n, dist, len(dst), 0)
		}
		if ip >= len(src) {
			// C stops here without copying the match, so its output
			// is short and Blosc rejects it.
			return op, blzFail(blzErrEndsMatch, start, op, n, dist, len(dst), 0)
		}
		c = uint(src[ip])
		ip++
		if dist >= 16 && n <= 16 && len(dst)-op >= 16 {
			// The common short match: one 16-byte block, read
			// entirely from bytes already final.
			*(*[16]byte)(dst[op:]) = *(*[16]byte)(dst[op-dist:])
			op += n
			continue
		}
		op = blzCopyMatch(dst, op, dist, n)
	}
	if op != len(dst) {
		return op, blzFail(blzErrShort, len(src), op, 0, 0, len(dst), 0)
	}
	return op, nil
}

// blzCopyMatch appends n bytes to dst[:op] by copying from dist bytes back,
// byte by byte in increasing order as far as the result is concerned (so a
// distance shorter than the length replicates a pattern). The caller has
// checked 0 < dist <= op and op+n <= len(dst). It returns op+n.
func blzCopyMatch(dst []byte, op, dist, n int) int {
	m := op - dist
	end := op + n
	if end+32 <= len(dst) {
		// Spare room after the match: block copies may spill.
		switch {
		case dist >= 16:
			// Each 16-byte block is read from bytes already final
			// (dist >= 16), so block copies give the LZ semantics.
			if n <= 32 {
				*(*[16]byte)(dst[op : op+16]) = *(*[16]byte)(dst[m : m+16])
				*(*[16]byte)(dst[op+16 : op+32]) = *(*[16]byte)(dst[m+16 : m+32])
				return end
			}
			if dist >= n {
				copy(dst[op:end], dst[m:m+n])
				return end
			}
			for op < end {
				*(*[16]byte)(dst[op : op+16]) = *(*[16]byte)(dst[m : m+16])
				op += 16
				m += 16
			}
			return end
		case dist == 1:
			v := uint64(dst[m]) * 0x0101010101010101
			if n <= 32 {
				binary.LittleEndian.PutUint64(dst[op:], v)
				binary.LittleEndian.PutUint64(dst[op+8:], v)
				binary.LittleEndian.PutUint64(dst[op+16:], v)
				binary.LittleEndian.PutUint64(dst[op+24:], v)
				return end
			}
		case dist >= 8:
			for op < end {
				binary.LittleEndian.PutUint64(dst[op:], binary.LittleEndian.Uint64(dst[m:]))
				op += 8
				m += 8
			}
			return end
		default:
			// 2 <= dist < 8: write the first 8 bytes one by one,
			// after which the pattern can be copied 8 bytes at a
			// time from a distance that is a multiple of dist and
			// at least 8.
			if n <= 32 {
				for i := 0; i < 8; i++ {
					dst[op+i] = dst[m+i]
				}
				step := blzStep[dist]
				p, q := op+8, op+8-step
				for p < end {
					binary.LittleEndian.PutUint64(dst[p:], binary.LittleEndian.Uint64(dst[q:]))
					p += 8
					q += 8
				}
				return end
			}
		}
	}
	if dist >= n {
		copy(dst[op:end], dst[m:m+n])
		return end
	}
	// Overlapping copy: dst[m:op] holds one period of the pattern. Copy
	// it, then keep copying from m: the span already written is always a
	// whole number of periods, so each copy can double in size.
	for op < end {
		op += copy(dst[op:end], dst[m:op])
	}
	return end
}

// blzStep[d] for 2 <= d < 8 is the smallest multiple of d that is >= 8: the
// distance from which 8-byte blocks reproduce a pattern of period d.
var blzStep = [8]int{0, 8, 8, 9, 8, 10, 12, 14}
