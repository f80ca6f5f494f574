package codec

import (
	"encoding/binary"
	"math/bits"
	"sync"
)

// The BloscLZ encoder follows blosclz_compress of C-Blosc2 2.16.0…3.3.2
// (BloscLZ 2.5.3) decision for decision, so that its output is byte for byte
// the same as C's for every input, level and output capacity
// (blosc/blosclz.c). Any change here must keep that property: the tests
// compare against streams written by C. For Blosc1 chunks it follows
// C-Blosc 1.21's BloscLZ 2.5.1 instead (blzVariant), which differs only in
// its entropy probe and in backing off 3 bytes, keeping matches of 3, when
// the chunk does not split its blocks or the probe predicts a ratio below 4;
// TestBlosc1MatrixAgainstC compares those with C-Blosc 1.21's chunks.

const (
	blzHashLog = 14 // HASH_LOG: the largest table, used by clevel >= 3
	blzIPShift = 4  // the encoder backs off this many bytes from a match's end
	blzMinLen  = 4  // shortest (backed-off) match worth encoding

	// BloscLZ 2.5.1 (C-Blosc 1.21) probes with a 4 KiB table and backs off
	// 3 bytes, keeping matches of 3 or more.
	blz251ProbeHashLog = 12
	blz251IPShift      = 3
	blz251MinLen       = 3
)

// blzVariant says which BloscLZ's decisions the encoder reproduces: 2.5.3
// (C-Blosc2, the zero value) or 2.5.1 (C-Blosc 1.21, for Blosc1 chunks),
// whose match rule depends on whether the chunk splits its blocks.
type blzVariant struct {
	v251  bool
	split bool // 2.5.1: the chunk's blocks are split (header bit 4 clear)
}

// Per-clevel parameters (index = clevel).
var (
	// Hash table size (log2) for the probe and the compressor.
	blzHashLogs = [10]uint{0, blzHashLog - 2, blzHashLog - 1, blzHashLog, blzHashLog,
		blzHashLog, blzHashLog, blzHashLog, blzHashLog, blzHashLog}
	// The compressor gives up when the probe predicts a ratio below this.
	blzThreshold = [10]float64{0, 2, 1.5, 1.2, 1.2, 1.2, 1.2, 1.15, 1.1, 1.0}
)

// blzTables recycles hash tables: one is 64 KiB, too big for the stack of
// every goroutine that compresses a stream, and C zeroes it anyway.
var blzTables = sync.Pool{New: func() any { return new([1 << blzHashLog]uint32) }}

// Compress compresses src into dst with BloscLZ at level clevel and returns
// the compressed size, or 0 when the stream does not fit in len(dst), when
// the entropy probe predicts too small a ratio, or when src is shorter than
// 16 bytes or dst shorter than 66 (all as C-Blosc2 does; the caller then
// stores src raw). Like C, it keeps one byte of dst in reserve, so a
// non-zero result is always less than len(dst). Levels above 9 are treated
// as 9; a level of 0 or below returns 0 (store), since C's behaviour there
// is undefined. Inputs of 2 GiB or more (beyond C's int) also return 0.
// meta and dict are ignored: BloscLZ has no parameters and no dictionary.
func (blosclzCodec) Compress(dst, src []byte, clevel int, _ uint8, _ []byte) (int, error) {
	return blosclzCompressVariant(dst, src, clevel, blzVariant{})
}

// blosclz1Codec is BloscLZ as C-Blosc 1.21 (BloscLZ 2.5.1) compresses the
// streams of a chunk that splits its blocks or not; it decodes as BloscLZ.
type blosclz1Codec struct {
	blosclzCodec
	split bool
}

func (c blosclz1Codec) Compress(dst, src []byte, clevel int, _ uint8, _ []byte) (int, error) {
	return blosclzCompressVariant(dst, src, clevel, blzVariant{v251: true, split: c.split})
}

func blosclzCompressVariant(dst, src []byte, clevel int, v blzVariant) (int, error) {
	if clevel <= 0 {
		return 0, nil
	}
	if clevel > 9 {
		clevel = 9
	}
	// C probes before checking these sizes, but both lead to 0, so the
	// order does not show.
	if len(src) < 16 || len(dst) < 66 || int64(len(src)) >= 1<<31 {
		return 0, nil
	}
	ht := blzTables.Get().(*[1 << blzHashLog]uint32)
	n := blosclzCompress(dst, src, clevel, ht, v)
	blzTables.Put(ht)
	return n, nil
}

// blzHash is HASH_FUNCTION: Knuth's multiplicative hash of 4 bytes, keeping
// the top 32-shift bits. The masks change nothing for the shifts in use
// (18 to 20) but let the compiler drop shift and bounds checks.
func blzHash(seq uint32, shift uint) uint32 {
	return (seq * 2654435761) >> (shift & 31) & (1<<blzHashLog - 1)
}

