//go:build gc && !purego && !noasm

package blosc2

// BYTEDELTA kernels (contracts: vecKernels.diff and sum). n is a positive
// multiple of 16; diff reads src[:n+1].

//go:noescape
func diffNEON(dst, src []byte, n int)

//go:noescape
func sumNEON(dst, src []byte, n int)
