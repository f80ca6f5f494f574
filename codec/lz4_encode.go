package codec

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/blosc2go/blosc2/codec/internal/le"
)

// The LZ4 encoder follows LZ4_compress_fast of lz4 1.10 (lib/lz4.c,
// LZ4_compress_generic without dictionary) decision for decision, so that
// its blocks are byte for byte those of C-Blosc2 built with LZ4 1.10, for
// every input, acceleration and output capacity. Any change here must keep
// that property: TestLZ4GoldenC and the C vectors compare against C.
// Decoding stays with pierrec/lz4.

const (
	lz4MinMatch     = 4          // MINMATCH
	lz4MFLimit      = 12         // MFLIMIT: no match starts in the last 12 bytes
	lz4LastLiterals = 5          // LASTLITERALS: the last 5 bytes are literals
	lz4MinLength    = 13         // LZ4_minLength: shorter inputs are all literals
	lz4SkipTrigger  = 6          // LZ4_skipTrigger
	lz4DistanceMax  = 65535      // LZ4_DISTANCE_MAX
	lz4MaxInput     = 0x7E000000 // LZ4_MAX_INPUT_SIZE
	lz4AccelMax     = 65537      // LZ4_ACCELERATION_MAX

	// lz4.c hashes inputs shorter than LZ4_64Klimit (64 KiB + MFLIMIT - 1)
	// into 8192 16-bit entries by their first 4 bytes (byU16, hash4), and
	// longer ones into 4096 32-bit entries by their first 5 (byU32, hash5):
	// 16 KiB either way (LZ4_MEMORY_USAGE 14).
	lz4SmallLimit = 64<<10 + lz4MFLimit - 1
	lz4SmallBits  = 13
	lz4LargeBits  = 12
	lz4TableMask  = 1<<lz4SmallBits - 1
)

// lz4Bound is LZ4_compressBound: below it, lz4.c checks the output's room
// as it writes (limitedOutput) and gives up when it might not fit.
func lz4Bound(n int) int { return n + n/255 + 16 }

// lz4Table is a hash table of positions, as lz4.c keeps it: 8192 16-bit
// entries for small inputs (byU16), 4096 32-bit ones for large inputs
// (byU32), 16 KiB either way, so that the table shares the first level
// cache with the block and its output. The encoder is compiled for each
// entry type.
type lz4Table[E uint16 | uint32] [1 << lz4SmallBits]E

var (
	lz4SmallTables = sync.Pool{New: func() any { return new(lz4Table[uint16]) }}
	lz4LargeTables = sync.Pool{New: func() any { return new(lz4Table[uint32]) }}
)

// lz4Windows recycles the windows of dictionary and input that
// lz4CompressDict compresses in, one per stream of a dictionary chunk.
var lz4Windows = sync.Pool{New: func() any { return new([]byte) }}

// lz4Hash is lz4.c's LZ4_hashPosition of the 8 bytes v at a position: hash4
// of the low 4 for small inputs, hash5 of the low 5 for large ones.
func lz4Hash(v uint64, small bool) uint32 {
	if small {
		return uint32(v) * 2654435761 >> (32 - lz4SmallBits)
	}
	return uint32((v << 24) * 889523592379 >> (64 - lz4LargeBits))
}

// lz4Count is LZ4_count: how many bytes src[in:limit] and src[match:] have
// in common, match < in.
func lz4Count(src []byte, in, match, limit int) int {
	start := in
	// Two words a turn: long matches (runs in shuffled data) are common.
	for in+16 <= limit {
		if x := le.Load64(src, in) ^ le.Load64(src, match); x != 0 {
			return in + bits.TrailingZeros64(x)>>3 - start
		}
		if x := le.Load64(src, in+8) ^ le.Load64(src, match+8); x != 0 {
			return in + 8 + bits.TrailingZeros64(x)>>3 - start
		}
		in += 16
		match += 16
	}
	if in+8 <= limit {
		if x := le.Load64(src, in) ^ le.Load64(src, match); x != 0 {
			return in + bits.TrailingZeros64(x)>>3 - start
		}
		in += 8
		match += 8
	}
	for in < limit && src[in] == src[match] {
		in++
		match++
	}
	return in - start
}

// lz4Compress compresses src into dst as LZ4_compress_fast(src, dst,
// len(src), len(dst), acceleration) does and returns the block's size, or
// 0 when lz4.c gives up (the output might not fit in dst, or src is larger
// than LZ4_MAX_INPUT_SIZE).
func lz4Compress(dst, src []byte, acceleration int) int {
	if len(src) == 0 || len(src) > lz4MaxInput {
		return lz4CompressEdge(dst, src)
	}
	if len(src) < lz4SmallLimit {
		t := lz4SmallTables.Get().(*lz4Table[uint16])
		defer lz4SmallTables.Put(t)
		clear(t[:])
		return lz4CompressBlock(dst, lz4Window{buf: src}, lz4Acceleration(acceleration), t)
	}
	t := lz4LargeTables.Get().(*lz4Table[uint32])
	defer lz4LargeTables.Put(t)
	clear(t[:1<<lz4LargeBits])
	return lz4CompressBlock(dst, lz4Window{buf: src}, lz4Acceleration(acceleration), t)
}

