package zenc

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/blosc2go/blosc2/codec/internal/le"
	"github.com/blosc2go/blosc2/codec/internal/zfmt"
)

// seq is one sequence as the match finders find it: litLen literals,
// then matchLen bytes copied from offset bytes back.
type seq struct {
	litLen, matchLen, offset uint32
}

// llCodes and mlCodes map short literal lengths and match lengths (minus
// zfmt.MinMatch) to their codes; longer ones take a code from their
// highest bit.
var llCodes, mlCodes = func() (ll [64]uint8, ml [128]uint8) {
	for c, b := range zfmt.LLBase {
		for v := b; v < uint32(len(ll)) && v < b+1<<zfmt.LLBits[c]; v++ {
			ll[v] = uint8(c)
		}
	}
	for c, b := range zfmt.MLBase {
		for v := b - zfmt.MinMatch; v < uint32(len(ml)) && v < b-zfmt.MinMatch+1<<zfmt.MLBits[c]; v++ {
			ml[v] = uint8(c)
		}
	}
	return
}()

func llCode(v uint32) uint8 {
	if v < 64 {
		return llCodes[v]
	}
	return uint8(bits.Len32(v)-1) + 19
}

func mlCode(v uint32) uint8 {
	if v < 128 {
		return mlCodes[v]
	}
	return uint8(bits.Len32(v)-1) + 36
}

// minGain is ZSTD_minGain: what compression must save on n bytes, at
// a strategy's log (6, or more for btultra and btultra2).
func minGain(n int, log uint8) int { return n>>log + 2 }

// literals appends the literals section of lits to dst: Huffman-coded
// when that saves at least 1/2^e.litGainLog of them (and libzstd's
// minimum gain), else raw or RLE.
func (e *Encoder) literals(dst, lits []byte) []byte {
	n := len(lits)
	if n > 63 {
		single := n < 256
		out, rle := e.huff.compress(lits, single, n-max(minGain(n, e.minGainLog), n>>e.litGainLog))
		switch {
		case rle:
			return append(rawLiteralsHeader(dst, 1, n), lits[0])
		case out != nil:
			c := len(out)
			switch {
			case single:
				dst = appendUint24(dst, uint32(2|n<<4|c<<14))
			case n < 1<<10 && c < 1<<10:
				dst = appendUint24(dst, uint32(2|1<<2|n<<4|c<<14))
			case n < 1<<14 && c < 1<<14:
				dst = binary.LittleEndian.AppendUint32(dst, uint32(2|2<<2|n<<4|c<<18))
			default:
				v := uint64(2|3<<2|n<<4) | uint64(c)<<22
				dst = binary.LittleEndian.AppendUint32(dst, uint32(v))
				dst = append(dst, byte(v>>32))
			}
			return append(dst, out...)
		}
	}
	return append(rawLiteralsHeader(dst, 0, n), lits...)
}

// rawLiteralsHeader appends the header of a raw (typ 0) or RLE (typ 1)
// literals section of n bytes.
func rawLiteralsHeader(dst []byte, typ, n int) []byte {
	switch {
	case n < 32:
		return append(dst, byte(typ|n<<3))
	case n < 4096:
		return binary.LittleEndian.AppendUint16(dst, uint16(typ|1<<2|n<<4))
	}
	return appendUint24(dst, uint32(typ|3<<2|n<<4))
}

func appendUint24(dst []byte, v uint32) []byte {
	return append(dst, byte(v), byte(v>>8), byte(v>>16))
}

// predefined holds the encoding tables of the predefined distributions.
var predefined = func() *[3]cTable {
	t := new([3]cTable)
	for k := range t {
		if err := t[k].build(zfmt.DefaultNorm[k], zfmt.DefaultLog[k]); err != nil {
			panic(err)
		}
	}
	return t
}()

// Symbol compression modes (RFC 8878, 3.1.1.3.2.1).
const (
	modePredefined = iota
	modeRLE
	modeCompressed
)

