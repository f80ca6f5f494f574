package zenc

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"github.com/blosc2go/blosc2/codec/internal/le"
)

// Huffman coding of literals (RFC 8878, 4.2), as libzstd's huf_compress.c
// writes it: the tree libzstd builds (HUF_buildCTable_wksp, its depth
// limit included), its description (weights compressed with FSE where
// that is shorter, else 4 bits each) and its one or four streams.
// klauspost's huff0 did this before; its symbol sort, an insertion sort
// within buckets of counts of the same bit length, took 13% of zstd level
// 1 on bitshuffled floats, whose 256 literal values have counts of one
// bit length.

const (
	huffMaxBits      = 11 // HUF_TABLELOG_DEFAULT: the longest code written
	huffWeightsLog   = 6  // MAX_FSE_TABLELOG_FOR_HUFF_HEADER
	huffInternalNode = 256
)

// huffNode is a node of the Huffman tree: the leaves, sorted by count
// (largest first), from 0, the internal nodes from huffInternalNode.
type huffNode struct {
	count  uint32
	parent uint16
	sym    uint8
	nbBits uint8
}

// huffCoder is the Encoder's Huffman state, reused from block to block.
type huffCoder struct {
	count   [256]uint32
	nodes   [2 * huffInternalNode]huffNode
	nbBits  [256]uint8
	code    [256]uint64 // a symbol's code in its top bits, its length in the low 8 (libzstd's HUF_CElt)
	weights [256]uint8
	wcount  [huffMaxBits + 2]uint32
	wnorm   [huffMaxBits + 2]int16
	wtable  cTable
	out     []byte
}

// huffLog is HUF_optimalTableLog at the fast strategies: the longest code
// length allowed for n literals of values up to maxSym.
func huffLog(n, maxSym int) uint8 {
	log := huffMaxBits
	if maxBitsSrc := bits.Len32(uint32(n-1)) - 1 - 1; maxBitsSrc < log {
		log = maxBitsSrc
	}
	if minBits := min(bits.Len32(uint32(n)), bits.Len32(uint32(maxSym))+1); minBits > log {
		log = minBits
	}
	return uint8(min(max(log, 5), huffMaxBits))
}

// compress returns the Huffman-coded literals section body of lits (more
// than 63 bytes): the tree's description and one stream (single) or four
// after their jump table, in h's own buffer; rle when lits is one value
// repeated; nil when Huffman coding is not worth trying, does not fit
// libzstd's limits, or would not be shorter than limit bytes (then they
// are stored raw).
func (h *huffCoder) compress(lits []byte, single bool, limit int) (out []byte, rle bool) {
	n := len(lits)
	// Four counts, so that runs of one value do not wait on their own
	// increments.
	var c4 [4][256]uint32
	l := lits
	for ; len(l) >= 4; l = l[4:] {
		c4[0][l[0]]++
		c4[1][l[1]]++
		c4[2][l[2]]++
		c4[3][l[3]]++
	}
	for _, b := range l {
		c4[0][b]++
	}
	maxSym, largest := 0, uint32(0)
	for s := range h.count {
		c := c4[0][s] + c4[1][s] + c4[2][s] + c4[3][s]
		h.count[s] = c
		if c != 0 {
			maxSym = s
			largest = max(largest, c)
		}
	}
	if int(largest) == n {
		return nil, true
	}
	if largest <= uint32(n>>7)+4 {
		return nil, false // nearly flat: HUF_compress_internal's heuristic
	}
	streams, jump := 1, 0
	if !single {
		streams, jump = 4, 6
	}
	// No Huffman code is shorter than the literals' entropy: where that
	// alone reaches limit (with a byte of description), neither the tree
	// nor the streams are made. The streams' bound below decides the
	// same where this one does not; this one saves the tree too.
	if (entropyBits(h.count[:maxSym+1], n)+7)/8+1+jump >= limit {
		return nil, false
	}
	maxBits := h.build(maxSym, huffLog(n, maxSym))
	out = h.describe(h.out[:0], maxSym, maxBits)
	if out == nil {
		return nil, false
	}
	// The streams are at least their codes' bits and end marks long (a
	// stream's bytes round them up, the four streams' more than their
	// sum): where that already reaches limit, they are not written.
	// At the fast strategy, which asks literals to save a sixteenth,
	// that skips a third of the bitshuffled values' blocks.
	total := 0
	for s, c := range h.count[:maxSym+1] {
		total += int(c) * int(h.nbBits[s])
	}
	if len(out)+jump+(total+streams+7)/8 >= limit {
		return nil, false
	}
	if single {
		out = h.stream(out, lits)
	} else {
		// The jump table's 16-bit sizes hold any stream of a block: a
		// quarter of 128 KiB in codes of 11 bits or less is under 45 KB.
		seg := (n + 3) / 4
		at := len(out)
		out = append(out, 0, 0, 0, 0, 0, 0)
		for k := range 4 {
			start := len(out)
			out = h.stream(out, lits[min(k*seg, n):min((k+1)*seg, n)])
			if k < 3 {
				binary.LittleEndian.PutUint16(out[at+2*k:], uint16(len(out)-start))
			}
		}
	}
	h.out = out
	if len(out) >= limit {
		return nil, false
	}
	return out, false
}

