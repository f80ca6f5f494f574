package codec

// Adler-32 (RFC 1950), the checksum that ends every zlib stream. The
// standard library's hash/adler32 sums a byte at a time, about a fifth of
// zlib decompression's time on the shared logs; zlib-ng sums with vector
// instructions. adler32Update runs the vector kernel where there is one
// (adler32_amd64.s) and adler32Generic, its pure-Go twin, elsewhere and for
// the tail.

const (
	adlerMod = 65521 // the largest prime below 2^16
	// adlerNMax is the most bytes summed before s2 must be reduced: the
	// largest n with 255·n·(n+1)/2 + (n+1)·(adlerMod-1) < 2^32.
	adlerNMax = 5552
	// adlerVecBytes is the vector kernel's step: it sums whole multiples.
	adlerVecBytes = 32
)

// adler32Update returns the Adler-32 of p continued from adler (1 for a
// new checksum).
func adler32Update(adler uint32, p []byte) uint32 {
	if n := len(p) &^ (adlerVecBytes - 1); adlerVec && n > 0 {
		adler = adler32Vec(adler, p[:n])
		p = p[n:]
	}
	return adler32Generic(adler, p)
}

// adler32Generic is the kernel's twin: the two running sums a byte at a
// time, reduced once per adlerNMax bytes.
func adler32Generic(adler uint32, p []byte) uint32 {
	s1, s2 := adler&0xffff, adler>>16
	for len(p) > 0 {
		n := min(len(p), adlerNMax)
		for _, b := range p[:n] {
			s1 += uint32(b)
			s2 += s1
		}
		s1 %= adlerMod
		s2 %= adlerMod
		p = p[n:]
	}
	return s2<<16 | s1
}