// blzExtend returns how far a match that has matched up to p (copying from
// r < p) reaches: one past the first mismatching byte, or bound if the bytes
// agree up to bound. This is the common result of C's get_match,
// get_match_16, get_match_32 and get_run (which all stop *after* the first
// differing byte), so it does not depend on C's build options.
func blzExtend(in []byte, p, bound, r int) int {
	if bound > len(in) {
		bound = len(in)
	}
	for p+8 <= bound {
		x := binary.LittleEndian.Uint64(in[p:]) ^ binary.LittleEndian.Uint64(in[r:])
		if x != 0 {
			return p + bits.TrailingZeros64(x)>>3 + 1
		}
		p += 8
		r += 8
	}
	for p < bound {
		if in[p] != in[r] {
			return p + 1
		}
		p++
		r++
	}
	return p
}

// blzProbe is get_cratio: a dry run of the compressor over (at most the
// first 1<<hl bytes of) in that only counts output bytes, returning the
// predicted compression ratio. It differs from the real compressor in its
// byte counting for matches and in never hashing a second position.
//
// C counts every literal as it passes (one byte, plus a count byte each
// time the run reaches blzMaxCopy); here a run's bytes are counted when it
// ends, which gives the same totals and keeps the per-byte loop to the
// hash lookup: on data that does not compress, the probe is most of what
// the compressor does.
// ipshift and minlen are the back-off and the shortest match kept.
func blzProbe(in []byte, hl uint, ipshift, minlen int, ht *[1 << blzHashLog]uint32) float64 {
	hashlen := 1 << hl
	if len(in) > hashlen {
		in = in[:hashlen]
	}
	clear(ht[:hashlen])
	shift := 32 - hl
	bound := len(in) - 1

	ip := 0
	oc := 5
	copied := 4   // length of the literal run at runStart (below blzMaxCopy)
	runStart := 0 // literals in [runStart, ip) are not counted yet
	limit := len(in) - 12
	for ip < limit {
		// Literals until a candidate match: this loop keeps few values
		// live, so the compiler keeps them all in registers. The loop
		// bound is written against len(in) so that it can drop the
		// bounds checks of the loads at ip.
		ref := 0
		for ; ip < len(in)-12; ip++ {
			seq := binary.LittleEndian.Uint32(in[ip:])
			h := blzHash(seq, shift)
			ref = int(ht[h])
			ht[h] = uint32(ip)
			// Every table entry is an earlier position (or 0), so
			// ref < ip is C's "distance != 0".
			if ref < ip && ip-ref < blzMaxFar && binary.LittleEndian.Uint32(in[ref:]) == seq {
				break
			}
		}
		if ip >= limit {
			break
		}
		p := blzExtend(in, ip+4, bound, ref+4) - ipshift
		n := p - ip
		if n < minlen {
			ip++ // a literal after all
			continue
		}
		// Count the literal run up to ip (not in a closure, which would
		// keep ip in memory).
		c := copied + ip - runStart
		oc += ip - runStart + c/blzMaxCopy
		if c%blzMaxCopy == 0 {
			oc-- // no literal run: its count byte goes
		}
		copied = 0
		if n >= 7 {
			oc += (n-7)/255 + 1
		}
		// The match, plus the next run's count byte.
		if ip-ref-1 < blzMaxDistance {
			oc += 2 + 1
		} else {
			oc += 4 + 1
		}
		ht[blzHash(binary.LittleEndian.Uint32(in[p:]), shift)] = uint32(p)
		ip = p + 2
		runStart = ip
	}
	oc += ip - runStart + (copied+ip-runStart)/blzMaxCopy
	return float64(ip) / float64(oc)
}