// build makes the code lengths (h.nbBits) and codes (h.code) of the
// symbols 0..maxSym counted in h.count, no code longer than limit, and
// returns the longest.
func (h *huffCoder) build(maxSym int, limit uint8) uint8 {
	// The leaves, largest count first, smaller values first among equal
	// counts. Counts under 256 (nearly all of a block's symbols, unless
	// its literals are long) are sorted in one stable pass on the count
	// itself; the larger ones apart, before them: by insertion where they
	// are few, else by stable passes over their digits. Sorting all of
	// them by two digits spent most of its time in the high digit's
	// pass, where the symbols under 256 all share the digit 0 and its
	// table entry's increments wait on each other.
	var small, large [256]uint8
	ns, nl := 0, 0
	largest := uint32(0)
	for s, c := range h.count[:maxSym+1] {
		switch {
		case c == 0:
		case c < 256:
			small[ns] = uint8(s)
			ns++
		default:
			large[nl] = uint8(s)
			nl++
			largest = max(largest, c)
		}
	}
	m := ns + nl
	var sorted [256]uint8
	nodes := &h.nodes
	if nl <= 16 {
		for k, s := range large[:nl] {
			c := h.count[s]
			j := k
			for ; j > 0 && nodes[j-1].count < c; j-- {
				nodes[j] = nodes[j-1]
			}
			nodes[j] = huffNode{count: c, sym: s}
		}
	} else {
		for k, s := range radixDesc(&large, &sorted, nl, &h.count, largest)[:nl] {
			nodes[k] = huffNode{count: h.count[s], sym: s}
		}
	}
	for k, s := range radixDesc(&small, &sorted, ns, &h.count, 255)[:ns] {
		nodes[nl+k] = huffNode{count: h.count[s], sym: s}
	}
	// The tree, merging the two smallest nodes (leaves from the end of
	// the sorted list, internal nodes in the order they were made; a
	// leaf first where counts tie, as libzstd's HUF_buildTree).
	lowS, lowN, next := m-1, huffInternalNode, huffInternalNode
	smallest := func() int {
		if lowS >= 0 && (lowN == next || nodes[lowS].count < nodes[lowN].count) {
			lowS--
			return lowS + 1
		}
		lowN++
		return lowN - 1
	}
	root := huffInternalNode + m - 2
	for next <= root {
		a := smallest()
		b := smallest()
		nodes[next] = huffNode{count: nodes[a].count + nodes[b].count}
		nodes[a].parent, nodes[b].parent = uint16(next), uint16(next)
		next++
	}
	nodes[root].nbBits = 0
	for k := root - 1; k >= huffInternalNode; k-- {
		nodes[k].nbBits = nodes[nodes[k].parent].nbBits + 1
	}
	for k := range m {
		nodes[k].nbBits = nodes[nodes[k].parent].nbBits + 1
	}
	maxBits := limitHeight(nodes[:m], limit)
	// Canonical codes: by length, the longest first, and within a length
	// by value (HUF_buildCTableFromTree), as the decoder assigns them.
	var perRank [huffMaxBits + 2]uint16
	for k := range m {
		perRank[nodes[k].nbBits]++
	}
	var valPerRank [huffMaxBits + 2]uint16
	v := uint16(0)
	for r := maxBits; r > 0; r-- {
		valPerRank[r] = v
		v += perRank[r]
		v >>= 1
	}
	clear(h.nbBits[:maxSym+1])
	for k := range m {
		h.nbBits[nodes[k].sym] = nodes[k].nbBits
	}
	for s := range maxSym + 1 {
		if b := h.nbBits[s]; b != 0 {
			h.code[s] = uint64(valPerRank[b])<<(64-b) | uint64(b)
			valPerRank[b]++
		}
	}
	return maxBits
}

