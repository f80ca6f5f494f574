package zdec

import (
	"encoding/binary"
	"math/bits"

	"github.com/blosc2go/blosc2/codec/internal/le"
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

	br, stream, lastBits, err := newBitReader(src, &d.pad)
	if err != nil {
		return 0, err
	}
	llState := br.peek(uint(ll.log))
	br.bitsRead += uint(ll.log)
	ofState := br.peek(uint(of.log))
	br.bitsRead += uint(of.log)
	mlState := br.peek(uint(ml.log))
	br.bitsRead += uint(ml.log)
	br = br.reloaded(stream)
	// The Go loops make two passes, as libzstd's and klauspost's
	// decoders do for blocks of long offsets: first the sequences'
	// values, then their execution. Each loop keeps its state in
	// registers, where one loop doing both spilled it on every sequence.
	seqs := d.seqBuf(nb)
	dc := decodeContext{
		llTable: &ll.entries[0], mlTable: &ml.entries[0], ofTable: &of.entries[0],
		seqs: &seqs[0], nseqs: len(seqs), stream: &stream[0],
		value: br.value, pos: br.pos, bitsRead: br.bitsRead,
		llState: uint(llState), mlState: uint(mlState), ofState: uint(ofState),
		rep0: d.reps[0], rep1: d.reps[1], rep2: d.reps[2],
	}
	// In assembly, one pass while it can (decodeExecute), as libzstd's
	// and klauspost's decoders make for the others: the copies of a
	// sequence run while the next one's decoding waits on its loads.
	// Then the two passes, for what it left.
	executed, first := 0, 0
	ec := execContext{out: out, start: start, window: d.window}
	if !twinsOnly && ec.setBuffers(dst, lits) {
		executed, first = decodeExecute(&dc, &ec)
	}
	if !twinsOnly && first < len(seqs) {
		dc.seqs, dc.nseqs = &seqs[first], len(seqs)-first
		first += decodeFast(&dc)
	}
	br = bitReader{value: dc.value, pos: dc.pos, bitsRead: dc.bitsRead}
	llState, mlState, ofState = uint32(dc.llState), uint32(dc.mlState), uint32(dc.ofState)
	rep0, rep1, rep2 := dc.rep0, dc.rep1, dc.rep2
	for i := first; i < len(seqs); i++ {
		lle, ofe, mle := ll.entries[llState&stateMask], of.entries[ofState&stateMask], ml.entries[mlState&stateMask]
		// A reload leaves at least 57 bits unread: enough for the
		// offset's and the match length's extra bits (31+16 at most),
		// then after another for the literal length's and the three
		// states' (16+26). Most sequences' extra bits are 31 or fewer
		// in all, and need only the one reload, as in libzstd.
		ofBits, mlBits, llBits := ofe.addBits(), mle.addBits(), lle.addBits()
		offset := ofe.baseline() + br.peek(ofBits)
		br.bitsRead += ofBits
		mlen := mle.baseline() + br.peek(mlBits)
		br.bitsRead += mlBits
		if ofBits+mlBits+llBits > 57-26 {
			br = br.reloaded(stream)
		}
		llen := lle.baseline() + br.peek(llBits)
		br.bitsRead += llBits
		if i < len(seqs)-1 {
			llState = lle.newState() + br.peek(lle.nbBits())
			br.bitsRead += lle.nbBits()
			mlState = mle.newState() + br.peek(mle.nbBits())
			br.bitsRead += mle.nbBits()
			ofState = ofe.newState() + br.peek(ofe.nbBits())
			br.bitsRead += ofe.nbBits()
		}
		br = br.reloaded(stream)
		if br.bitsRead > 64 {
			return 0, ErrCorrupt
		}

		// The offset, or one of the three repeated ones.
		if offset > 3 {
			offset -= 3
			rep2, rep1, rep0 = rep1, rep0, int(offset)
		} else {
			idx := offset - 1
			if llen == 0 {
				idx++
			}
			switch idx {
			case 0:
				offset = uint32(rep0)
			case 1:
				offset = uint32(rep1)
				rep1, rep0 = rep0, int(offset)
			default:
				if idx == 3 {
					offset = uint32(rep0 - 1)
				} else {
					offset = uint32(rep2)
				}
				rep2, rep1, rep0 = rep1, rep0, int(offset)
			}
		}
		seqs[i] = sequence{lit: llen, match: mlen, offset: offset}
	}
	if !br.done(lastBits) {
		return 0, ErrCorrupt
	}

	out, litPos, err := execute(dst, start, ec.out, lits[ec.litPos:], seqs[executed:], d.window)
	if err != nil {
		return 0, err
	}
	litPos += ec.litPos
	d.reps = [3]int{rep0, rep1, rep2}
	rest := lits[litPos:]
	if len(rest) > len(dst)-out {
		return 0, ErrCorrupt
	}
	return out + copy(dst[out:], rest), nil
}

