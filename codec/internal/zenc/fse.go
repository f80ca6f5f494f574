package zenc

import (
	"math"
	"math/bits"

	"github.com/blosc2go/blosc2/codec/internal/zfmt"
)

// symbolTransform is how FSE_buildCTable encodes one symbol: from state
// s, (s+deltaNbBits)>>16 bits go out and the next state is
// states[s>>nbBits + deltaFind].
type symbolTransform struct {
	deltaNbBits uint32
	deltaFind   int32
}

// cTable is an FSE encoding table of 1<<log states.
type cTable struct {
	log    uint8
	states [1 << zfmt.MaxFSELog]uint16
	tt     [64]symbolTransform
}

// build fills t from the normalized counts norm (sum 1<<log, -1 counting
// as 1), which must be the ones the decoder reads for the same table.
func (t *cTable) build(norm []int16, log uint8) error {
	var symbols [1 << zfmt.MaxFSELog]uint8
	if _, err := zfmt.Spread(symbols[:], norm, log); err != nil {
		return err
	}
	size := 1 << log
	var cumul [65]int
	for s, n := range norm {
		cumul[s+1] = cumul[s] + int(max(n, 0))
		if n == -1 {
			cumul[s+1]++
		}
	}
	for u := range size {
		s := symbols[u]
		t.states[cumul[s]] = uint16(size + u)
		cumul[s]++
	}
	t.log = log
	total := int32(0)
	for s, n := range norm {
		switch n {
		case 0:
			t.tt[s] = symbolTransform{deltaNbBits: uint32(log+1)<<16 - uint32(size)}
		case -1, 1:
			t.tt[s] = symbolTransform{deltaNbBits: uint32(log)<<16 - uint32(size), deltaFind: total - 1}
			total++
		default:
			maxBitsOut := uint32(log) - uint32(bits.Len32(uint32(n-1))-1)
			minStatePlus := uint32(n) << maxBitsOut
			t.tt[s] = symbolTransform{deltaNbBits: maxBitsOut<<16 - minStatePlus, deltaFind: total - int32(n)}
			total += int32(n)
		}
	}
	return nil
}

// rle makes t the table of the one symbol s: its states cost no bits.
func (t *cTable) rle(s uint8) {
	t.log = 0
	t.states[0] = 1
	t.tt[s] = symbolTransform{deltaNbBits: 0xFFFFFFFF, deltaFind: -1}
}

// init returns the state that encodes s first (FSE_initCState2).
func (t *cTable) init(s uint8) uint32 {
	tt := t.tt[s]
	nb := (tt.deltaNbBits + 1<<15) >> 16
	v := nb<<16 - tt.deltaNbBits
	return uint32(t.states[int32(v>>nb)+tt.deltaFind])
}

// optimalLog is FSE_optimalTableLog: the accuracy log for n symbols of
// which the largest is maxSym, at most maxLog.
func optimalLog(maxLog uint8, n int, maxSym int) uint8 {
	maxBitsSrc := bits.Len32(uint32(n-1)) - 1 - 2
	minBits := min(bits.Len32(uint32(n)), bits.Len32(uint32(maxSym))+1)
	log := int(maxLog)
	if maxBitsSrc < log {
		log = maxBitsSrc
	}
	if minBits > log {
		log = minBits
	}
	return uint8(min(max(log, 5), 12))
}

// normalize scales counts (summing to total) to sum 1<<log into norm,
// every present symbol keeping at least one state. With lowProb,
// symbols rarer than one state in the table get -1 ("less than 1").
func normalize(norm []int16, counts []uint32, total int, log uint8, lowProb bool) {
	scale := uint64(1) << log
	low := uint64(total) >> log
	sum := 0
	largest, largestN := 0, int16(0)
	for s, c := range counts {
		switch {
		case c == 0:
			norm[s] = 0
			continue
		case lowProb && uint64(c) <= low:
			norm[s] = -1
			sum++
			continue
		}
		v := uint64(c) * scale
		n := v / uint64(total)
		if (v-n*uint64(total))*2 >= uint64(total) {
			n++
		}
		n = max(n, 1)
		norm[s] = int16(n)
		sum += int(n)
		if norm[s] > largestN {
			largest, largestN = s, norm[s]
		}
	}
	diff := int(scale) - sum
	if diff >= 0 || int(largestN)+diff >= int(largestN)/2+1 {
		norm[largest] += int16(diff)
		return
	}
	// Too many states handed out: take them back one at a time from
	// the symbols that lose least by it, the most frequent ones.
	for diff < 0 {
		best := -1
		for s, n := range norm {
			if n > 1 && (best < 0 || n > norm[best]) {
				best = s
			}
		}
		norm[best]--
		diff++
	}
}

// writeNCount appends the table description of norm (RFC 8878, 4.1.1),
// as FSE_writeNCount writes it.
func writeNCount(dst []byte, norm []int16, log uint8) []byte {
	var acc uint64
	var nbits uint
	put := func(v uint64, n uint) {
		acc |= v << nbits
		nbits += n
		for nbits >= 8 {
			dst = append(dst, byte(acc))
			acc >>= 8
			nbits -= 8
		}
	}
	put(uint64(log-5), 4)
	remaining := 1<<log + 1
	threshold := 1 << log
	nb := uint(log) + 1
	prev0 := false
	s := 0
	for s < len(norm) && remaining > 1 {
		if prev0 {
			start := s
			for s < len(norm) && norm[s] == 0 {
				s++
			}
			for s >= start+24 {
				start += 24
				put(0xFFFF, 16)
			}
			for s >= start+3 {
				start += 3
				put(3, 2)
			}
			put(uint64(s-start), 2)
		}
		c := int(norm[s])
		s++
		maxV := 2*threshold - 1 - remaining
		if c < 0 {
			remaining += c
		} else {
			remaining -= c
		}
		c++
		if c >= threshold {
			c += maxV
		}
		if c < maxV {
			put(uint64(c), nb-1)
		} else {
			put(uint64(c), nb)
		}
		prev0 = c == 1
		for remaining < threshold {
			nb--
			threshold >>= 1
		}
	}
	if nbits > 0 {
		dst = append(dst, byte(acc))
	}
	return dst
}

// log2Table[i] is log2(i) for i < 1<<MaxFSELog+1, to price symbols.
var log2Table = func() (t [1<<zfmt.MaxFSELog + 1]float64) {
	for i := 1; i < len(t); i++ {
		t[i] = math.Log2(float64(i))
	}
	return
}()

// cost is the number of bits the symbols of counts take under norm at
// log, or +Inf when a present symbol has no state.
func cost(counts []uint32, norm []int16, log uint8) float64 {
	bitsN := 0.0
	for s, c := range counts {
		if c == 0 {
			continue
		}
		if s >= len(norm) || norm[s] == 0 {
			return math.Inf(1)
		}
		n := max(norm[s], 1)
		bitsN += float64(c) * (float64(log) - log2Table[n])
	}
	return bitsN
}
