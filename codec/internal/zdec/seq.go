package zdec

import (
	"encoding/binary"
	"math/bits"

	"github.com/blosc2go/blosc2/codec/internal/zfmt"
)

// sequences decodes a block's sequences section src and executes it with
// the block's literals into dst at out (the frame's output starting at
// start), and returns the new position.
func (d *Decoder) sequences(dst []byte, start, out int, lits, src []byte) (int, error) {
	if len(src) < 1 {
		return 0, ErrCorrupt
	}
	nb := int(src[0])
	switch {
	case nb < 128:
		src = src[1:]
	case nb < 255:
		if len(src) < 2 {
			return 0, ErrCorrupt
		}
		nb = (nb-128)<<8 | int(src[1])
		src = src[2:]
	default:
		if len(src) < 3 {
			return 0, ErrCorrupt
		}
		nb = int(src[1]) | int(src[2])<<8 + 0x7F00
		src = src[3:]
	}
	if nb == 0 {
		if len(src) != 0 || len(lits) > len(dst)-out {
			return 0, ErrCorrupt
		}
		return out + copy(dst[out:], lits), nil
	}
	if len(src) < 1 || src[0]&3 != 0 {
		return 0, ErrCorrupt
	}
	modes := src[0]
	src = src[1:]
	// The tables' descriptions come in the order LL, OF, ML; their modes
	// in the byte's bits 7-6, 5-4 and 3-2.
	for i, k := range [3]int{zfmt.LL, zfmt.OF, zfmt.ML} {
		switch modes >> (6 - 2*i) & 3 {
		case 0:
			d.cur[k] = &predefined[k]
		case 1:
			if len(src) < 1 || int(src[0]) > zfmt.MaxSymbol[k] {
				return 0, ErrCorrupt
			}
			d.tables[k].buildRLE(k, int(src[0]))
			d.cur[k] = &d.tables[k]
			src = src[1:]
		case 2:
			norm, log, n, err := readNCount(src, d.normBuf[:], zfmt.MaxSymbol[k], zfmt.MaxLog[k])
			if err != nil {
				return 0, ErrCorrupt
			}
			if err := d.tables[k].build(k, norm, log); err != nil {
				return 0, ErrCorrupt
			}
			d.cur[k] = &d.tables[k]
			src = src[n:]
		case 3:
			if d.cur[k] == nil {
				return 0, ErrCorrupt
			}
		}
	}
	ll, of, ml := d.cur[zfmt.LL], d.cur[zfmt.OF], d.cur[zfmt.ML]

	var br bitReader
	if err := br.init(src); err != nil {
		return 0, err
	}
	llState := br.get(ll.log)
	ofState := br.get(of.log)
	mlState := br.get(ml.log)
	reps := d.reps
	litPos := 0
	for i := nb - 1; i >= 0; i-- {
		lle, ofe, mle := ll.entries[llState&stateMask], of.entries[ofState&stateMask], ml.entries[mlState&stateMask]
		br.fill()
		offset := int(ofe.baseline) + int(br.get(ofe.addBits))
		br.fill()
		mlen := int(mle.baseline) + int(br.get(mle.addBits))
		llen := int(lle.baseline) + int(br.get(lle.addBits))
		if i > 0 {
			br.fill()
			llState = uint32(lle.newState) + br.get(lle.nbBits)
			mlState = uint32(mle.newState) + br.get(mle.nbBits)
			ofState = uint32(ofe.newState) + br.get(ofe.nbBits)
		}
		if br.bitsRead > 64 {
			return 0, ErrCorrupt
		}

		// The offset, or one of the three repeated ones.
		if offset > 3 {
			offset -= 3
			reps[2], reps[1], reps[0] = reps[1], reps[0], offset
		} else {
			idx := offset - 1
			if llen == 0 {
				idx++
			}
			switch idx {
			case 0:
				offset = reps[0]
			case 1:
				offset = reps[1]
				reps[1], reps[0] = reps[0], offset
			default:
				if idx == 3 {
					offset = reps[0] - 1
				} else {
					offset = reps[2]
				}
				reps[2], reps[1], reps[0] = reps[1], reps[0], offset
			}
		}

		// Execute: the literals, then the match.
		if llen > len(lits)-litPos || llen+mlen > len(dst)-out || offset <= 0 || offset > out-start+llen || offset > d.window {
			return 0, ErrCorrupt
		}
		if llen <= 16 && litPos+16 <= len(lits) && out+16 <= len(dst) {
			// Short literals in two words; what lands past them is
			// overwritten by the match.
			binary.LittleEndian.PutUint64(dst[out:], binary.LittleEndian.Uint64(lits[litPos:]))
			binary.LittleEndian.PutUint64(dst[out+8:], binary.LittleEndian.Uint64(lits[litPos+8:]))
			out += llen
		} else {
			out += copy(dst[out:out+llen], lits[litPos:])
		}
		litPos += llen
		out = copyMatch(dst, out, offset, mlen)
	}
	if br.off != 0 || br.bitsRead != 64 {
		return 0, ErrCorrupt
	}
	d.reps = reps
	rest := lits[litPos:]
	if len(rest) > len(dst)-out {
		return 0, ErrCorrupt
	}
	return out + copy(dst[out:], rest), nil
}

