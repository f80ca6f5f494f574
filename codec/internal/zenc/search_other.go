//go:build !amd64 || !gc || purego || noasm

package zenc

// fast, dfast and lazy run the searches in Go, and encode codes the
// sequences in Go, where they have no assembly twins.
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
