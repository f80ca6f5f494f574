package zenc

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/klauspost/compress/huff0"
)

// huffDecode decodes a literals section body written by huffCoder with
// klauspost's huff0, an independent decoder.
func huffDecode(t testing.TB, out []byte, n int, single bool) []byte {
	t.Helper()
	s, rest, err := huff0.ReadTable(out, nil)
	if err != nil {
		t.Fatalf("huff0 reads no table: %v", err)
	}
	s.MaxDecodedSize = n
	var got []byte
	if single {
		got, err = s.Decompress1X(rest)
	} else {
		got, err = s.Decompress4X(rest, n)
	}
	if err != nil {
		t.Fatalf("huff0 decodes no stream: %v", err)
	}
	return got
}

// TestHuffLimit: on count distributions whose Huffman trees are deeper
// than the limit (Fibonacci counts, geometric ones) and on random ones,
// the code lengths make a complete prefix code (Kraft sum exactly one, as
// the decoder infers the last weight from it), none longer than the
// limit, every counted symbol has one, and huff0 decodes literals with
// these counts.
func TestHuffLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var dists [][]uint32
	fib := make([]uint32, 20) // a tree 19 deep
	fib[0], fib[1] = 1, 1
	for i := 2; i < len(fib); i++ {
		fib[i] = fib[i-1] + fib[i-2]
	}
	dists = append(dists, fib)
	for range 300 {
		n := 2 + rng.IntN(255)
		d := make([]uint32, n)
		for i := range d {
			switch rng.IntN(3) {
			case 0:
				d[i] = 1 + rng.Uint32N(1000)
			case 1:
				d[i] = 1 << rng.IntN(14)
			default:
				d[i] = uint32(rng.IntN(2)) * (1 + rng.Uint32N(20))
			}
		}
		dists = append(dists, d)
	}
	var h huffCoder
	deep := 0
	for k, d := range dists {
		// Literals with these counts, in random order.
		var lits []byte
		for s, c := range d {
			lits = append(lits, bytes.Repeat([]byte{byte(s)}, int(c))...)
		}
		if len(lits) <= 63 || len(lits) > 128<<10 {
			continue
		}
		rng.Shuffle(len(lits), func(i, j int) { lits[i], lits[j] = lits[j], lits[i] })
		clear(h.count[:])
		maxSym, used := 0, 0
		for _, b := range lits {
			if h.count[b] == 0 {
				used++
			}
			h.count[b]++
			maxSym = max(maxSym, int(b))
		}
		if used < 2 {
			continue // RLE
		}
		limit := huffLog(len(lits), maxSym)
		maxBits := h.build(maxSym, limit)
		// The leaves: every symbol counted, largest count first, smaller
		// values first among equal counts.
		for i, n := range h.nodes[:used] {
			if n.count != h.count[n.sym] {
				t.Fatalf("dist %d: leaf %d, symbol %d counted %d, holds %d", k, i, n.sym, h.count[n.sym], n.count)
			}
			if p := h.nodes[max(i-1, 0)]; i > 0 && !(p.count > n.count || p.count == n.count && p.sym < n.sym) {
				t.Fatalf("dist %d: leaf %d, symbol %d counted %d, after symbol %d counted %d", k, i, n.sym, n.count, p.sym, p.count)
			}
		}
		if maxBits > limit {
			t.Fatalf("dist %d: longest code %d bits, limit %d", k, maxBits, limit)
		}
		if k == 0 {
			if maxBits != limit {
				t.Fatalf("the Fibonacci counts: longest code %d bits, not the limit %d", maxBits, limit)
			}
			deep++
		}
		kraft := 0
		for s := range maxSym + 1 {
			b := h.nbBits[s]
			if (b == 0) != (h.count[s] == 0) {
				t.Fatalf("dist %d: symbol %d counted %d has a %d-bit code", k, s, h.count[s], b)
			}
			if b != 0 {
				kraft += 1 << (maxBits - b)
			}
		}
		if kraft != 1<<maxBits {
			t.Fatalf("dist %d: Kraft sum %d/%d", k, kraft, 1<<maxBits)
		}
		for _, single := range []bool{true, false} {
			if !single && len(lits) < 256 {
				continue
			}
			out, rle := h.compress(lits, single, math.MaxInt)
			if rle || out == nil {
				continue
			}
			if got := huffDecode(t, out, len(lits), single); !bytes.Equal(got, lits) {
				t.Fatalf("dist %d (single %v): huff0 decodes other literals", k, single)
			}
		}
	}
	if deep == 0 {
		t.Fatal("no distribution reached the limit")
	}
}