// stateMask keeps table lookups in bounds without a check: states are
// below 1<<log by construction.
const stateMask = 1<<maxFSELog - 1

// copyMatch copies n bytes from offset bytes back to dst[out:] and
// returns the position after them. A match longer than its offset
// repeats its first offset bytes: each copy doubles what is there.
func copyMatch(dst []byte, out, offset, n int) int {
	from := out - offset
	end := out + n
	if offset >= 8 && n <= 32 && end+8 <= len(dst) {
		// Short matches a word at a time: with an offset of 8 or more
		// each word read is already written. The last word may run up
		// to 7 bytes past the match, within dst, where later output
		// lands.
		for ; out < end; out, from = out+8, from+8 {
			binary.LittleEndian.PutUint64(dst[out:], binary.LittleEndian.Uint64(dst[from:]))
		}
		return end
	}
	if offset >= n {
		return out + copy(dst[out:out+n], dst[from:from+n])
	}
	for out < end {
		out += copy(dst[out:end], dst[from:out])
	}
	return out
}

// bitReader reads a sequences bitstream backwards, from its last byte:
// value holds the next bits at its top, bitsRead of them consumed.
type bitReader struct {
	in       []byte
	off      int // in[:off] not yet loaded
	value    uint64
	bitsRead uint8
}

func (b *bitReader) init(in []byte) error {
	if len(in) < 1 || in[len(in)-1] == 0 {
		return ErrCorrupt
	}
	b.in, b.off, b.value, b.bitsRead = in, len(in), 0, 64
	for b.off > 0 && b.bitsRead >= 8 {
		b.value = b.value<<8 | uint64(b.in[b.off-1])
		b.off--
		b.bitsRead -= 8
	}
	// Skip the padding: the last byte's zeros above its highest set bit,
	// and that bit.
	b.bitsRead += uint8(9 - bits.Len8(in[len(in)-1]))
	return nil
}

// get returns the next n bits (n ≤ 32, and no more than fill left).
func (b *bitReader) get(n uint8) uint32 {
	if n == 0 {
		return 0
	}
	v := b.value << b.bitsRead >> (64 - n)
	b.bitsRead += n
	return uint32(v)
}

// fill loads bytes so that at least 32 bits are unread, when there are.
func (b *bitReader) fill() {
	if b.bitsRead < 32 {
		return
	}
	if b.off >= 4 {
		b.value = b.value<<32 | uint64(binary.LittleEndian.Uint32(b.in[b.off-4:]))
		b.off -= 4
		b.bitsRead -= 32
		return
	}
	for b.off > 0 {
		b.value = b.value<<8 | uint64(b.in[b.off-1])
		b.off--
		b.bitsRead -= 8
	}
}
