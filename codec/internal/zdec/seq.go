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
	if err := br.init(src, &d.pad); err != nil {
		return 0, err
	}
	llState := br.get(ll.log)
	ofState := br.get(of.log)
	mlState := br.get(ml.log)
	br.reload()
	reps := d.reps
	litPos := 0
	for i := nb - 1; i >= 0; i-- {
		lle, ofe, mle := ll.entries[llState&stateMask], of.entries[ofState&stateMask], ml.entries[mlState&stateMask]
		// A reload leaves at least 57 bits unread: enough for the
		// offset's and the match length's extra bits (31+16 at most),
		// then after another for the literal length's and the three
		// states' (16+26). Most sequences' extra bits are 31 or fewer
		// in all, and need only the one reload, as in libzstd.
		offset := int(ofe.baseline) + int(br.get(ofe.addBits))
		mlen := int(mle.baseline) + int(br.get(mle.addBits))
		if ofe.addBits+mle.addBits+lle.addBits > 57-26 {
			br.reload()
		}
		llen := int(lle.baseline) + int(br.get(lle.addBits))
		if i > 0 {
			llState = uint32(lle.newState) + br.get(lle.nbBits)
			mlState = uint32(mle.newState) + br.get(mle.nbBits)
			ofState = uint32(ofe.newState) + br.get(ofe.nbBits)
		}
		br.reload()
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
		if litPos+llen+16 <= len(lits) && out+llen+16 <= len(dst) {
			// The literals 16 bytes at a time: what lands past them
			// is overwritten by the match and the output after it.
			for o, l := out, litPos; o < out+llen; o, l = o+16, l+16 {
				*(*[16]byte)(dst[o:]) = *(*[16]byte)(lits[l:])
			}
		} else {
			copy(dst[out:out+llen], lits[litPos:])
		}
		out += llen
		litPos += llen
		out = copyMatch(dst, out, offset, mlen)
	}
	if !br.done() {
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
	if n <= 64 && end+16 <= len(dst) {
		// Short matches in whole words, the last one running up to 15
		// bytes past the match, within dst, where later output lands:
		// with an offset of 16 (8) or more each word read is already
		// written. Longer ones go faster through copy.
		switch {
		case offset >= 16:
			for ; out < end; out, from = out+16, from+16 {
				*(*[16]byte)(dst[out:]) = *(*[16]byte)(dst[from:])
			}
			return end
		case offset >= 8:
			for ; out < end; out, from = out+8, from+8 {
				*(*[8]byte)(dst[out:]) = *(*[8]byte)(dst[from:])
			}
			return end
		}
	}
	if offset >= n {
		return out + copy(dst[out:out+n], dst[from:from+n])
	}
	for out < end {
		out += copy(dst[out:end], dst[from:out])
	}
	return out
}

// bitReader reads a sequences bitstream backwards, from its last byte,
// as libzstd's BIT_DStream does: value is the 8 bytes at in[pos:], read
// from the top, bitsRead of them consumed. Streams under 8 bytes are
// read from a copy padded in front with zeros, and must end with
// exactly their own bits read.
type bitReader struct {
	in       []byte
	pos      int
	value    uint64
	bitsRead uint8
	lastBits uint8 // bits of the stream in the first window: 64, or fewer for a short stream
}

func (b *bitReader) init(in []byte, pad *[8]byte) error {
	if len(in) < 1 || in[len(in)-1] == 0 {
		return ErrCorrupt
	}
	last := in[len(in)-1]
	b.lastBits = 64
	if len(in) < 8 {
		*pad = [8]byte{}
		copy(pad[8-len(in):], in)
		b.lastBits = uint8(8 * len(in))
		in = pad[:]
	}
	b.in, b.pos = in, len(in)-8
	b.value = binary.LittleEndian.Uint64(in[b.pos:])
	// Skip the padding: the last byte's zeros above its highest set
	// bit, and that bit.
	b.bitsRead = uint8(9 - bits.Len8(last))
	return nil
}

// get returns the next n bits (n ≤ 56, and no more than the reload
// left).
func (b *bitReader) get(n uint8) uint32 {
	v := b.value << (b.bitsRead & 63) >> 1 >> (63 - n)
	b.bitsRead += n
	return uint32(v)
}

// reload moves the window back over the whole bytes read, so that at
// least 57 bits are unread where the stream has them.
func (b *bitReader) reload() {
	if b.bitsRead > 64 {
		return // overread: done reports it
	}
	n := min(int(b.bitsRead>>3), b.pos)
	b.pos -= n
	b.bitsRead -= uint8(8 * n)
	b.value = binary.LittleEndian.Uint64(b.in[b.pos:])
}

// done reports whether exactly the stream's bits were read.
func (b *bitReader) done() bool {
	return b.pos == 0 && b.bitsRead == b.lastBits
}