// radixDesc sorts the m symbols of from by count, largest first and
// stable, no count above largest, in stable passes over the counts'
// digits, as few as largest allows and as narrow as they can be: narrow
// digits keep the table of where each digit's symbols start short and
// spread close counts over several entries, whose increments wait on
// each other. It returns from or to, whichever holds the result.
func radixDesc(from, to *[256]uint8, m int, count *[256]uint32, largest uint32) *[256]uint8 {
	width := bits.Len32(largest)
	passes := (width + 7) / 8
	width = (width + passes - 1) / passes
	mask := uint32(1)<<width - 1
	for shift := 0; passes > 0; passes, shift = passes-1, shift+width {
		var start [256]uint16
		for _, s := range from[:m] {
			start[mask-(count[s]>>shift)&mask]++
		}
		// The sum runs in a register: read back from the table, each
		// sum would wait on the store before it.
		sum := uint16(0)
		for d, n := range start[:mask+1] {
			start[d], sum = sum, sum+n
		}
		for _, s := range from[:m] {
			d := mask - (count[s]>>shift)&mask
			to[start[d]] = s
			start[d]++
		}
		from, to = to, from
	}
	return from
}

// limitHeight makes the code lengths of leaves (sorted by count, largest
// first, lengths of an unlimited Huffman tree) at most limit, as
// libzstd's HUF_setMaxHeight does: the longest codes are cut to limit,
// and the Kraft sum this overdraws is paid back by lengthening the codes
// that cost least, then any overshoot given back to the longest ones. It
// returns the longest length.
func limitHeight(leaves []huffNode, limit uint8) uint8 {
	last := len(leaves) - 1
	largest := leaves[last].nbBits
	if largest <= limit {
		return largest
	}
	cost := 0
	base := 1 << (largest - limit)
	k := last
	for leaves[k].nbBits > limit {
		cost += base - 1<<(largest-leaves[k].nbBits)
		leaves[k].nbBits = limit
		k--
	}
	for leaves[k].nbBits == limit {
		k--
	}
	cost >>= largest - limit // in units of a code of length limit
	// rankLast[r]: the last (smallest) leaf of length limit-r.
	const none = -1
	var rankLast [huffMaxBits + 2]int
	for r := range rankLast {
		rankLast[r] = none
	}
	cur := limit
	for pos := k; pos >= 0; pos-- {
		if leaves[pos].nbBits >= cur {
			continue
		}
		cur = leaves[pos].nbBits
		rankLast[limit-cur] = pos
	}
	for cost > 0 {
		r := bits.Len32(uint32(cost))
		for ; r > 1; r-- {
			high, low := rankLast[r], rankLast[r-1]
			if high == none {
				continue
			}
			if low == none || leaves[high].count <= 2*leaves[low].count {
				break
			}
		}
		for r <= int(limit) && rankLast[r] == none {
			r++
		}
		cost -= 1 << (r - 1)
		leaves[rankLast[r]].nbBits++
		if rankLast[r-1] == none {
			rankLast[r-1] = rankLast[r]
		}
		if rankLast[r] == 0 {
			rankLast[r] = none
		} else {
			rankLast[r]--
			if leaves[rankLast[r]].nbBits != limit-uint8(r) {
				rankLast[r] = none
			}
		}
	}
	for cost < 0 {
		if rankLast[1] == none {
			for leaves[k].nbBits == limit {
				k--
			}
			leaves[k+1].nbBits--
			rankLast[1] = k + 1
			cost++
			continue
		}
		leaves[rankLast[1]+1].nbBits--
		rankLast[1]++
		cost++
	}
	return limit
}