// sequences appends the sequences section of seqs, whose offsets are
// already offset values (repeat codes 1-3, or offset+3).
func (e *Encoder) sequences(dst []byte, seqs []seq) ([]byte, error) {
	nb := len(seqs)
	switch {
	case nb < 128:
		dst = append(dst, byte(nb))
	case nb < 0x7F00:
		dst = append(dst, byte(nb>>8+128), byte(nb))
	default:
		dst = append(dst, 255)
		dst = binary.LittleEndian.AppendUint16(dst, uint16(nb-0x7F00))
	}
	if nb == 0 {
		return dst, nil
	}
	if cap(e.codes) < nb {
		e.codes = make([][3]uint8, nb, nb+nb/2)
	}
	codes := e.codes[:nb]
	var counts [3][64]uint32
	for i, s := range seqs {
		ll, ml, of := llCode(s.litLen), mlCode(s.matchLen), uint8(bits.Len32(s.offset)-1)
		codes[i] = [3]uint8{ll, ml, of}
		counts[zfmt.LL][ll]++
		counts[zfmt.ML][ml]++
		counts[zfmt.OF][of]++
	}
	modesAt := len(dst)
	dst = append(dst, 0)
	var modes byte
	for i, k := range [3]int{zfmt.LL, zfmt.OF, zfmt.ML} {
		var mode int
		var err error
		dst, mode, err = e.table(dst, k, counts[k][:], nb, codes[nb-1][k])
		if err != nil {
			return nil, err
		}
		modes |= byte(mode) << (6 - 2*i)
	}
	dst[modesAt] = modes
	ll, ml, of := e.cur[zfmt.LL], e.cur[zfmt.ML], e.cur[zfmt.OF]
	// The bit stream, written backwards from the last sequence into room
	// reserved for it (a sequence adds at most 26 bits of states and 63
	// extra bits): acc holds n bits (at most 63), and each flush stores a
	// whole word, moves past its whole bytes and keeps the 0-7 bits left,
	// where libzstd's BIT_flushBits does the same. The words end up to 7
	// bytes past the stream, so the room is taken in dst only when its
	// capacity holds all of it; otherwise the stream is written to e.bits
	// and appended, so that dst is reallocated, as by append, only where
	// the output outgrows it.
	room := 12*nb + 16
	buf, pos := dst[:cap(dst)], len(dst)
	own := cap(dst)-len(dst) < room
	if own {
		if cap(e.bits) < room {
			e.bits = make([]byte, room)
		}
		buf, pos = e.bits[:cap(e.bits)], 0
	}
	acc, n := uint64(0), uint(0)
	last := seqs[nb-1]
	c := codes[nb-1]
	sc := seqCoder{tables: [3]*cTable{of, ml, ll}, states: [3]uint32{of.init(c[zfmt.OF]), ml.init(c[zfmt.ML]), ll.init(c[zfmt.LL])}}
	acc, n = addBits(acc, n, last.litLen, uint(zfmt.LLBits[c[zfmt.LL]&63]))
	acc, n = addBits(acc, n, last.matchLen, uint(zfmt.MLBits[c[zfmt.ML]&63]))
	pos, acc, n = flushBits(buf, pos, acc, n)
	acc, n = addBits(acc, n, last.offset, uint(c[zfmt.OF]))
	sc.pos, sc.acc, sc.n = flushBits(buf, pos, acc, n)
	sc.encode(buf, seqs[:nb-1], codes[:nb-1])
	pos, acc, n = sc.pos, sc.acc, sc.n
	sOF, sML, sLL := sc.states[0], sc.states[1], sc.states[2]
	acc, n = addBits(acc, n, sML, uint(ml.log))
	acc, n = addBits(acc, n, sOF, uint(of.log))
	acc, n = addBits(acc, n, sLL, uint(ll.log))
	// The end mark, and the last partial bytes.
	acc, n = addBits(acc, n, 1, 1)
	le.Store64(buf, pos, acc)
	end := pos + int(n+7)/8
	if own {
		return append(dst, buf[:end]...), nil
	}
	return buf[:end], nil
}

// seqCoder is the sequences' bit stream while their codes are written:
// the offset, match length and literal length tables, in the order each
// sequence codes its states, and their states; the bits not yet stored
// (n in acc, at most 7 between sequences) and where the next word goes
// in the stream's buffer.
type seqCoder struct {
	tables [3]*cTable
	states [3]uint32
	acc    uint64
	n      uint
	pos    int
}

