//go:build !amd64 || !gc || purego || noasm

package zenc

// dfast runs the double fast search in Go where there is no assembly
// twin.
func (e *Encoder) dfast(src []byte, start, end int, p params) {
	e.dfastGo(src, start, end, p)
}