// describe appends the tree's description (HUF_writeCTable): the weights
// of the symbols below maxSym (the last one's follows from them), FSE
// compressed where that is shorter than half their count, else 4 bits
// each; nil where neither is possible (over 128 weights that FSE does not
// compress).
func (h *huffCoder) describe(dst []byte, maxSym int, maxBits uint8) []byte {
	w := h.weights[:maxSym]
	for s := range w {
		if b := h.nbBits[s]; b != 0 {
			w[s] = maxBits + 1 - b
		} else {
			w[s] = 0
		}
	}
	at := len(dst)
	dst = append(dst, 0)
	if out, ok := h.compressWeights(dst, w); ok && len(out)-at-1 > 1 && len(out)-at-1 < maxSym/2 {
		out[at] = byte(len(out) - at - 1)
		return out
	}
	if maxSym > 128 {
		return nil
	}
	dst[at] = byte(127 + maxSym)
	for s := 0; s < maxSym; s += 2 {
		b := w[s] << 4
		if s+1 < maxSym {
			b |= w[s+1]
		}
		dst = append(dst, b)
	}
	return dst
}

// compressWeights appends the weights w compressed with FSE
// (HUF_compressWeights): the table's description, then a stream of two
// interleaved states (FSE_compress_usingCTable). It returns false where
// FSE does not apply (one weight repeated, or none twice).
func (h *huffCoder) compressWeights(dst []byte, w []uint8) ([]byte, bool) {
	if len(w) <= 2 {
		return dst, false
	}
	counts := h.wcount[:]
	clear(counts)
	maxW, largest := 0, uint32(0)
	for _, v := range w {
		counts[v]++
	}
	for v, c := range counts {
		if c != 0 {
			maxW = v
			largest = max(largest, c)
		}
	}
	if int(largest) == len(w) || largest == 1 {
		return dst, false
	}
	log := optimalLog(huffWeightsLog, len(w), maxW)
	norm := h.wnorm[:maxW+1]
	normalize(norm, counts[:maxW+1], len(w), log, false)
	dst = writeNCount(dst, norm, log)
	t := &h.wtable
	if err := t.build(norm, log); err != nil {
		return dst, false
	}
	// The stream, backwards from the last weight: states 1 and 2 take
	// turns, state 1 encoding the first weight.
	dst = slices.Grow(dst, len(w)+16)
	buf, pos := dst[:cap(dst)], len(dst)
	acc, n := uint64(0), uint(0)
	i := len(w)
	var s1, s2 uint32
	step := func(state uint32, sym uint8) uint32 {
		v, k, next := t.encode(state, sym)
		acc, n = acc|v<<(n&63), n+k
		return next
	}
	if len(w)&1 != 0 {
		s1 = t.init(w[i-1])
		s2 = t.init(w[i-2])
		i -= 3
		s1 = step(s1, w[i])
		pos, acc, n = flushBits(buf, pos, acc, n)
	} else {
		s2 = t.init(w[i-1])
		s1 = t.init(w[i-2])
		i -= 2
	}
	if (len(w)-2)&2 != 0 {
		s2 = step(s2, w[i-1])
		s1 = step(s1, w[i-2])
		i -= 2
		pos, acc, n = flushBits(buf, pos, acc, n)
	}
	for i > 0 {
		s2 = step(s2, w[i-1])
		s1 = step(s1, w[i-2])
		s2 = step(s2, w[i-3])
		s1 = step(s1, w[i-4])
		i -= 4
		pos, acc, n = flushBits(buf, pos, acc, n)
	}
	acc, n = addBits(acc, n, s2, uint(log))
	pos, acc, n = flushBits(buf, pos, acc, n)
	acc, n = addBits(acc, n, s1, uint(log))
	acc, n = addBits(acc, n, 1, 1)
	le.Store64(buf, pos, acc)
	return buf[:pos+int(n+7)/8], true
}

