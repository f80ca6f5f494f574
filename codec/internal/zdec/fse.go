package zdec

import (
	"encoding/binary"
	"errors"
	"math/bits"

	"github.com/blosc2go/blosc2/codec/internal/zfmt"
)

// fseEntry is one state of a sequence symbol's FSE decoding table, with
// the symbol's baseline and extra-bit count folded in: the state reads
// nbBits bits to find the next state (newState + those bits), and the
// symbol is baseline plus addBits extra bits. The four are packed in one
// word, read with one load, as libzstd's ZSTD_seqSymbol is: the decoder
// keeps three entries in registers where a struct's fields were each
// loaded through a pointer kept on the stack.
type fseEntry uint64

// The byte offsets of an entry's fields in its little-endian word (the
// baseline's is 0): decodeFast reads them where they lie, by these
// names (go_asm.h's const_entry*).
const (
	entryNewState = 4 // 2 bytes
	entryNbBits   = 6
	entryAddBits  = 7
)

func newFSEEntry(baseline uint32, newState uint16, nbBits, addBits uint8) fseEntry {
	return fseEntry(uint64(baseline) | uint64(newState)<<(8*entryNewState) | uint64(nbBits)<<(8*entryNbBits) | uint64(addBits)<<(8*entryAddBits))
}

func (e fseEntry) baseline() uint32 { return uint32(e) }
func (e fseEntry) newState() uint32 { return uint32(e>>(8*entryNewState)) & 0xFFFF }
func (e fseEntry) nbBits() uint     { return uint(e>>(8*entryNbBits)) & 0xFF }
func (e fseEntry) addBits() uint    { return uint(e >> (8 * entryAddBits)) }

// fseTable is a decoding table of 1<<log states.
type fseTable struct {
	log     uint8
	entries [1 << maxFSELog]fseEntry
}

const maxFSELog = zfmt.MaxFSELog

var errCorrupt = errors.New("corrupt")

// build fills t from normalized counts norm (sum 1<<log) of kind's
// symbols, as FSE_buildDTable does.
func (t *fseTable) build(kind int, norm []int16, log uint8) error {
	size := 1 << log
	var symbols [1 << maxFSELog]uint8
	if _, err := zfmt.Spread(symbols[:], norm, log); err != nil {
		return errCorrupt
	}
	// Per symbol: its entries' baseline and extra bits, and the next of
	// its states' counts. Indexed by a byte, so without bounds checks.
	var fixed [256]fseEntry
	var next [256]uint16
	for s, n := range norm {
		base, add := zfmt.SymbolValue(kind, s)
		fixed[uint8(s)] = newFSEEntry(base, 0, 0, add)
		next[uint8(s)] = uint16(max(n, 1))
	}
	t.log = log
	for i, s := range symbols[:size] {
		x := next[s]
		next[s]++
		nb := log - uint8(bits.Len16(x)-1)
		t.entries[i] = fixed[s] | newFSEEntry(0, uint16(int(x)<<nb-size), nb, 0)
	}
	return nil
}

// buildRLE makes t the one-state table of symbol s.
func (t *fseTable) buildRLE(kind int, s int) {
	base, add := zfmt.SymbolValue(kind, s)
	t.log = 0
	t.entries[0] = newFSEEntry(base, 0, 0, add)
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
		if b+8 <= uint(len(src)) {
			v = binary.LittleEndian.Uint64(src[b:])
		} else {
			for i := uint(0); int(b+i) < len(src); i++ {
				v |= uint64(src[b+i]) << (8 * i)
			}
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
