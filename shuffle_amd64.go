//go:build gc && !purego && !noasm

package blosc2

import "github.com/klauspost/cpuid/v2"

// amd64 levels: SSE2 (every amd64 CPU), AVX2 and AVX-512. cpuid reports
// AVX, AVX2 and AVX512* only when the OS saves the YMM and ZMM state too.
//
// The AVX-512 level needs VBMI (VPERMB) and GFNI besides AVX512F/BW, i.e.
// Ice Lake or later: its kernels pay through one-instruction byte
// permutations and bit transposes, which Skylake-X lacks; there the AVX2
// kernels, without the older cores' 512-bit frequency penalty, remain.

var archISAs = detectISAs()

func detectISAs() []isa {
	l := []isa{isaGeneric}
	if cpuid.CPU.Supports(cpuid.SSE2) {
		l = append(l, isaSSE2)
	}
	if cpuid.CPU.Supports(cpuid.SSE2, cpuid.AVX, cpuid.AVX2) {
		l = append(l, isaAVX2)
		if cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VBMI, cpuid.GFNI) {
			l = append(l, isaAVX512)
		}
	}
	return l
}

func archKernels(l isa) kernelSet {
	switch l {
	case isaSSE2:
		return sse2Kernels.set()
	case isaAVX2:
		return avx2Kernels.set()
	case isaAVX512:
		return avx512Kernels.set()
	}
	return genericKernels
}

var sse2Kernels = vecKernels{
	shuffle:        [3]func(dst, src []byte, stride, n int){shuffle2SSE2, shuffle4SSE2, shuffle8SSE2},
	unshuffle:      [3]func(dst, src []byte, stride, n int){unshuffle2SSE2, unshuffle4SSE2, unshuffle8SSE2},
	shuffle16:      shuffle16SSE2,
	shuffle16Strip: shuffle16StripSSE2,
	unshuffle16:    unshuffle16SSE2,
	bitTrans:       bitTransSSE2,
	bitUntrans:     bitUntransSSE2,
	diff:           diffSSE2,
	sum:            sumSSE2,
	vec:            [3]int{64, 64, 64},
	vec16:          8,
	stripVec:       64,
	bitVec:         64,
	untransVec:     128,
	deltaVec:       16,
}

var avx2Kernels = vecKernels{
	shuffle:        [3]func(dst, src []byte, stride, n int){shuffle2AVX2, shuffle4AVX2, shuffle8AVX2},
	unshuffle:      [3]func(dst, src []byte, stride, n int){unshuffle2AVX2, unshuffle4AVX2, unshuffle8AVX2},
	shuffle16:      shuffle16AVX2,
	shuffle16Strip: shuffle16StripAVX2,
	unshuffle16:    unshuffle16AVX2,
	bitTrans:       bitTransAVX2,
	bitUntrans:     bitUntransAVX2,
	diff:           diffAVX2,
	sum:            sumAVX2,
	vec:            [3]int{64, 64, 64},
	vec16:          16,
	stripVec:       64,
	bitVec:         64,
	untransVec:     256,
	deltaVec:       32,
}

// avx512Kernels has its own typesize 2, 4, 8 and bit kernels (512 bytes
// per iteration) and the AVX2 tile kernels for typesizes >= 16; the AVX2
// bit kernels take rows shorter than 512 bytes. BYTEDELTA uses the AVX2
// kernels (its cost is the running sum's chain, not the vector width).
var avx512Kernels = vecKernels{
	shuffle:        [3]func(dst, src []byte, stride, n int){shuffle2AVX512, shuffle4AVX512, shuffle8AVX512},
	unshuffle:      [3]func(dst, src []byte, stride, n int){unshuffle2AVX512, unshuffle4AVX512, unshuffle8AVX512},
	shuffle16:      shuffle16AVX2,
	shuffle16Strip: shuffle16StripAVX2,
	unshuffle16:    unshuffle16AVX2,
	bitTrans:       bitTransAVX512,
	bitUntrans:     bitUntransAVX512,
	diff:           diffAVX2,
	sum:            sumAVX2,
	vec:            [3]int{64, 64, 64},
	vec16:          16,
	stripVec:       64,
	bitVec:         512,
	untransVec:     512,
	deltaVec:       32,
	narrow:         &avx2Kernels,
}

// Kernel contracts: see vecKernels. n is a positive multiple of the
// kernel's width (the table above): 64 elements for shuffleK/unshuffleK, 8
// (SSE2) or 16 (AVX2) for the 16-byte tile kernels and 64 for their strip
// variants, 64 bytes for bitTrans, 128 (SSE2) or 256 (AVX2) bytes for
// bitUntrans, 512 bytes for the AVX-512 bit kernels. The strip variants use
// 1 KiB of stack. AVX2 and AVX-512 kernels need their level.

//go:noescape
func shuffle2SSE2(dst, src []byte, stride, n int)

//go:noescape
func shuffle4SSE2(dst, src []byte, stride, n int)

//go:noescape
func shuffle8SSE2(dst, src []byte, stride, n int)

//go:noescape
func shuffle16SSE2(dst, src []byte, srcStride, dstStride, n int)

//go:noescape
func unshuffle2SSE2(dst, src []byte, stride, n int)

//go:noescape
func unshuffle4SSE2(dst, src []byte, stride, n int)

//go:noescape
func unshuffle8SSE2(dst, src []byte, stride, n int)

//go:noescape
func shuffle16StripSSE2(dst, src []byte, srcStride, dstStride, n int)

//go:noescape
func unshuffle16SSE2(dst, src []byte, dstStride, srcStride, n int)

//go:noescape
func bitTransSSE2(dst, src []byte, stride, n int)

//go:noescape
func bitUntransSSE2(dst, src []byte, stride, n int)

//go:noescape
func shuffle2AVX2(dst, src []byte, stride, n int)

//go:noescape
func shuffle4AVX2(dst, src []byte, stride, n int)

//go:noescape
func shuffle8AVX2(dst, src []byte, stride, n int)

//go:noescape
func shuffle16AVX2(dst, src []byte, srcStride, dstStride, n int)

//go:noescape
func unshuffle2AVX2(dst, src []byte, stride, n int)

//go:noescape
func unshuffle4AVX2(dst, src []byte, stride, n int)

//go:noescape
func unshuffle8AVX2(dst, src []byte, stride, n int)

//go:noescape
func shuffle16StripAVX2(dst, src []byte, srcStride, dstStride, n int)

//go:noescape
func unshuffle16AVX2(dst, src []byte, dstStride, srcStride, n int)

//go:noescape
func bitTransAVX2(dst, src []byte, stride, n int)

//go:noescape
func bitUntransAVX2(dst, src []byte, stride, n int)

//go:noescape
func shuffle2AVX512(dst, src []byte, stride, n int)

//go:noescape
func shuffle4AVX512(dst, src []byte, stride, n int)

//go:noescape
func shuffle8AVX512(dst, src []byte, stride, n int)

//go:noescape
func unshuffle2AVX512(dst, src []byte, stride, n int)

//go:noescape
func unshuffle4AVX512(dst, src []byte, stride, n int)

//go:noescape
func unshuffle8AVX512(dst, src []byte, stride, n int)

//go:noescape
func bitTransAVX512(dst, src []byte, stride, n int)

//go:noescape
func bitUntransAVX512(dst, src []byte, stride, n int)