// stream appends the Huffman stream of lits (HUF_compress1X): codes from
// the last literal to the first, so that the decoder, reading the stream
// backwards, meets the first first; then the end mark.
//
// As libzstd's HUF_encodeSymbol, the stream's bits are gathered in the
// top of a 64-bit word, each code shifting the ones before it down and
// taking its place, and their number in the low 8 bits of a count: a
// code is one shift, one or and one add, its length read from its own low
// 4 bits, which the codes after it shift out. As libzstd's
// HUF_compress1X_usingCTable_internal_body_loop, the codes go in rounds
// of 2×huffRound: the first huffRound into the stream's word, then, once
// that is flushed, the next huffRound into a second word that starts
// empty, so that their shifts do not wait on the first's, and that is
// merged into the first with one shift. A flush leaves at most 7 bits, so
// a word holds 7 and huffRound codes of at most huffMaxBits (62 bits):
// the last code of each round is written without its length bits, which
// would otherwise lie under bits still to be flushed.
func (h *huffCoder) stream(dst, lits []byte) []byte {
	dst = slices.Grow(dst, len(lits)*huffMaxBits/8+16)
	buf, pos := dst[:cap(dst)], len(dst)
	acc, bits := uint64(0), uint64(0)
	code := &h.code
	i := len(lits)
	for ; i%huffRound != 0; i-- {
		c := code[lits[i-1]]
		acc, bits = acc>>(c&63)|c, bits+c
	}
	if i%(2*huffRound) != 0 {
		c0, c1, c2, c3, c4 := code[lits[i-1]], code[lits[i-2]], code[lits[i-3]], code[lits[i-4]], code[lits[i-5]]
		pos, bits = flushTop(buf, pos, acc, bits)
		acc, bits = acc>>(c0&63)|c0, bits+c0
		acc, bits = acc>>(c1&63)|c1, bits+c1
		acc, bits = acc>>(c2&63)|c2, bits+c2
		acc, bits = acc>>(c3&63)|c3, bits+c3
		acc, bits = acc>>(c4&63)|c4&^0xFF, bits+c4
		i -= huffRound
	}
	pos, bits = flushTop(buf, pos, acc, bits)
	pos, acc, bits = huffRounds(buf, pos, acc, bits, lits[:i], code)
	// The end mark: a code 1 of length 1.
	const mark = 1<<63 | 1
	acc, bits = acc>>1|mark, bits+mark
	pos, bits = flushTop(buf, pos, acc, bits)
	return buf[:pos+int(bits+7)/8]
}