// execute runs seqs into dst at out (the frame's output starting at
// start, matches reaching at most window back): for each sequence its
// literals from lits, then its match. It returns the new position and
// the literals used. executeFast runs the sequences far enough from
// the buffers' ends, as many as it can; this loop, its twin, the rest.
func execute(dst []byte, start, out int, lits []byte, seqs []sequence, window int) (int, int, error) {
	c := execContext{out: out, start: start, window: window}
	if len(seqs) > 0 && !twinsOnly && c.setBuffers(dst, lits) {
		c.seqs, c.nseqs = &seqs[0], len(seqs)
		seqs = seqs[executeFast(&c):]
	}
	// The literals are read 16 bytes at a time as far as their buffer's
	// capacity, as in executeFast.
	readable := lits[:cap(lits)]
	out, litPos := c.out, c.litPos
	for _, sq := range seqs {
		llen, mlen, offset := int(sq.lit), int(sq.match), int(sq.offset)
		if llen > len(lits)-litPos || llen+mlen > len(dst)-out || offset <= 0 || offset > out-start+llen || offset > window {
			return 0, 0, ErrCorrupt
		}
		if litPos+llen+16 <= len(readable) && out+llen+16 <= len(dst) {
			// The literals 16 bytes at a time: what lands past them
			// is overwritten by the match and the output after it.
			for o, l := out, litPos; o < out+llen; o, l = o+16, l+16 {
				*(*[16]byte)(dst[o:]) = *(*[16]byte)(readable[l:])
			}
		} else {
			copy(dst[out:out+llen], lits[litPos:])
		}
		out += llen
		litPos += llen
		out = copyMatch(dst, out, offset, mlen)
	}
	return out, litPos, nil
}

// twinsOnly has the sequences decoded and executed by the Go loops
// alone: tests set it, to compare the assembly with its twins. (The
// assembly is called directly, not through a variable, so that its
// contexts stay on the stack.)
var twinsOnly bool

// windowCap, where tests set it, cuts how far back a frame's matches may
// reach, so that frames whose windows cover their whole content
// (single-segment frames, as zenc writes) have matches reaching past it.
var windowCap int

// execContext is what executeFast reads, and advances: the sequences
// (nseqs at seqs), the output buffer (dstLen bytes at dst, the frame's
// output from start, written up to out), the literals (at lits, used
// up to litPos; litsEnd is where the sequences' literals may end: the
// literals' length, or 16 bytes less where their buffer ends sooner
// after them) and the window.
type execContext struct {
	seqs    *sequence
	nseqs   int
	dst     *byte
	dstLen  int
	out     int
	lits    *byte
	litsEnd int
	litPos  int
	start   int
	window  int
}

// setBuffers points c at the output dst and the literals lits, and
// reports whether the assembly can take them (neither buffer empty).
// The literals are read 16 bytes at a time, past those used as far as
// their buffer's capacity (litsEnd): the few literals of highly
// compressible blocks are then copied in words too.
func (c *execContext) setBuffers(dst, lits []byte) bool {
	readable := lits[:cap(lits)]
	if len(dst) == 0 || len(readable) == 0 {
		return false
	}
	c.dst, c.dstLen = &dst[0], len(dst)
	c.lits, c.litsEnd = &readable[0], min(len(lits), len(readable)-16)
	return true
}

// decodeContext is what decodeFast reads, and advances: the three
// tables' entries, the sequences to fill (nseqs at seqs), the stream and
// the bit reader's state in it, the three states and the repeated
// offsets. end, last and limit are decodeFast's own.
type decodeContext struct {
	llTable, mlTable, ofTable *fseEntry
	seqs                      *sequence
	nseqs                     int
	stream                    *byte
	value                     uint64
	pos                       int
	bitsRead                  uint
	llState, mlState, ofState uint
	rep0, rep1, rep2          int
	//lint:ignore U1000 decodeFast's own: the assembly writes and reads them
	end, last, limit uintptr
}

// sequence is a decoded sequence: its literal length, its match length
// and its offset, repeat codes resolved.
type sequence struct {
	lit, match, offset uint32
}

// seqBuf returns d's sequence buffer of n sequences.
func (d *Decoder) seqBuf(n int) []sequence {
	if cap(d.seqs) < n {
		d.seqs = make([]sequence, n, max(n, 1024))
	}
	return d.seqs[:n]
}

