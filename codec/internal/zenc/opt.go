package zenc

import (
	"math/bits"

	"github.com/blosc2go/blosc2/codec/internal/le"
	"github.com/blosc2go/blosc2/codec/internal/zfmt"
)

// libzstd's optimal parser (zstd_opt.c), behind its btopt, btultra and
// btultra2 strategies: at each position a binary tree gives every
// match longer than the ones before it, and a forward pass over the
// next stretch of at most optNum positions prices each way to reach
// each position (a literal, or a match ending there) with the running
// statistics of the frame's symbols, then keeps the cheapest path.
// btopt prices in whole bits and skips unpromising positions; btultra
// prices in fractions of bits and looks one literal further; btultra2
// first parses the frame's first block only to seed the statistics,
// then parses it again with them.
const (
	optNum     = 1 << 12 // ZSTD_OPT_NUM: the longest stretch priced at once
	priceAccur = 8       // prices are in 1/2^priceAccur bits
	priceOne   = 1 << priceAccur
	maxPrice   = 1 << 30
	// predefMax: btultra2 parses a first block this small only once
	// (libzstd prices it with fixed costs, and searches none of it).
	predefMax  = 8
	litFreqAdd = 2 // a literal counts this many times in the statistics
	// hash3MaxLog bounds the table of 3-byte hashes (minimum match 3).
	hash3MaxLog = 17
)

// optimal is one position of the forward pass (ZSTD_optimal_t): the
// cheapest way found to reach it, a match (mlen bytes at offBase off)
// followed by litlen literals, its price and the repeat offsets after
// it.
type optimal struct {
	price  int32
	off    uint32
	mlen   uint32
	litlen uint32
	rep    [3]uint32
}

// optMatch is one match of a position: its offset value (repeat codes
// 1-3, or offset+3) and length.
type optMatch struct{ off, len uint32 }

// optStats are the symbol statistics the parser prices with
// (optState_t), kept from block to block of a frame: literal bytes,
// literal length, match length and offset codes, their sums, and the
// price of a symbol of frequency 1 in each.
type optStats struct {
	lit                             [256]uint32
	ll                              [36]uint32
	ml                              [53]uint32
	of                              [32]uint32
	litSum, llSum, mlSum, ofSum     uint32
	litBase, llBase, mlBase, ofBase int
	frac                            bool // fractional weights (btultra and stronger)
	// The weights of each literal's and code's count, kept as the
	// counts change, and the codes' prices as setBases last computed
	// them (the statistics change only between forward passes).
	wLit [256]int32
	wLL  [36]int32
	wML  [53]int32
	wOF  [32]int32
	llP  [36]int32
	mlP  [53]int32
	ofP  [32]int32
}

// weight is the price in bits of a symbol seen stat times, plus a
// constant: the sum's weight less it is the symbol's cost.
func (o *optStats) weight(stat uint32) int {
	s := stat + 1
	hb := bits.Len32(s) - 1
	if !o.frac {
		return hb * priceOne
	}
	return hb*priceOne + int(s<<priceAccur>>hb)
}

// weighAll computes every count's weight.
func (o *optStats) weighAll() {
	for c, f := range o.lit {
		o.wLit[c] = int32(o.weight(f))
	}
	for c, f := range o.ll {
		o.wLL[c] = int32(o.weight(f))
	}
	for c, f := range o.ml {
		o.wML[c] = int32(o.weight(f))
	}
	for c, f := range o.of {
		o.wOF[c] = int32(o.weight(f))
	}
}

func (o *optStats) setBases() {
	o.litBase = o.weight(o.litSum)
	o.llBase = o.weight(o.llSum)
	o.mlBase = o.weight(o.mlSum)
	o.ofBase = o.weight(o.ofSum)
	for c, w := range o.wLL {
		o.llP[c] = int32(int(zfmt.LLBits[c])*priceOne + o.llBase - int(w))
	}
	for c, w := range o.wML {
		o.mlP[c] = int32(int(zfmt.MLBits[c])*priceOne + o.mlBase - int(w))
	}
	for c, w := range o.wOF {
		p := c*priceOne + o.ofBase - int(w)
		if !o.frac && c >= 20 {
			// Long offsets cost decoding speed (btopt).
			p += (c - 19) * 2 * priceOne
		}
		// Fewer sequences decode faster: a match costs a fifth of a
		// bit more.
		o.ofP[c] = int32(p + priceOne/5)
	}
}

