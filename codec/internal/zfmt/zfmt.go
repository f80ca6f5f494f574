// Package zfmt holds the facts of the Zstandard format (RFC 8878) that
// both our decoder (zdec) and our encoder (zenc) need: the sequence codes'
// baselines and extra bits, the predefined distributions, and how an FSE
// table spreads its symbols over its states.
package zfmt

import (
	"encoding/binary"
	"errors"
	"slices"
)

// Kinds of sequence symbols: literal lengths, match lengths, offsets.
const (
	LL = iota
	ML
	OF
)

// MaxSymbol and MaxLog are each kind's largest symbol and largest
// accuracy log (RFC 8878, 3.1.1.3.2.1); MaxFSELog is the largest of all.
var (
	MaxSymbol = [3]int{35, 52, 31}
	MaxLog    = [3]uint8{9, 9, 8}
)

const MaxFSELog = 9

// DefaultNorm and DefaultLog are each kind's predefined distribution
// (RFC 8878, 3.1.1.3.2.2), -1 being "less than 1".
var (
	DefaultNorm = [3][]int16{
		LL: {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
			2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1},
		ML: {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
			1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
			1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1},
		OF: {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
			1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1},
	}
	DefaultLog = [3]uint8{LL: 6, ML: 6, OF: 5}
)

// Literal and match length codes: baselines and extra bits (RFC 8878,
// 3.1.1.3.2.1.1). Match length baselines are lengths, 3 and up.
var (
	LLBase = [36]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
		8192, 16384, 32768, 65536}
	LLBits = [36]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	MLBase = [53]uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
		35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
		4099, 8195, 16387, 32771, 65539}
	MLBits = [53]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11,
		12, 13, 14, 15, 16}
)

// MinMatch is the shortest match a sequence can code.
const MinMatch = 3

// SymbolValue returns kind's baseline and extra bits for symbol s: for
// offsets, the offset code's 1<<s and s bits.
func SymbolValue(kind int, s int) (uint32, uint8) {
	switch kind {
	case LL:
		return LLBase[s], LLBits[s]
	case ML:
		return MLBase[s], MLBits[s]
	}
	return 1 << s, uint8(s)
}

// ErrBadDistribution is returned by Spread for counts that do not fill
// the table exactly.
var ErrBadDistribution = errors.New("zfmt: normalized counts do not fill the table")

// Spread places the symbols of the normalized counts norm (sum 1<<log,
// -1 counting as 1) over the table's states, as FSE_buildDTable and
// FSE_buildCTable both do: the "less than 1" symbols take the last
// states, the others are spread with a fixed step. It fills
// symbols[:1<<log] and returns the first state of the "less than 1"
// symbols' (1<<log when there are none).
func Spread(symbols []uint8, norm []int16, log uint8) (int, error) {
	size := 1 << log
	step := size>>1 + size>>3 + 3
	mask := size - 1
	if size >= 2 && size <= 1<<MaxFSELog && !slices.ContainsFunc(norm, func(n int16) bool { return n < 0 }) {
		// No "less than 1" symbol, so no state is skipped: the k-th
		// symbol in count order takes state k*step, as libzstd's
		// ZSTD_buildFSETable lays them out. The counts are written out
		// in order 8 bytes at a time, then dealt two states a step.
		var linear [1<<MaxFSELog + 8]uint8
		pos := 0
		sv := uint64(0)
		for _, n := range norm {
			if int(n) > size-pos {
				return 0, ErrBadDistribution
			}
			for i := 0; i < int(n); i += 8 {
				binary.LittleEndian.PutUint64(linear[pos+i:], sv)
			}
			pos += int(n)
			sv += 0x0101010101010101
		}
		if pos != size {
			return 0, ErrBadDistribution
		}
		symbols = symbols[:size]
		at := 0
		for k := 0; k < size; k += 2 {
			symbols[at] = linear[k]
			symbols[(at+step)&mask] = linear[k+1]
			at = (at + 2*step) & mask
		}
		return size, nil
	}
	return spreadStepping(symbols, norm, log)
}

// spreadStepping is Spread stepping from state to state, skipping the
// "less than 1" symbols' states.
func spreadStepping(symbols []uint8, norm []int16, log uint8) (int, error) {
	size := 1 << log
	step := size>>1 + size>>3 + 3
	mask := size - 1
	high := size - 1
	for s, n := range norm {
		if n == -1 {
			symbols[high] = uint8(s)
			high--
		}
	}
	pos := 0
	for s, n := range norm {
		for range int(max(n, 0)) {
			if pos > high {
				return 0, ErrBadDistribution
			}
			symbols[pos] = uint8(s)
			pos = (pos + step) & mask
			for pos > high {
				pos = (pos + step) & mask
			}
		}
	}
	if pos != 0 {
		return 0, ErrBadDistribution
	}
	return high + 1, nil
}