// encodeGo writes seqs, last first, with their codes, into buf, which has
// room for 12 bytes a sequence past c.pos (a sequence adds at most 26
// bits of states and 63 extra bits, and the last word stored reaches 7
// bytes past the bits). It is the twin of encodeSeqsAsm (amd64), which
// writes the same bytes; encode chooses.
func (c *seqCoder) encodeGo(buf []byte, seqs []seq, codes [][3]uint8) {
	of, ml, ll := c.tables[0], c.tables[1], c.tables[2]
	sOF, sML, sLL := c.states[0], c.states[1], c.states[2]
	acc, n, pos := c.acc, c.n, c.pos
	for i := len(seqs) - 1; i >= 0; i-- {
		s, code := seqs[i], codes[i]
		v, k, next := of.encode(sOF, code[zfmt.OF])
		acc, n, sOF = acc|v<<(n&63), n+k, next
		v, k, next = ml.encode(sML, code[zfmt.ML])
		acc, n, sML = acc|v<<(n&63), n+k, next
		v, k, next = ll.encode(sLL, code[zfmt.LL])
		acc, n, sLL = acc|v<<(n&63), n+k, next
		llBits, mlBits, ofBits := uint(zfmt.LLBits[code[zfmt.LL]&63]), uint(zfmt.MLBits[code[zfmt.ML]&63]), uint(code[zfmt.OF])
		// 7 bits left by a flush and 26 of states leave room for 30 more.
		if llBits+mlBits+ofBits > 30 {
			pos, acc, n = flushBits(buf, pos, acc, n)
		}
		acc, n = addBits(acc, n, s.litLen, llBits)
		acc, n = addBits(acc, n, s.matchLen, mlBits)
		if llBits+mlBits+ofBits > 56 {
			pos, acc, n = flushBits(buf, pos, acc, n)
		}
		acc, n = addBits(acc, n, s.offset, ofBits)
		pos, acc, n = flushBits(buf, pos, acc, n)
	}
	c.states = [3]uint32{sOF, sML, sLL}
	c.acc, c.n, c.pos = acc, n, pos
}

// addBits returns acc, which holds n bits, with the nb (at most 32) low
// bits of v added above them: zstd's backward bit streams fill words from
// their least significant end, and the decoder reads them from the
// stream's end, after the closing 1 bit.
func addBits(acc uint64, n uint, v uint32, nb uint) (uint64, uint) {
	return acc | (uint64(v)&(1<<(nb&63)-1))<<(n&63), n + nb
}

// flushBits stores acc (n bits, at most 63) at buf[pos:], which must hold 8
// bytes, and returns the position past its whole bytes and the bits left.
func flushBits(buf []byte, pos int, acc uint64, n uint) (int, uint64, uint) {
	le.Store64(buf, pos, acc)
	k := n >> 3
	return pos + int(k), acc >> (k * 8 & 63), n & 7
}

// encode returns the bits that take state to encode s with t (the state's
// nb low bits, as the low bits of v) and the next state. The masks keep
// the indexes in range without a check; they change no valid state.
func (t *cTable) encode(state uint32, s uint8) (v uint64, nb uint, next uint32) {
	tt := t.tt[s&63]
	nb = uint((state + tt.deltaNbBits) >> 16)
	next = uint32(t.states[(int32(state>>(nb&31))+tt.deltaFind)&(1<<zfmt.MaxFSELog-1)])
	return uint64(state) & (1<<(nb&63) - 1), nb, next
}

// table chooses the cheapest mode for kind's symbols (counts, n of
// them, first the one encoded first), builds its encoding table in
// e.tables[kind] and appends its description.
func (e *Encoder) table(dst []byte, kind int, counts []uint32, n int, first uint8) ([]byte, int, error) {
	maxSym := 0
	for s, c := range counts {
		if c != 0 {
			maxSym = s
			if int(c) == n {
				if n > 2 {
					e.tables[kind].rle(uint8(s))
					e.cur[kind] = &e.tables[kind]
					return append(dst, byte(s)), modeRLE, nil
				}
			}
		}
	}
	counts = counts[:maxSym+1]
	predef := math.Inf(1)
	if kind != zfmt.OF || maxSym < len(zfmt.DefaultNorm[zfmt.OF]) {
		predef = cost(counts, zfmt.DefaultNorm[kind], zfmt.DefaultLog[kind])
	}
	// The symbol encoded first sets the initial state and is not
	// counted, as libzstd does (ZSTD_buildCTable).
	total := n
	if counts[first] > 1 {
		counts[first]--
		total--
	}
	log := optimalLog(zfmt.MaxLog[kind], total, maxSym)
	norm := e.norm[:maxSym+1]
	normalize(norm, counts, total, log, n >= 2048)
	counts[first] += uint32(n - total)
	desc := writeNCount(e.desc[:0], norm, log)
	e.desc = desc
	compressed := cost(counts, norm, log) + float64(8*len(desc))
	if predef <= compressed {
		e.cur[kind] = &predefined[kind]
		return dst, modePredefined, nil
	}
	e.cur[kind] = &e.tables[kind]
	return append(dst, desc...), modeCompressed, e.tables[kind].build(norm, log)
}
