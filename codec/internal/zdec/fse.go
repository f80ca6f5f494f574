package zdec

import (
	"errors"
	"math/bits"
)

// fseEntry is one state of a sequence symbol's FSE decoding table, with
// the symbol's baseline and extra-bit count folded in: the state reads
// nbBits bits to find the next state (newState + those bits), and the
// symbol is baseline plus addBits extra bits.
type fseEntry struct {
	baseline uint32
	newState uint16
	nbBits   uint8
	addBits  uint8
}

// fseTable is a decoding table of 1<<log states.
type fseTable struct {
	log     uint8
	entries [1 << maxFSELog]fseEntry
}

const maxFSELog = 9

// Symbol kinds: literal lengths, match lengths, offsets.
const (
	kindLL = iota
	kindML
	kindOF
)

// maxSymbol and maxLog are each kind's largest symbol and accuracy log
// (RFC 8878, 3.1.1.3.2.1).
var (
	maxSymbol = [3]int{35, 52, 31}
	maxLog    = [3]uint8{9, 9, 8}
)

// The predefined distributions (RFC 8878, 3.1.1.3.2.2), -1 being "less
// than 1".
var (
	llDefault = []int16{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1}
	mlDefault = []int16{1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1}
	ofDefault = []int16{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}
)

// Literal and match length codes: baselines and extra bits (RFC 8878,
// 3.1.1.3.2.1.1).
var (
	llBase = [36]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
		8192, 16384, 32768, 65536}
	llBits = [36]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	mlBase = [53]uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
		35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
		4099, 8195, 16387, 32771, 65539}
	mlBits = [53]uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11,
		12, 13, 14, 15, 16}
)

var errCorrupt = errors.New("corrupt")

// symbolValue returns kind's baseline and extra bits for symbol s: for
// offsets, the offset code's 1<<s and s bits.
func symbolValue(kind int, s int) (uint32, uint8) {
	switch kind {
	case kindLL:
		return llBase[s], llBits[s]
	case kindML:
		return mlBase[s], mlBits[s]
	}
	return 1 << s, uint8(s)
}

// build fills t from normalized counts norm (sum 1<<log) of kind's
// symbols, as FSE_buildDTable does.
func (t *fseTable) build(kind int, norm []int16, log uint8) error {
	size := 1 << log
	high := size - 1
	var next [64]uint16
	var symbols [1 << maxFSELog]uint8
	for s, n := range norm {
		if n == -1 {
			symbols[high] = uint8(s)
			high--
			next[s] = 1
		} else {
			next[s] = uint16(n)
		}
	}
	step := size>>1 + size>>3 + 3
	mask := size - 1
	pos := 0
	for s, n := range norm {
		for range int(max(n, 0)) {
			symbols[pos] = uint8(s)
			pos = (pos + step) & mask
			for pos > high {
				pos = (pos + step) & mask
			}
		}
	}
	if pos != 0 {
		return errCorrupt
	}
	t.log = log
	for i := range size {
		s := symbols[i]
		x := next[s]
		next[s]++
		nb := log - uint8(bits.Len16(x)-1)
		base, add := symbolValue(kind, int(s))
		t.entries[i] = fseEntry{baseline: base, newState: uint16(int(x)<<nb - size), nbBits: nb, addBits: add}
	}
	return nil
}

// buildRLE makes t the one-state table of symbol s.
func (t *fseTable) buildRLE(kind int, s int) {
	base, add := symbolValue(kind, s)
	t.log = 0
	t.entries[0] = fseEntry{baseline: base, addBits: add}
}

// readNCount reads an FSE table description (RFC 8878, 4.1.1) of at most
// maxSym+1 symbols and accuracy log at most maxLog from src, fills norm
// and returns the log and the bytes read.
func readNCount(src []byte, norm []int16, maxSym int, maxLog uint8) ([]int16, uint8, int, error) {
	if len(src) < 1 {
		return nil, 0, 0, errCorrupt
	}
	// A forward bit reader over src.
	var bitPos uint
	peek := func(n uint) uint32 {
		var v uint64
		b := bitPos >> 3
		for i := uint(0); i < 8 && int(b+i) < len(src); i++ {
			v |= uint64(src[b+i]) << (8 * i)
		}
		return uint32(v>>(bitPos&7)) & (1<<n - 1)
	}
	log := uint8(peek(4)) + 5
	bitPos = 4
	if log > maxLog {
		return nil, 0, 0, errCorrupt
	}
	remaining := int32(1<<log) + 1
	threshold := int32(1 << log)
	nbBits := uint(log) + 1
	norm = norm[:0]
	for remaining > 1 {
		if len(norm) > maxSym || int(bitPos>>3) >= len(src) {
			return nil, 0, 0, errCorrupt
		}
		max := 2*threshold - 1 - remaining
		var count int32
		v := int32(peek(nbBits))
		if v&(threshold-1) < max {
			count = v & (threshold - 1)
			bitPos += nbBits - 1
		} else {
			count = v
			if count >= threshold {
				count -= max
			}
			bitPos += nbBits
		}
		count-- // -1 means "less than 1"
		if count < 0 {
			remaining--
		} else {
			remaining -= count
		}
		if remaining < 1 {
			return nil, 0, 0, errCorrupt
		}
		norm = append(norm, int16(count))
		if count == 0 {
			// Repeat flags: 2 bits each, 3 meaning more follow.
			for {
				r := int(peek(2))
				bitPos += 2
				for range r {
					if len(norm) > maxSym {
						return nil, 0, 0, errCorrupt
					}
					norm = append(norm, 0)
				}
				if r != 3 {
					break
				}
				if int(bitPos>>3) >= len(src) {
					return nil, 0, 0, errCorrupt
				}
			}
		}
		for remaining < threshold {
			nbBits--
			threshold >>= 1
		}
	}
	if remaining != 1 || len(norm) > maxSym+1 {
		return nil, 0, 0, errCorrupt
	}
	n := int((bitPos + 7) >> 3)
	if n > len(src) {
		return nil, 0, 0, errCorrupt
	}
	return norm, log, n, nil
}
