package blosc2

import "crypto/subtle"

// DELTA filter (blosc/delta.c). Blosc's delta is an XOR, in units of u bytes
// (deltaUnit). Unit k of a reference block (the chunk's block 0) is XORed
// with unit k-1 of the same block; every other block is XORed, unit by unit,
// with the chunk's raw first block. XOR works byte by byte, so an XOR of
// u-byte units is an XOR of bytes at distance u: the unit only decides the
// distance and which trailing bytes are left out.

// deltaUnit is the XOR unit of DELTA for a header typesize (blosc/delta.c): the
// typesize itself for 1, 2, 4 and 8, 8 for other multiples of 8, else 1.
func deltaUnit(typesize int) int {
	switch {
	case typesize == 1 || typesize == 2 || typesize == 4 || typesize == 8:
		return typesize
	case typesize > 0 && typesize%8 == 0:
		return 8
	}
	return 1
}

// deltaEncode applies DELTA to one block: src is the block's input, dst
// (len(dst) >= len(src), no overlap) receives len(src) bytes. ref == nil
// marks a reference block; otherwise ref is the chunk's raw first block,
// len(ref) >= len(src). The bytes past the last whole unit are copied
// (C-Blosc2 leaves them unwritten, so its output there is garbage);
// a reference block shorter than one unit is copied.
func deltaEncode(dst, src, ref []byte, typesize int) {
	n := len(src)
	dst = dst[:n]
	u := deltaUnit(typesize)
	m := n - n%u // bytes in whole units
	switch {
	case ref != nil:
		subtle.XORBytes(dst[:m], src[:m], ref[:m])
	case m > 0:
		copy(dst[:u], src[:u])
		subtle.XORBytes(dst[u:m], src[u:m], src[:m-u])
	}
	copy(dst[m:], src[m:])
}

// deltaDecode undoes DELTA in place on one block. ref == nil marks a
// reference block (a running XOR at distance u); otherwise ref is the fully
// decoded block 0 of the chunk, len(ref) >= len(buf). Bytes past the last
// whole unit are left as they are.
func deltaDecode(buf, ref []byte, typesize int) {
	u := deltaUnit(typesize)
	m := len(buf) - len(buf)%u
	if ref != nil {
		subtle.XORBytes(buf[:m], buf[:m], ref[:m])
		return
	}
	// Running XOR, a word at a time: within a word, log2(8/u) shifted XORs
	// form the prefix XOR of its units; the last decoded unit of the
	// previous word, repeated across the word, is then XORed in. u divides
	// 8, so units never straddle words.
	s := uint(8 * u)
	rep := uint64(1)
	for sh := s; sh < 64; sh <<= 1 {
		rep |= rep << sh
	}
	var prev uint64
	i := 0
	for ; i+8 <= m; i += 8 {
		x := load64(buf, i)
		for sh := s; sh < 64; sh <<= 1 {
			x ^= x << sh
		}
		x ^= (prev >> (64 - s)) * rep
		store64(buf, i, x)
		prev = x
	}
	for i = max(i, u); i < m; i++ {
		buf[i] ^= buf[i-u]
	}
}