// lz4CompressDict compresses src into dst as C-Blosc2 does with a
// dictionary: LZ4_loadDict(stream, dict), then
// LZ4_compress_fast_continue(stream, src, dst, len(src), len(dst),
// acceleration), with dict and src in separate buffers. Matches may reach
// into the last 64 KiB of dict; the block decodes with that dictionary.
func lz4CompressDict(dst, src, dict []byte, acceleration int) int {
	if len(src) == 0 || len(src) > lz4MaxInput {
		return lz4CompressEdge(dst, src)
	}
	// LZ4_loadDict keeps the last 64 KiB, or nothing from a dictionary
	// shorter than a hash unit (8 bytes). Either way its positions count
	// from 64 KiB below the input's first (currentOffset), and, the
	// dictionary being shorter than that, the encoder skips table entries
	// below the dictionary (dictSmall): the empty ones.
	if len(dict) < 8 {
		dict = nil
	}
	dict = dict[max(0, len(dict)-lz4DistanceMax-1):]
	// The window holds the dictionary and the input one after the other,
	// so that a match crossing from one into the other is counted as
	// lz4.c counts it in two steps.
	wp := lz4Windows.Get().(*[]byte)
	defer lz4Windows.Put(wp)
	buf := append(append((*wp)[:0], dict...), src...)
	*wp = buf
	w := lz4Window{buf: buf, start: len(dict), off: lz4DistanceMax + 1 - len(dict)}
	t := lz4LargeTables.Get().(*lz4Table[uint32])
	defer lz4LargeTables.Put(t)
	clear(t[:1<<lz4LargeBits])
	for p := 0; p+8 <= len(dict); p += 3 {
		t[lz4Hash(le.Load64(buf, p), false)] = uint32(p + w.off)
	}
	return lz4CompressBlock(dst, w, lz4Acceleration(acceleration), t)
}

// lz4Acceleration clamps an acceleration as lz4.c does.
func lz4Acceleration(a int) int {
	return min(max(a, 1), lz4AccelMax)
}

// lz4CompressEdge is lz4.c's answer for an empty input (a block of one
// token) and for one beyond LZ4_MAX_INPUT_SIZE (0).
func lz4CompressEdge(dst, src []byte) int {
	if len(src) > 0 || len(dst) == 0 {
		return 0
	}
	dst[0] = 0
	return 1
}

// lz4Window is what a block is compressed in: buf[start:] is the input,
// buf[:start] the dictionary before it (none without one). The hash table
// records position p as p+off, off being the distance lz4.c's indices
// have from positions in buf: 0 without a dictionary, so that an empty
// entry is position 0 as in lz4.c; 64 KiB minus the dictionary's length
// with one, so that an empty entry is a negative position, skipped.
type lz4Window struct {
	buf        []byte
	start, off int
}