// huffRoundsGo writes the codes of lits, whose length is a multiple of
// 2×huffRound, into the stream at buf[pos:] (acc and bits as stream
// keeps them, flushed), from the last to the first, in rounds as stream
// describes, and returns the stream's position, word and count after
// them, flushed. huffRoundsAsm is its twin.
func huffRoundsGo(buf []byte, pos int, acc, bits uint64, lits []byte, code *[256]uint64) (int, uint64, uint64) {
	for i := len(lits); i > 0; i -= 2 * huffRound {
		l := lits[i-2*huffRound : i]
		c0, c1, c2, c3, c4 := code[l[9]], code[l[8]], code[l[7]], code[l[6]], code[l[5]]
		acc, bits = acc>>(c0&63)|c0, bits+c0
		acc, bits = acc>>(c1&63)|c1, bits+c1
		acc, bits = acc>>(c2&63)|c2, bits+c2
		acc, bits = acc>>(c3&63)|c3, bits+c3
		acc, bits = acc>>(c4&63)|c4&^0xFF, bits+c4
		pos, bits = flushTop(buf, pos, acc, bits)
		d0, d1, d2, d3, d4 := code[l[4]], code[l[3]], code[l[2]], code[l[1]], code[l[0]]
		acc2, bits2 := d0, d0
		acc2, bits2 = acc2>>(d1&63)|d1, bits2+d1
		acc2, bits2 = acc2>>(d2&63)|d2, bits2+d2
		acc2, bits2 = acc2>>(d3&63)|d3, bits2+d3
		acc2, bits2 = acc2>>(d4&63)|d4&^0xFF, bits2+d4
		acc, bits = acc>>(bits2&63)|acc2, bits+bits2&0xFF
		pos, bits = flushTop(buf, pos, acc, bits)
	}
	return pos, acc, bits
}

// huffRound is how many codes a word of stream gathers between flushes.
const huffRound = 5

// flushTop stores the n bits gathered in the top of acc (n in the low 8
// bits of bits, at most 63, more than 0 unless acc is 0) at buf[pos:],
// which must hold 8 bytes, and returns the position past their whole
// bytes and the bits left (HUF_flushBits); those stay in acc's top.
func flushTop(buf []byte, pos int, acc, bits uint64) (int, uint64) {
	n := bits & 0xFF
	le.Store64(buf, pos, acc>>((64-n)&63))
	return pos + int(n>>3), n & 7
}

// entropyBits returns a lower bound of the entropy, in bits, of n symbols
// counted in count: the sum over the symbols of c·log2(n/c), with log2(n)
// rounded down and log2(c) up, in 1/2^log2Frac of a bit, from the top
// 8 bits of their mantissas (log2Up, log2Down): below the entropy by at
// most 0.012 bits a symbol.
func entropyBits(count []uint32, n int) int {
	// In 64 bits where int has 32: a count (up to 2^17) times a
	// logarithm (up to 2^21 in these units) does not fit them.
	ln := int64(log2Fixed(uint32(n), &log2Down))
	sum := int64(0)
	for _, c := range count {
		if c != 0 {
			sum += int64(c) * (ln - int64(log2Fixed(c, &log2Up)))
		}
	}
	return int(max(sum, 0) >> log2Frac)
}

const log2Frac = 16

// log2Up and log2Down hold log2(1+(k+1)/256) rounded up and
// log2(1+k/256) rounded down, in 1/2^log2Frac of a bit: bounds of the
// logarithm's fraction for a mantissa whose top 8 bits after the
// leading one are k.
var log2Up, log2Down = func() (up, down [256]int) {
	for k := range 256 {
		up[k] = int(math.Ceil(math.Log2(1+float64(k+1)/256) * (1 << log2Frac)))
		down[k] = int(math.Floor(math.Log2(1+float64(k)/256) * (1 << log2Frac)))
	}
	return
}()

// log2Fixed is log2(x), x > 0, in 1/2^log2Frac of a bit, its fraction
// from table (log2Up or log2Down).
func log2Fixed(x uint32, table *[256]int) int {
	e := bits.Len32(x) - 1
	k := (uint64(x) << (40 - e) >> 32) & 255
	return e<<log2Frac + table[k]
}