// The statistics a frame starts from without a dictionary.
var (
	baseLLFreqs = [36]uint32{4, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
	baseOFFreqs = [32]uint32{6, 2, 1, 1, 2, 3, 4, 4, 4, 3, 2, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}
)

// rescale readies the statistics for block b (ZSTD_rescaleFreqs): at
// a frame's first block, the block's own bytes and fixed sequence
// statistics; after it, the frame's statistics scaled down. (libzstd
// prices a first block of predefMax bytes or fewer with fixed costs;
// the parser searches no position of such a block.)
func (o *optStats) rescale(b []byte) {
	if o.llSum == 0 {
		clear(o.lit[:])
		for _, c := range b {
			o.lit[c]++
		}
		o.litSum = downscale(o.lit[:], 8, false)
		o.ll = baseLLFreqs
		o.llSum = sum(o.ll[:])
		for i := range o.ml {
			o.ml[i] = 1
		}
		o.mlSum = uint32(len(o.ml))
		o.of = baseOFFreqs
		o.ofSum = sum(o.of[:])
	} else {
		o.litSum = scaleStats(o.lit[:], 12)
		o.llSum = scaleStats(o.ll[:], 11)
		o.mlSum = scaleStats(o.ml[:], 11)
		o.ofSum = scaleStats(o.of[:], 11)
	}
	o.weighAll()
	o.setBases()
}

func sum(t []uint32) uint32 {
	s := uint32(0)
	for _, v := range t {
		s += v
	}
	return s
}

// downscale divides t's counts by 2^shift, keeping every count at least
// 1 (or, without base1, every nonzero count), and returns their sum.
func downscale(t []uint32, shift int, base1 bool) uint32 {
	s := uint32(0)
	for i, v := range t {
		n := v >> shift
		if base1 || v > 0 {
			n++
		}
		t[i] = n
		s += n
	}
	return s
}

// scaleStats brings t's sum down to about 2^logTarget.
func scaleStats(t []uint32, logTarget int) uint32 {
	prev := sum(t)
	factor := prev >> logTarget
	if factor <= 1 {
		return prev
	}
	return downscale(t, bits.Len32(factor)-1, true)
}

// litPrice is the price of literal c.
func (o *optStats) litPrice(c byte) int {
	return o.litBase - min(int(o.wLit[c]), o.litBase-priceOne)
}

// llPrice is the price of a literal length.
func (o *optStats) llPrice(n uint32) int {
	if n == maxBlockSize {
		// Not representable: what a block of only literals costs.
		return priceOne + o.llPrice(maxBlockSize-1)
	}
	return int(o.llP[llCode(n)])
}

// offPrice is the price of a match's offset value, and mlPrice of its
// length: a match costs their sum.
func (o *optStats) offPrice(offBase uint32) int { return int(o.ofP[bits.Len32(offBase)-1]) }

func (o *optStats) mlPrice(length uint32) int { return int(o.mlP[mlCode(length-zfmt.MinMatch)]) }

// update counts a sequence in the statistics.
func (o *optStats) update(lits []byte, offBase, length uint32) {
	for _, c := range lits {
		o.lit[c] += litFreqAdd
		o.wLit[c] = int32(o.weight(o.lit[c]))
	}
	o.litSum += uint32(len(lits)) * litFreqAdd
	c := llCode(uint32(len(lits)))
	o.ll[c]++
	o.wLL[c] = int32(o.weight(o.ll[c]))
	o.llSum++
	c = uint8(bits.Len32(offBase) - 1)
	o.of[c]++
	o.wOF[c] = int32(o.weight(o.of[c]))
	o.ofSum++
	c = mlCode(length - zfmt.MinMatch)
	o.ml[c]++
	o.wML[c] = int32(o.weight(o.ml[c]))
	o.mlSum++
}

// newRep returns the repeat offsets after a sequence of offset value
// offBase, its literals none when ll0 (ZSTD_newRep).
func newRep(r [3]uint32, offBase uint32, ll0 bool) [3]uint32 {
	if offBase > 3 {
		return [3]uint32{offBase - 3, r[0], r[1]}
	}
	code := offBase - 1
	if ll0 {
		code++
	}
	switch code {
	case 0:
		return r
	case 1:
		return [3]uint32{r[1], r[0], r[2]}
	}
	return [3]uint32{repOffset(r, offBase, ll0), r[0], r[1]}
}

// btFinder is the binary tree of the optimal parser (ZSTD_insertBt1,
// ZSTD_insertBtAndGetAllMatches): unlike btlazy2's, every position is
// sorted into it when inserted. Its tables hold indices, positions plus
// the Encoder's base, which grows when btultra2 forgets its first pass.
type btFinder struct {
	hash, tree, hash3 []uint32
	h, h3             hasher
	mls               int // hashed bytes, 3-6; matches are at least min(mls, 4)
	btMask            uint32
	attempts          int
	sufficient        uint32 // a match longer than this is taken at once
	base              uint32
	next, next3       int // the first positions not yet in the tree, the 3-byte table
	ms                [optNum + 3]optMatch
}

// insert sorts position ip into the tree and returns how many positions
// to move on: past the inside of a long match.
func (b *btFinder) insert(src []byte, ip, end int) int {
	hash, tree, btMask, base := b.hash, b.tree, b.btMask, b.base
	h := b.h.at(src, ip)
	m := hash[h]
	curr := uint32(ip) + base
	btLow := treeLow(curr, btMask)
	w := newTreeWalk(curr, btMask)
	matchEnd := curr + 9
	best := 8
	hash[h] = curr
	for n := b.attempts; n > 0 && m >= base; n-- {
		ml := min(w.lenSmaller, w.lenLarger)
		pos := int(m - base)
		ml += treeMatchLen(src, pos+ml, ip+ml, end)
		if ml > best {
			best = ml
			matchEnd = max(matchEnd, m+uint32(ml))
		}
		if ip+ml == end {
			break // equal so far: neither smaller nor larger
		}
		var more bool
		if w, m, more = w.link(tree, btMask, m, ml, src[pos+ml] < src[ip+ml], btLow); !more {
			break
		}
	}
	w.close(tree)
	skip := 0
	if best > 384 {
		skip = min(192, best-384)
	}
	return max(skip, int(matchEnd-(curr+8)))
}

// matches inserts the positions up to ip and returns ip's matches (in
// b.ms), each longer than the one before: the repeat offsets first (the
// last one, less one, when ll0 (no literals before) shifts them), then
// a 3-byte hash's candidate, then the tree's. Matches end at end.
func (b *btFinder) matches(src []byte, ip, end int, rep *[3]uint32, ll0 bool) int {
	if ip < b.next {
		return 0 // inside a long match found before
	}
	for i := b.next; i < ip; {
		i += b.insert(src, i, end)
	}
	b.next = ip
	b.h.prefetchNext(b.hash, src, ip, end)
	ms := b.ms[:]
	minMatch := min(b.mls, 4)
	n := 0
	best := minMatch - 1
	first := uint32(0)
	if ll0 {
		first = 1
	}
	for code := first; code < 3+first; code++ {
		off := repOffset(*rep, code-first+1, ll0)
		// 1 <= off <= ip: within the frame.
		if off-1 >= uint32(ip) || !sameMin(src, ip, ip-int(off), minMatch) {
			continue
		}
		l := matchLen(src, ip+minMatch-int(off), ip+minMatch, end) + minMatch
		if l > best {
			best = l
			ms[n] = optMatch{off: code - first + 1, len: uint32(l)}
			n++
			if uint32(l) > b.sufficient || ip+l == end {
				return n
			}
		}
	}
	curr := uint32(ip) + b.base
	if b.mls == 3 && best < 3 {
		hash3 := b.hash3
		for i := b.next3; i < ip; i++ {
			hash3[b.h3.at(src, i)] = uint32(i) + b.base
		}
		b.next3 = ip
		m3 := hash3[b.h3.at(src, ip)]
		if m3 >= b.base && curr-m3 < 1<<18 {
			if l := matchLen(src, int(m3-b.base), ip, end); l >= 3 {
				best = l
				ms[0] = optMatch{off: curr - m3 + 3, len: uint32(l)}
				n = 1
				if uint32(l) > b.sufficient || ip+l == end {
					b.next = ip + 1
					return 1
				}
			}
		}
	}
	hash, tree, btMask, base := b.hash, b.tree, b.btMask, b.base
	h := b.h.at(src, ip)
	m := hash[h]
	hash[h] = curr
	btLow := treeLow(curr, btMask)
	w := newTreeWalk(curr, btMask)
	matchEnd := curr + 9
	for k := b.attempts; k > 0 && m >= base; k-- {
		ml := min(w.lenSmaller, w.lenLarger)
		pos := int(m - base)
		ml += treeMatchLen(src, pos+ml, ip+ml, end)
		if ml > best {
			matchEnd = max(matchEnd, m+uint32(ml))
			best = ml
			ms[n] = optMatch{off: curr - m + 3, len: uint32(ml)}
			n++
			if ml > optNum || ip+ml == end {
				break // neither smaller nor larger, as far as it is known
			}
		}
		var more bool
		if w, m, more = w.link(tree, btMask, m, ml, src[pos+ml] < src[ip+ml], btLow); !more {
			break
		}
	}
	w.close(tree)
	b.next = int(matchEnd - 8 - base)
	return n
}

// sameMin reports whether the minMatch (3 or 4) bytes at a and b are
// equal; 4 are readable at both.
func sameMin(src []byte, a, b, minMatch int) bool {
	x := le.Load32(src, a) ^ le.Load32(src, b)
	if minMatch == 3 {
		x <<= 8
	}
	return x == 0
}

// optimal appends the sequences of src[start:end] and their literals,
// chosen by the optimal parser; ultra is optLevel 2 (btultra and
// btultra2), else optLevel 0 (btopt).
//
// Loads stay within src (le.Load* does not check): the positions
// searched, hashed and inserted are at most ilimit = end-8, matches are
// counted up to end, and a repeat offset is tried only where it is at
// most the position.
func (e *Encoder) optimal(src []byte, start, end int, ultra bool) {
	o, b := &e.stats, &e.bt
	opt := e.optTable
	ms := b.ms[:]
	sufficient := b.sufficient
	minMatch := uint32(min(b.mls, 4))
	if start > b.next+384 {
		// After a long match, insert only the end of what it skipped
		// (ZSTD_buildSeqStore).
		b.next = start - min(192, start-b.next-384)
	}
	b.next3 = b.next
	o.rescale(src[start:end])
	rep := e.reps
	ilimit := end - 8
	ip, anchor := start, start
	if ip == 0 {
		ip = 1 // the frame's first byte is a literal
	}
	price := func(i uint32) int { return int(opt[i].price) }
	llInc := func(n uint32) int { return o.llPrice(n) - o.llPrice(n-1) }
	for ip < ilimit {
		var cur, lastPos uint32
		var last optimal
		// The first match.
		litlen := uint32(ip - anchor)
		nb := b.matches(src, ip, end, &rep, litlen == 0)
		if nb == 0 {
			ip++
			continue
		}
		// opt holds stretches: a match, then literals. The literals
		// before the first match cost the same on every path: only
		// their length's price counts.
		opt[0] = optimal{litlen: litlen, price: int32(o.llPrice(litlen)), rep: rep}
		if maxML := ms[nb-1].len; maxML > sufficient {
			last = optimal{mlen: maxML, off: ms[nb-1].off}
			lastPos = maxML
			goto path
		}
		{
			pos := uint32(1)
			for ; pos < minMatch; pos++ {
				opt[pos].price, opt[pos].mlen, opt[pos].litlen = maxPrice, 0, litlen+pos
			}
			ll0 := o.llPrice(0)
			for _, m := range ms[:nb] {
				at := price(0) + o.offPrice(m.off) + ll0
				for ; pos <= m.len; pos++ {
					opt[pos].mlen, opt[pos].off, opt[pos].litlen = pos, m.off, 0
					opt[pos].price = int32(at + o.mlPrice(pos))
				}
			}
			lastPos = pos - 1
			opt[pos].price = maxPrice
		}
		for cur = 1; cur <= lastPos; cur++ {
			inr := ip + int(cur)
			// A literal reaching cur, if cheaper.
			if ll, pr := opt[cur-1].litlen+1, price(cur-1)+o.litPrice(src[inr-1])+llInc(opt[cur-1].litlen+1); pr <= price(cur) {
				prevMatch := opt[cur]
				opt[cur] = opt[cur-1]
				opt[cur].litlen, opt[cur].price = ll, int32(pr)
				if ultra && prevMatch.litlen == 0 && llInc(1) < 0 && inr < end {
					// Would the match replaced here, and one literal,
					// be cheaper at the next position?
					with1 := int(prevMatch.price) + o.litPrice(src[inr]) + llInc(1)
					withMore := pr + o.litPrice(src[inr]) + llInc(ll+1)
					if with1 < withMore && with1 < price(cur+1) {
						prev := cur - prevMatch.mlen
						opt[cur+1] = prevMatch
						opt[cur+1].rep = newRep(opt[prev].rep, prevMatch.off, opt[prev].litlen == 0)
						opt[cur+1].litlen, opt[cur+1].price = 1, int32(with1)
						lastPos = max(lastPos, cur+1)
					}
				}
			}
			if opt[cur].litlen == 0 {
				// A match ends at cur: its repeat offsets.
				prev := cur - opt[cur].mlen
				opt[cur].rep = newRep(opt[prev].rep, opt[cur].off, opt[prev].litlen == 0)
			}
			if inr > ilimit {
				continue
			}
			if cur == lastPos {
				break
			}
			if !ultra && price(cur+1) <= price(cur)+priceOne/2 {
				continue // the next position is as cheap: skip this one
			}
			base := price(cur) + o.llPrice(0)
			nb := b.matches(src, inr, end, &opt[cur].rep, opt[cur].litlen == 0)
			if nb == 0 {
				continue
			}
			if longest := ms[nb-1].len; longest > sufficient || cur+longest >= optNum || inr+int(longest) >= end {
				last = optimal{mlen: longest, off: ms[nb-1].off}
				lastPos = cur + longest
				goto path
			}
			for i, m := range ms[:nb] {
				startML := minMatch
				if i > 0 {
					startML = ms[i-1].len + 1
				}
				at := base + o.offPrice(m.off)
				for ml := m.len; ml >= startML; ml-- {
					pos := cur + ml
					pr := at + o.mlPrice(ml)
					if pos > lastPos || pr < price(pos) {
						for lastPos < pos {
							lastPos++
							opt[lastPos].price, opt[lastPos].litlen = maxPrice, 1
						}
						opt[pos].mlen, opt[pos].off, opt[pos].litlen, opt[pos].price = ml, m.off, 0, int32(pr)
					} else if !ultra {
						break
					}
				}
			}
			opt[lastPos+1].price = maxPrice
		}
		last = opt[lastPos]
		cur = lastPos - last.mlen

	path:
		// The cheapest path to lastPos, read backwards from its last
		// stretch; cur is where that stretch's match starts.
		if last.mlen == 0 {
			ip += int(lastPos) // literals all the way
			continue
		}
		if last.litlen == 0 {
			rep = newRep(opt[cur].rep, last.off, opt[cur].litlen == 0)
		} else {
			// libzstd 1.5.6 drops the literals after the last match
			// here; the next stretch starts at the match's end.
			rep = last.rep
			cur -= last.litlen
		}
		storeEnd := cur + 2
		storeStart := storeEnd
		opt[storeEnd] = last
		for stretchPos := cur; ; {
			next := opt[stretchPos]
			opt[storeStart].litlen = next.litlen
			if next.mlen == 0 {
				break
			}
			storeStart--
			opt[storeStart] = next
			stretchPos -= next.litlen + next.mlen
		}
		for _, s := range opt[storeStart : storeEnd+1] {
			// Every stretch here ends in a match: the walk stops
			// before the first without one.
			lits := src[anchor : anchor+int(s.litlen)]
			o.update(lits, s.off, s.mlen)
			e.lits = append(e.lits, lits...)
			e.seqs = append(e.seqs, seq{litLen: s.litlen, matchLen: s.mlen - zfmt.MinMatch, offset: s.off})
			anchor += int(s.litlen + s.mlen)
			ip = anchor
		}
		o.setBases()
	}
	e.lits = append(e.lits, src[anchor:end]...)
	e.reps = rep
}

// startOptimal readies the optimal parser's tables and statistics for a
// frame at parameters p.
func (e *Encoder) startOptimal(p params) {
	mls := int(min(max(p.minMatch, 3), 6))
	b := &e.bt
	b.hash, b.tree = e.hash, e.chain
	b.h = newHasher(p.hashLog, uint8(mls))
	b.mls = mls
	b.btMask = 1<<(p.chainLog-1) - 1
	b.attempts = 1 << p.searchLog
	b.sufficient = uint32(min(int(p.targetLength), optNum-1))
	b.base, b.next = e.base, 0
	if p.minMatch == 3 {
		log := min(hash3MaxLog, p.windowLog)
		e.hash3 = growTable(e.hash3, 1<<log)
		b.hash3, b.h3 = e.hash3, newHasher(log, 3)
	}
	if e.optTable == nil {
		e.optTable = make([]optimal, optNum+3)
	}
	e.stats = optStats{frac: p.strategy >= stratBtUltra}
}