// lz4CompressBlock is the body of lz4Compress and lz4CompressDict: it
// compresses w's input into dst, t holding the dictionary's positions or
// none; 16-bit entries for a small input (hash4), 32-bit ones for a large
// one (hash5).
func lz4CompressBlock[E uint16 | uint32](dst []byte, w lz4Window, acceleration int, t *lz4Table[E]) int {
	small := unsafe.Sizeof(E(0)) == 2
	src, start, off := w.buf, w.start, w.off
	// limited: lz4.c's limitedOutput, checking the room left before each
	// sequence with the same conservative sums, so it gives up exactly
	// when C does.
	limited := len(dst) < lz4Bound(len(src)-start)
	anchor, ip, op := start, start, 0
	if len(src)-start >= lz4MinLength {
		mfLimitPlusOne := len(src) - lz4MFLimit + 1
		matchLimit := len(src) - lz4LastLiterals
		// Every position hashed or compared lies below mfLimitPlusOne, so
		// its 8 bytes are within src.
		t[lz4Hash(le.Load64(src, ip), small)&lz4TableMask] = E(ip + off)
		ip++
	sequences:
		for {
			var match int
			ip, match = lz4Search(src, t, ip, off, mfLimitPlusOne, acceleration)
			if ip < 0 {
				break sequences
			}

			// Catch up: extend the match backwards over the literals, not
			// below the start of the dictionary or of the input, whichever
			// the match is in.
			low := 0
			if match >= start {
				low = start
			}
			for ip > anchor && match > low && src[ip-1] == src[match-1] {
				ip--
				match--
			}

			// The literals.
			litLength := ip - anchor
			token := op
			op++
			if limited && op+litLength+(2+1+lz4LastLiterals)+litLength/255 > len(dst) {
				return 0
			}
			// The token is written with the match's length.
			tok := byte(min(litLength, 15) << 4)
			if litLength >= 15 {
				op = lz4PutLength(dst, op, litLength-15)
			}
			if litLength <= 32 && op+32 <= len(dst) && anchor+32 <= len(src) {
				// Short runs, the common case, in word moves; the bytes
				// written past the run are overwritten next.
				d := dst[op : op+32]
				binary.LittleEndian.PutUint64(d, le.Load64(src, anchor))
				binary.LittleEndian.PutUint64(d[8:], le.Load64(src, anchor+8))
				if litLength > 16 {
					binary.LittleEndian.PutUint64(d[16:], le.Load64(src, anchor+16))
					binary.LittleEndian.PutUint64(d[24:], le.Load64(src, anchor+24))
				}
				op += litLength
			} else {
				op += copy(dst[op:op+litLength], src[anchor:ip])
			}

			for {
				// The match: offset, then the length beyond MINMATCH.
				binary.LittleEndian.PutUint16(dst[op:], uint16(ip-match))
				op += 2
				// The first word compared here: on filtered data most
				// matches end in it, and the call cost more than the
				// comparison.
				var matchCode int
				if in := ip + lz4MinMatch; in+8 <= matchLimit {
					if x := le.Load64(src, in) ^ le.Load64(src, match+lz4MinMatch); x != 0 {
						matchCode = bits.TrailingZeros64(x) >> 3
					} else {
						matchCode = 8 + lz4Count(src, in+8, match+lz4MinMatch+8, matchLimit)
					}
				} else {
					matchCode = lz4Count(src, in, match+lz4MinMatch, matchLimit)
				}
				ip += matchCode + lz4MinMatch
				if limited && op+(1+lz4LastLiterals)+(matchCode+240)/255 > len(dst) {
					return 0
				}
				dst[token] = tok + byte(min(matchCode, 15))
				if matchCode >= 15 {
					op = lz4PutLength(dst, op, matchCode-15)
				}
				anchor = ip

				if ip >= mfLimitPlusOne {
					break sequences
				}
				t[lz4Hash(le.Load64(src, ip-2), small)&lz4TableMask] = E(ip - 2 + off)

				// A match right at the end of this one is taken at once,
				// with no literals.
				v := le.Load64(src, ip)
				h := lz4Hash(v, small) & lz4TableMask
				match = int(t[h]) - off
				t[h] = E(ip + off)
				if match < 0 || match+lz4DistanceMax < ip || le.Load32(src, match) != uint32(v) {
					break
				}
				token, tok = op, 0
				op++
			}
			ip++
		}
	}

	lastRun := len(src) - anchor
	if limited && op+lastRun+1+(lastRun+255-15)/255 > len(dst) {
		return 0
	}
	if lastRun >= 15 {
		dst[op] = 15 << 4
		op = lz4PutLength(dst, op+1, lastRun-15)
	} else {
		dst[op] = byte(lastRun << 4)
		op++
	}
	return op + copy(dst[op:], src[anchor:])
}

// lz4Search finds the next match from position ip on, hashing and
// recording each position it tries (as position+off) and stepping faster
// the longer none is found, and returns its position and that of its
// source, or ip = -1 when it reaches limit. Every position tried is below
// limit, so its 8 bytes are within src. (Its own function: in the
// encoder's body the search loop's state did not fit in registers.)
func lz4Search[E uint16 | uint32](src []byte, t *lz4Table[E], ip, off, limit, acceleration int) (int, int) {
	small := unsafe.Sizeof(E(0)) == 2
	h := lz4Hash(le.Load64(src, ip), small)
	step := 1
	searchMatchNb := acceleration << lz4SkipTrigger
	for {
		next := ip + step
		step = searchMatchNb >> lz4SkipTrigger
		searchMatchNb++
		if next > limit {
			return -1, 0
		}
		// Masked where used, so that the compiler sees the index in
		// the table's bounds (lz4Hash's values are already).
		match := int(t[h&lz4TableMask]) - off
		nextH := lz4Hash(le.Load64(src, next), small)
		t[h&lz4TableMask] = E(ip + off)
		// The distance test never fails for small inputs, whose
		// positions are all below 64 KiB; match < 0 is an empty entry
		// with a dictionary.
		if match >= 0 && match+lz4DistanceMax >= ip && le.Load32(src, match) == le.Load32(src, ip) {
			return ip, match
		}
		ip, h = next, nextH
	}
}

// lz4PutLength writes the rest n of a literal or match length at dst[op:]
// (255s, then what is left) and returns the position after it.
func lz4PutLength(dst []byte, op, n int) int {
	for ; n >= 255; n -= 255 {
		dst[op] = 255
		op++
	}
	dst[op] = byte(n)
	return op + 1
}
