package zenc

import "github.com/blosc2go/blosc2/codec/internal/le"

// dfastGo is libzstd's "double fast" strategy (zstd_double_fast.c,
// ZSTD_compressBlock_doubleFast_noDict_generic): two hash tables of
// positions, one of 8-byte hashes (e.hash, hashLog bits) and one of
// minMatch-byte hashes (e.chain, chainLog bits), every position searched
// until the step accelerates; at each, the last offset one position
// ahead, then the long candidate, then the short one, which gives way to
// a long candidate one position ahead. It appends the sequences of
// src[start:end] to e.seqs and their literals to e.lits; src[:start] is
// the history matches may reach.
//
// Every load is within src, for the reasons fast's are: positions
// searched and hashed stay at or below ilimit = end-8, candidates are
// positions hashed earlier (0 is never hashed, and an index at or below
// base is none), and repeat offsets are at most the position they are
// tried at.
func (e *Encoder) dfastGo(src []byte, start, end int, p params) {
	hl := newHasher(p.hashLog, 8)
	hs := newHasher(p.chainLog, p.minMatch)
	long := e.hash[:hl.tableMask+1]
	short := e.chain[:hs.tableMask+1]
	base := int(e.base) // the tables hold positions plus base (see Encoder)
	ilimit := end - 8
	anchor := start
	ip, rep1, rep2 := e.searchStart(start)
	for {
		step := 1
		nextStep := ip + 1<<kSearchStrength
		ip1 := ip + step
		if ip1 > ilimit {
			break
		}
		hl0 := hl.at(src, ip)
		idxl0 := int(le.Get(long, hl0)) - base
		var curr, mLength int
		matched := false
	search:
		for {
			hs0 := hs.at(src, ip)
			idxs0 := int(le.Get(short, hs0)) - base
			curr = ip
			le.Set(long, hl0, uint32(ip+base))
			le.Set(short, hs0, uint32(ip+base))
			if rep1 > 0 && le.Load32(src, ip+1-int(rep1)) == le.Load32(src, ip+1) {
				mLength = matchLen(src, ip+5-int(rep1), ip+5, end) + 4
				ip++
				matched = true
				break
			}
			hl1 := hl.at(src, ip1)
			var m, idxl1 int
			if idxl0 > 0 && le.Load64(src, idxl0) == le.Load64(src, ip) {
				m, mLength = idxl0, matchLen(src, idxl0+8, ip+8, end)+8
				goto found
			}
			// The next position's long candidate, loaded before the
			// short check as libzstd loads it: its load overlaps the
			// check's.
			idxl1 = int(le.Get(long, hl1)) - base
			switch {
			case idxs0 > 0 && le.Load32(src, idxs0) == le.Load32(src, ip):
				// The short match, unless a long one starts at ip1.
				if idxl1 > 0 && le.Load64(src, idxl1) == le.Load64(src, ip1) {
					ip = ip1
					m, mLength = idxl1, matchLen(src, idxl1+8, ip+8, end)+8
				} else {
					m, mLength = idxs0, matchLen(src, idxs0+4, ip+4, end)+4
				}
			default:
				if ip1 >= nextStep {
					step++
					nextStep += 1 << kSearchStrength
				}
				ip = ip1
				ip1 += step
				hl0, idxl0 = hl1, idxl1
				if ip1 > ilimit {
					break search
				}
				continue
			}
		found:
			// A new offset: extend the match backwards.
			for ip > anchor && m > 0 && src[ip-1] == src[m-1] {
				ip--
				m--
				mLength++
			}
			rep2, rep1 = rep1, uint32(ip-m)
			if step < 4 {
				// ip1 is below the match's end (matches are at least 4
				// bytes long), so it is a position the search passed.
				le.Set(long, hl1, uint32(ip1+base))
			}
			matched = true
			break
		}
		if !matched {
			break
		}
		e.store(src[anchor:ip], rep1, uint32(mLength))
		ip += mLength
		anchor = ip
		if ip > ilimit {
			continue
		}
		le.Set(long, hl.at(src, curr+2), uint32(curr+2+base))
		le.Set(long, hl.at(src, ip-2), uint32(ip-2+base))
		le.Set(short, hs.at(src, curr+2), uint32(curr+2+base))
		le.Set(short, hs.at(src, ip-1), uint32(ip-1+base))
		for rep2 > 0 && ip <= ilimit && le.Load32(src, ip) == le.Load32(src, ip-int(rep2)) {
			r := matchLen(src, ip+4-int(rep2), ip+4, end) + 4
			rep1, rep2 = rep2, rep1
			le.Set(short, hs.at(src, ip), uint32(ip+base))
			le.Set(long, hl.at(src, ip), uint32(ip+base))
			e.store(nil, rep1, uint32(r))
			ip += r
			anchor = ip
		}
	}
	e.lits = append(e.lits, src[anchor:end]...)
}