// blosclzCompress is blosclz_compress for 1 <= clevel <= 9, len(src) >= 16
// and len(dst) >= 66, with the decisions of BloscLZ variant v. It returns
// 0 where C gives up.
func blosclzCompress(dst, src []byte, clevel int, ht *[1 << blzHashLog]uint32, v blzVariant) int {
	length := len(src)
	hl := blzHashLogs[clevel]
	ipshift, minlen := blzIPShift, blzMinLen

	if v.v251 {
		// Entropy probe over the last quarter of the input, at most 4 KiB
		// of it; low-entropy data and unsplit blocks then get the
		// shorter back-off and matches.
		maxlen := length / 4
		cratio := blzProbe(src[length-maxlen:], blz251ProbeHashLog, blz251IPShift, blz251MinLen, ht)
		if cratio < blzThreshold[clevel] {
			return 0
		}
		if !v.split || cratio < 4 {
			ipshift, minlen = blz251IPShift, blz251MinLen
		}
	} else {
		// Entropy probe over the tail of the input: 1/8, 1/4, 1/2 or all
		// of it depending on the level, and at most 1<<hl bytes of that.
		maxlen := length
		switch {
		case clevel < 2:
			maxlen /= 8
		case clevel < 4:
			maxlen /= 4
		case clevel < 7:
			maxlen /= 2
		}
		if blzProbe(src[length-maxlen:], hl, ipshift, minlen, ht) < blzThreshold[clevel] {
			return 0
		}
	}

	bound := length - 1
	clear(ht[:1<<hl])
	shift := 32 - hl

	// The first literal run's count byte is a placeholder (31), patched
	// when the run ends; likewise after every match.
	dst[0] = blzMaxCopy - 1
	copy(dst[1:5], src[:4])
	op := 5
	ip := 4
	copied := 4

	for ip < len(src)-12 {
		anchor := ip
		seq := binary.LittleEndian.Uint32(src[ip:])
		h := blzHash(seq, shift)
		ref := int(ht[h])
		ht[h] = uint32(anchor)

		// ref < anchor is C's "distance != 0" (entries are earlier
		// positions or 0).
		if ref < anchor && anchor-ref < blzMaxFar && binary.LittleEndian.Uint32(src[ref:]) == seq {
			p := blzExtend(src, anchor+4, bound, ref+4) - ipshift
			n := p - anchor
			dist := anchor - ref - 1 // biased, as stored
			if n >= minlen && (n > 5 || dist < blzMaxDistance) {
				// Close the pending literal run, or drop its
				// unused count byte.
				if copied > 0 {
					dst[op-copied-1] = byte(copied - 1)
				} else {
					op--
				}
				copied = 0
				if op = blzEmitMatch(dst, op, n, dist); op < 0 {
					return 0
				}
				// Hash the position where the match was cut
				// back to; clevel 9 also hashes the next one
				// (from the same 4 loaded bytes shifted right,
				// i.e. 3 bytes, exactly as C does).
				seq = binary.LittleEndian.Uint32(src[p:])
				ht[blzHash(seq, shift)] = uint32(p)
				if clevel == 9 {
					ht[blzHash(seq>>8, shift)] = uint32(p + 1)
				}
				ip = p + 2
				continue
			}
		}

		// LITERAL: needs room for the byte and a possible count byte
		// for the next run. (Written as op >= len(dst)-1 rather than
		// op+2 > len(dst) so that the compiler drops bounds checks.)
		if op >= len(dst)-1 {
			return 0
		}
		dst[op] = src[anchor]
		ip = anchor + 1
		copied++
		if copied == blzMaxCopy {
			copied = 0
			dst[op+1] = blzMaxCopy - 1
			op++
		}
		op++
	}

	// Trailing literals, from wherever the main loop stopped up to the
	// last byte.
	for ip <= bound {
		if op >= len(dst)-1 {
			return 0
		}
		dst[op] = src[ip]
		ip++
		copied++
		if copied == blzMaxCopy {
			copied = 0
			dst[op+1] = blzMaxCopy - 1
			op++
		}
		op++
	}
	if copied > 0 {
		dst[op-copied-1] = byte(copied - 1)
	} else {
		op--
	}
	dst[0] |= 1 << 5 // format marker
	return op
}

// blzEmitMatch writes a match of length field n (the decoder adds 2) at
// biased distance dist into dst[op:], followed by the placeholder count
// byte of the next literal run, and returns the new op, or -1 when it does
// not fit. C checks for room before each group of bytes it writes (the
// MATCH_* macros) and again before the count byte; as op only grows, that
// is the same as one check of the final size.
func blzEmitMatch(dst []byte, op, n, dist int) int {
	far := dist >= blzMaxDistance
	size := 2
	if far {
		dist -= blzMaxDistance
		size = 4
	}
	if n >= 7 {
		size += 1 + (n-7)/255
	}
	if op+size+1 > len(dst) {
		return -1
	}
	hi := byte(31)
	if !far {
		hi = byte(dist >> 8)
	}
	if n < 7 {
		dst[op] = byte(n<<5) + hi
		op++
	} else {
		dst[op] = 7<<5 + hi
		op++
		for n -= 7; n >= 255; n -= 255 {
			dst[op] = 255
			op++
		}
		dst[op] = byte(n)
		op++
	}
	if far {
		dst[op] = 255
		dst[op+1] = byte(dist >> 8)
		dst[op+2] = byte(dist)
		op += 3
	} else {
		dst[op] = byte(dist)
		op++
	}
	dst[op] = blzMaxCopy - 1
	return op + 1
}
