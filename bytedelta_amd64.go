//go:build gc && !purego && !noasm

package blosc2

// BYTEDELTA kernels (contracts: vecKernels.diff and sum). n is a positive
// multiple of 16 (SSE2) or 32 (AVX2); diff reads src[:n+1]. The AVX2 ones
// need AVX2.

//go:noescape
func diffSSE2(dst, src []byte, n int)

//go:noescape
func sumSSE2(dst, src []byte, n int)

//go:noescape
func diffAVX2(dst, src []byte, n int)

//go:noescape
func sumAVX2(dst, src []byte, n int)
