//go:build gc && !purego && !noasm

package blosc2

import "github.com/klauspost/cpuid/v2"

// arm64 level: NEON (Advanced SIMD), which every arm64 CPU Go runs on has;
// it is still checked, as every extension a kernel uses is.

var archISAs = detectISAs()

func detectISAs() []isa {
	l := []isa{isaGeneric}
	if cpuid.CPU.Supports(cpuid.ASIMD) {
		l = append(l, isaNEON)
	}
	return l
}

func archKernels(l isa) kernelSet {
	if l == isaNEON {
		return neonKernels.set()
	}
	return genericKernels
}

var neonKernels = vecKernels{
	shuffle:     [3]func(dst, src []byte, stride, n int){shuffle2NEON, shuffle4NEON, shuffle8NEON},
	unshuffle:   [3]func(dst, src []byte, stride, n int){unshuffle2NEON, unshuffle4NEON, unshuffle8NEON},
	shuffle16:   shuffle16NEON,
	unshuffle16: unshuffle16NEON,
	bitTrans:    bitTransNEON,
	bitUntrans:  bitUntransNEON,
	diff:        diffNEON,
	sum:         sumNEON,
	vec:         [3]int{16, 16, 16},
	vec16:       16,
	bitVec:      128,
	untransVec:  128,
	deltaVec:    16,
}

// Kernel contracts: see vecKernels. n is a positive multiple of the
// kernel's width: 16 elements for shuffleK/unshuffleK and the 16-byte tile
// kernels, 128 bytes for bitTrans and bitUntrans.

//go:noescape
func shuffle2NEON(dst, src []byte, stride, n int)

//go:noescape
func shuffle4NEON(dst, src []byte, stride, n int)

//go:noescape
func shuffle8NEON(dst, src []byte, stride, n int)

//go:noescape
func shuffle16NEON(dst, src []byte, srcStride, dstStride, n int)

//go:noescape
func unshuffle2NEON(dst, src []byte, stride, n int)

//go:noescape
func unshuffle4NEON(dst, src []byte, stride, n int)

//go:noescape
func unshuffle8NEON(dst, src []byte, stride, n int)

//go:noescape
func unshuffle16NEON(dst, src []byte, dstStride, srcStride, n int)

//go:noescape
func bitTransNEON(dst, src []byte, stride, n int)

//go:noescape
func bitUntransNEON(dst, src []byte, stride, n int)