// FuzzHuff: whatever the literals, a section huffCoder writes decodes
// back with huff0.
func FuzzHuff(f *testing.F) {
	f.Add([]byte("abracadabra, abracadabra, abracadabra, abracadabra, abracadabra, abracadabra"), false)
	f.Add(bytes.Repeat([]byte{0, 1, 2, 3, 0, 0, 0, 7}, 100), true)
	f.Fuzz(func(t *testing.T, lits []byte, single bool) {
		if len(lits) <= 63 || len(lits) > 128<<10 || !single && len(lits) < 256 {
			return
		}
		var h huffCoder
		out, rle := h.compress(lits, single, math.MaxInt)
		if rle {
			if !bytes.Equal(lits, bytes.Repeat(lits[:1], len(lits))) {
				t.Fatal("rle for literals of more than one value")
			}
			return
		}
		if out == nil {
			return
		}
		if got := huffDecode(t, out, len(lits), single); !bytes.Equal(got, lits) {
			t.Fatal("huff0 decodes other literals")
		}
		// The streams' length compress foresees is never above theirs:
		// a limit one past the section's length keeps it.
		n := len(out)
		if again, _ := h.compress(lits, single, n+1); len(again) != n {
			t.Fatalf("limit %d: %d bytes, %d without a limit", n+1, len(again), n)
		}
	})
}

// TestHuffStreamRounds: the stream's words gather five codes between
// flushes, the last of each round written without its length bits, which
// matters when the five are long (62 bits with the 7 a flush leaves).
// Literals whose rarest symbols get the longest codes allowed (11 bits),
// placed side by side at every offset against the rounds, in every
// remainder of the length modulo ten and in one stream and four, decode
// back with huff0.
func TestHuffStreamRounds(t *testing.T) {
	var base []byte
	for s, c := range []int{4096, 2048, 1024, 512, 256, 128, 64, 32, 16, 8, 4, 2, 1, 1} {
		base = append(base, bytes.Repeat([]byte{byte(s)}, c)...)
	}
	// The 24 rarest literals, placed side by side at a position that
	// moves by one against the rounds from case to case.
	rare := base[len(base)-24:]
	var h huffCoder
	long := 0
	for extra := range 20 {
		for at := range 12 {
			lits := slices.Concat(base[:len(base)-24], bytes.Repeat([]byte{0}, extra))
			cut := len(lits) - 100 - at
			lits = slices.Concat(lits[:cut], rare, lits[cut:])
			for _, single := range []bool{true, false} {
				out, rle := h.compress(lits, single, math.MaxInt)
				if rle || out == nil {
					t.Fatalf("%d literals: not Huffman-coded", len(lits))
				}
				if h.nbBits[13] == huffMaxBits {
					long++
				}
				if got := huffDecode(t, out, len(lits), single); !bytes.Equal(got, lits) {
					t.Fatalf("%d literals, rare ones at %d, single %v: huff0 decodes other literals", len(lits), cut, single)
				}
			}
		}
	}
	if long == 0 {
		t.Fatal("no case had 11-bit codes")
	}
}

// TestEntropyBits: the entropy entropyBits returns is never above the
// exact one, and below it by at most 0.012 bits a symbol (log2 of the
// total and of each count each off by up to 0.0056), on counts of every
// magnitude a block's literals reach.
func TestEntropyBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 2000 {
		count := make([]uint32, 1+rng.IntN(256))
		n := 0
		for s := range count {
			if rng.IntN(4) > 0 {
				count[s] = uint32(rng.IntN(1 << (1 + trial%17)))
			}
			n += int(count[s])
		}
		if n == 0 {
			continue
		}
		exact := 0.0
		for _, c := range count {
			if c != 0 {
				exact += float64(c) * math.Log2(float64(n)/float64(c))
			}
		}
		got := float64(entropyBits(count, n))
		if got > exact+1e-9 || got < exact-0.012*float64(n)-1 {
			t.Fatalf("trial %d: %d symbols: entropyBits %.0f, exact %.2f", trial, n, got, exact)
		}
	}
}
