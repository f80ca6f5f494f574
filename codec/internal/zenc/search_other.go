//go:build !amd64 || !gc || purego || noasm

package zenc

import "unsafe"

// fast, dfast and lazy run the searches in Go, encode codes the
// sequences, huffRounds the literals and matchLenOn a long match's
// length in Go, where they have no assembly twins.
func (e *Encoder) fast(src []byte, start, end int, p params) {
	e.fastGo(src, start, end, p)
}

func (e *Encoder) dfast(src []byte, start, end int, p params) {
	e.dfastGo(src, start, end, p)
}

func (e *Encoder) lazy(src []byte, start, end int, p params, f *finder) {
	e.lazyGo(src, start, end, p, f)
}

func (c *seqCoder) encode(buf []byte, seqs []seq, codes [][3]uint8) {
	c.encodeGo(buf, seqs, codes)
}

func huffRounds(buf []byte, pos int, acc, bits uint64, lits []byte, code *[256]uint64) (int, uint64, uint64) {
	return huffRoundsGo(buf, pos, acc, bits, lits, code)
}

//go:noinline
func matchLenOn(src []byte, a, b, end int) int {
	return 16 + matchLen(src, a+16, b+16, end)
}

func prefetch(unsafe.Pointer) {}
