//go:build gc && !purego && !noasm

package zenc

import (
	"bytes"
	"slices"
	"testing"
)

// FuzzSearch: fastAsm, dfastAsm and lazyAsm write what their twins
// fastGo, dfastGo and lazyGo write, the same sequences, literals and
// repeat offsets, the same tables and (lazy) the same finder, block after
// block of a frame whose tables hold an earlier frame's indices, on any
// input, split and table sizes, with each minimum match and (lazy) each
// depth, number of attempts and way of inserting, over the hash chain
// or the rows (chainLog's high bit; their tags start as any bytes), or
// btlazy2's binary tree (chainLog's next bit, over lazy2).
func FuzzSearch(f *testing.F) {
	if !hasBMI2 {
		f.Skip("no BMI2 here: the searches run their Go twins only, so there is nothing to compare")
	}
	for _, in := range inputs(f) {
		for _, strategy := range []uint8{stratFast, stratDFast, stratGreedy, stratLazy, stratLazy2} {
			f.Add(in[:min(len(in), 40000)], strategy-stratFast, uint8(11), uint8(10), uint8(1), uint16(9000), uint32(1<<20))
		}
		// 256 attempts (libzstd level 8 under 16 KiB), a small hash table: long chains.
		f.Add(in[:min(len(in), 40000)], uint8(40+stratLazy2-stratFast), uint8(11), uint8(9), uint8(1), uint16(9000), uint32(1<<20))
		for _, strategy := range []uint8{stratGreedy, stratLazy, 5 + stratLazy2, 10 + stratLazy2, 35 + stratLazy2} {
			f.Add(in[:min(len(in), 40000)], strategy-stratFast, uint8(9), uint8(0x80), uint8(1), uint16(9000), uint32(1<<20))
		}
		// The binary tree (chainLog's 0x40): 4 and 64 attempts over 2^13
		// nodes; 32 attempts over the whole input and 2^7 nodes, so that
		// walks reach the oldest.
		for _, strategy := range []uint8{10 + stratLazy2, 30 + stratLazy2} {
			f.Add(in[:min(len(in), 40000)], strategy-stratFast, uint8(11), uint8(0x40+4), uint8(1), uint16(9000), uint32(1<<20))
		}
		f.Add(in, uint8(25+stratLazy2-stratFast), uint8(9), uint8(0x40+8), uint8(0), uint16(30000), uint32(0))
	}
	f.Add([]byte("abcdefgh abcdefgh abcdefgh abcdefgh 0123456789 0123456789"), uint8(stratDFast-stratFast), uint8(0), uint8(0), uint8(0), uint16(10), uint32(0))
	f.Fuzz(func(t *testing.T, in []byte, strategy, hashLog, chainLog, minMatch uint8, split uint16, base uint32) {
		p := params{hashLog: 6 + hashLog%10, chainLog: 6 + chainLog%10, minMatch: 4 + minMatch%5, strategy: stratFast + strategy%5,
			searchLog: (strategy / 5) % 9, windowLog: 14 + (strategy/35)%2}
		asmSearch, goSearch := (*Encoder).fast, (*Encoder).fastGo
		switch p.strategy {
		case stratDFast:
			asmSearch, goSearch = (*Encoder).dfast, (*Encoder).dfastGo
		case stratGreedy, stratLazy, stratLazy2, stratBtLazy2:
			asmSearch = func(e *Encoder, src []byte, start, end int, p params) { e.lazy(src, start, end, p, &e.finder) }
			goSearch = func(e *Encoder, src []byte, start, end int, p params) { e.lazyGo(src, start, end, p, &e.finder) }
		}
		base %= 1 << 30
		rows := chainLog&0x80 != 0 && p.strategy >= stratGreedy
		tree := chainLog&0xC0 == 0x40 && p.strategy == stratLazy2
		if tree {
			p.strategy = stratBtLazy2
		}
		var asm, twin Encoder
		for _, e := range []*Encoder{&asm, &twin} {
			// An earlier frame's indices, base or below: none is a candidate.
			e.hash = make([]uint32, 1<<p.hashLog)
			e.chain = make([]uint32, 1<<p.chainLog)
			for _, tab := range [][]uint32{e.hash, e.chain} {
				for i := range tab {
					tab[i] = uint32(uint64(i) * 2654435761 % (uint64(base) + 1))
				}
			}
			e.base = base
			e.reps = [3]uint32{1, 4, 8}
			// The lazy strategies' finder, as EncodeAll makes it.
			h := newHasher(p.hashLog, min(max(p.minMatch, 4), 6))
			e.finder = finder{hash: e.hash[:h.tableMask+1], chain: e.chain, h: h, chainMask: 1<<p.chainLog - 1,
				base: base, attempts: 1 << p.searchLog, rowSkips: p.windowLog > 14}
			if tree {
				e.finder.tree, e.finder.btMask = true, 1<<(p.chainLog-1)-1
			}
			if rows {
				e.tags = make([]uint8, 1<<p.hashLog)
				for i := range e.tags {
					e.tags[i] = uint8(i * 167 >> 3)
				}
				e.finder = finder{hash: e.hash, base: base}
				e.finder.rows(e.tags, p.hashLog, p.searchLog, min(max(p.minMatch, 4), 6))
			}
		}
		cut := int(split) % (len(in) + 1)
		for _, blk := range [][2]int{{0, cut}, {cut, len(in)}} {
			for _, e := range []*Encoder{&asm, &twin} {
				e.seqs = make([]seq, 0, (blk[1]-blk[0])/4+1)
				e.lits = make([]byte, 0, blk[1]-blk[0]+16)
			}
			asmSearch(&asm, in, blk[0], blk[1], p)
			goSearch(&twin, in, blk[0], blk[1], p)
			if !slices.Equal(asm.seqs, twin.seqs) {
				t.Fatalf("block %v, %+v: sequences differ: %d against %d\n%v\n%v", blk, p, len(asm.seqs), len(twin.seqs), asm.seqs, twin.seqs)
			}
			if !bytes.Equal(asm.lits, twin.lits) || asm.reps != twin.reps {
				t.Fatalf("block %v, %+v: literals (%d against %d bytes) or offsets (%v against %v) differ", blk, p, len(asm.lits), len(twin.lits), asm.reps, twin.reps)
			}
			if !slices.Equal(asm.hash, twin.hash) || !slices.Equal(asm.chain, twin.chain) || !bytes.Equal(asm.tags, twin.tags) {
				t.Fatalf("block %v, %+v: tables differ", blk, p)
			}
			a, g := asm.finder, twin.finder
			if a.next != g.next || a.nextHash != g.nextHash || a.nextHashed != g.nextHashed || a.skipping != g.skipping || a.cache != g.cache {
				t.Fatalf("block %v, %+v: finders differ", blk, p)
			}
		}
	})
}