// stateMask keeps table lookups in bounds without a check: states are
// below 1<<log by construction.
const stateMask = 1<<maxFSELog - 1

// copyMatch copies n bytes from offset bytes back to dst[out:] and
// returns the position after them. A match longer than its offset
// repeats its first offset bytes.
func copyMatch(dst []byte, out, offset, n int) int {
	end := out + n
	if end+16 <= len(dst) {
		// Words may run up to 15 bytes past the match, within dst,
		// where later output lands.
		if offset < 8 {
			// The first 8 bytes one at a time; from there the pattern
			// repeats at a distance of 8 or more (the smallest
			// multiple of offset that is), so that each word read is
			// already written, as in libzstd's ZSTD_overlapCopy8.
			from := out - offset
			for i := range 8 {
				dst[out+i] = dst[from+i]
			}
			out += 8
			if out >= end {
				return end
			}
			offset = spreadDistance[offset&7]
		}
		if end-out <= 64 {
			// Short matches in whole words: with an offset of 16 (8)
			// or more each word read is already written. Longer ones
			// go faster through copy.
			from := out - offset
			if offset >= 16 {
				for ; out < end; out, from = out+16, from+16 {
					*(*[16]byte)(dst[out:]) = *(*[16]byte)(dst[from:])
				}
				return end
			}
			for ; out < end; out, from = out+8, from+8 {
				*(*[8]byte)(dst[out:]) = *(*[8]byte)(dst[from:])
			}
			return end
		}
	}
	from := out - offset
	if offset >= end-out {
		return out + copy(dst[out:end], dst[from:])
	}
	// Each copy doubles what is there.
	for out < end {
		out += copy(dst[out:end], dst[from:out])
	}
	return out
}

// spreadDistance is, for an offset under 8, the smallest multiple of it
// that is 8 or more.
var spreadDistance = [8]int{0, 8, 8, 9, 8, 10, 12, 14}

// bitReader reads a sequences bitstream backwards, from its last byte,
// as libzstd's BIT_DStream does: value is the 8 bytes at in[pos:] of
// the stream in its caller keeps, read from the top, bitsRead of them
// consumed. Streams under 8 bytes are read from a copy padded in front
// with zeros, and must end with exactly their own bits read.
//
// Its methods take and return it by value: a struct of three scalars
// whose address is never taken lives in registers. With pointer methods,
// or the stream as a field, it lived in memory, a load and a store on
// every read (the shuffled timestamps' frames decoded 25% slower).
type bitReader struct {
	value    uint64
	pos      int
	bitsRead uint
}

// newBitReader returns the reader of in, the stream it reads (in, or
// in padded), and the bits of the stream in its first window: 64, or
// fewer for a short stream.
func newBitReader(in []byte, pad *[8]byte) (bitReader, []byte, uint, error) {
	if len(in) < 1 || in[len(in)-1] == 0 {
		return bitReader{}, nil, 0, ErrCorrupt
	}
	last := in[len(in)-1]
	lastBits := uint(64)
	if len(in) < 8 {
		*pad = [8]byte{}
		copy(pad[8-len(in):], in)
		lastBits = uint(8 * len(in))
		in = pad[:]
	}
	pos := len(in) - 8
	// Skip the padding: the last byte's zeros above its highest set
	// bit, and that bit.
	return bitReader{value: binary.LittleEndian.Uint64(in[pos:]), pos: pos, bitsRead: uint(9 - bits.Len8(last))}, in, lastBits, nil
}

// peek returns the next n bits (n ≤ 56, and no more than the reload
// left); the caller adds n to bitsRead.
func (b bitReader) peek(n uint) uint32 {
	return uint32(b.value << (b.bitsRead & 63) >> 1 >> ((63 - n) & 63))
}

// reloaded returns b with its window moved back over the whole bytes
// read of its stream in, so that at least 57 bits are unread where the
// stream has them.
func (b bitReader) reloaded(in []byte) bitReader {
	if b.bitsRead > 64 {
		return b // overread: done reports it
	}
	n := min(int(b.bitsRead>>3), b.pos)
	b.pos -= n
	b.bitsRead -= uint(8 * n)
	// In bounds: pos starts at len(in)-8 and only goes down, to 0.
	b.value = le.Load64(in, b.pos)
	return b
}

// done reports whether exactly the stream's bits were read.
func (b bitReader) done(lastBits uint) bool {
	return b.pos == 0 && b.bitsRead == lastBits
}
