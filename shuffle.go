package blosc2

import (
	"sync"
)

// This file holds the dispatch of the SHUFFLE and BITSHUFFLE kernels
// (filters.md §3, §4) and the drivers shared by every instruction set.
//
// Each architecture file offers a list of instruction-set levels it can run
// (archISAs, best last) and the kernels for each (archKernels). The best one
// is chosen once, when the package is initialised; tests switch levels with
// useISA. The kernels are called once per block, so the indirection through
// a func value costs nothing measurable.

// isa names an instruction-set level that has its own kernels.
type isa uint8

const (
	isaGeneric isa = iota // portable Go
	isaSSE2               // amd64 baseline
	isaAVX2               // amd64 with AVX2 (and OS support for YMM state)
	isaNEON               // arm64 Advanced SIMD
)

func (l isa) String() string {
	switch l {
	case isaGeneric:
		return "generic"
	case isaSSE2:
		return "sse2"
	case isaAVX2:
		return "avx2"
	case isaNEON:
		return "neon"
	}
	return "isa?"
}

// kernelSet is the set of kernels of one instruction-set level.
//
// shuffle and unshuffle have the contract of the package-level functions.
// bitTrans and bitUntrans are the bit-level half of BITSHUFFLE, on one byte
// row (typesize 1): bitTrans reads len(src) bytes (a multiple of 8) and
// writes bit b of byte i to bit i%8 of dst[b*stride + i/8]; bitUntrans is
// its inverse and fills len(dst) bytes (a multiple of 8) from the eight
// rows src[b*stride:]. Wider typesizes are built from these and the byte
// shuffle (bitshuffleWith).
type kernelSet struct {
	shuffle    func(dst, src []byte, typesize int)
	unshuffle  func(dst, src []byte, typesize int)
	bitTrans   func(dst, src []byte, stride int)
	bitUntrans func(dst, src []byte, stride int)
}

var genericKernels = kernelSet{
	shuffle:    shuffleGeneric,
	unshuffle:  unshuffleGeneric,
	bitTrans:   bitTransGeneric,
	bitUntrans: bitUntransGeneric,
}

// activeISA and kernels are the level in use and its kernels. They are set
// during package initialisation and only changed by tests (useISA).
var (
	activeISA = archISAs[len(archISAs)-1]
	kernels   = archKernels(activeISA)
)

// useISA switches every dispatching entry point to level l (which must be
// in archISAs) and returns a function restoring the previous level. For
// tests and benchmarks only: it is not safe to call while other goroutines
// use the filters.
func useISA(l isa) (restore func()) {
	prevISA, prev := activeISA, kernels
	activeISA, kernels = l, archKernels(l)
	return func() { activeISA, kernels = prevISA, prev }
}

// shuffle applies the SHUFFLE filter (filters.md §3) with element width
// typesize: byte j of element i goes to dst[j*E+i], E = len(src)/typesize;
// the len(src)%typesize trailing bytes are copied. len(dst) >= len(src),
// exactly len(src) bytes of dst are written; dst and src must not overlap.
func shuffle(dst, src []byte, typesize int) { kernels.shuffle(dst, src, typesize) }

// unshuffle is the inverse of shuffle, with the same contract.
func unshuffle(dst, src []byte, typesize int) { kernels.unshuffle(dst, src, typesize) }

// bitshuffle applies the BITSHUFFLE filter as C-Blosc2 writes it in
// version >= 3 chunks (filters.md §4.1-4.2): E8 = len(src)/typesize rounded
// down to a multiple of 8 elements are transposed into 8*typesize bit rows,
// the bytes past E8*typesize are copied. Contract as shuffle.
func bitshuffle(dst, src []byte, typesize int) { bitshuffleWith(&kernels, dst, src, typesize) }

// bitunshuffle is the inverse of bitshuffle.
func bitunshuffle(dst, src []byte, typesize int) { bitunshuffleWith(&kernels, dst, src, typesize) }

// bitunshuffleV2 undoes BITSHUFFLE in a version-2 (C-Blosc 1.x) chunk
// (filters.md §4.4). C-Blosc 1.x transposed a block only when its element
// count was a multiple of 8 and stored every other block as is, so such a
// block is either bit-unshuffled whole (trailing partial element copied) or
// copied. C-Blosc2 leaves the trailing bytes, or a block shorter than one
// element, unwritten; this writes the correct bytes.
func bitunshuffleV2(dst, src []byte, typesize int) {
	if typesize < 1 {
		typesize = 1
	}
	if (len(src)/typesize)%8 != 0 {
		copy(dst[:len(src)], src)
		return
	}
	bitunshuffle(dst, src, typesize)
}

// bitshuffleGeneric is bitshuffle on the portable kernels.
func bitshuffleGeneric(dst, src []byte, typesize int) {
	bitshuffleWith(&genericKernels, dst, src, typesize)
}

// bitunshuffleGeneric is bitunshuffle on the portable kernels.
func bitunshuffleGeneric(dst, src []byte, typesize int) {
	bitunshuffleWith(&genericKernels, dst, src, typesize)
}

// bitTmpSize is the scratch size of the two-pass bit shuffle: small enough
// to stay in the L1/L2 cache between the passes.
const bitTmpSize = 32 << 10

var bitTmpPool = sync.Pool{New: func() any { return new([bitTmpSize]byte) }}

// bitChunk is the number of elements of width typesize transposed per pass:
// a multiple of 64 (so that each bit row grows by whole 8-byte words) that
// fits bitTmpSize.
func bitChunk(typesize int) int {
	c := (bitTmpSize / typesize) &^ 63
	if c < 64 {
		c = 64 // typesize > 512 cannot occur (typesize <= 256); keep a floor anyway
	}
	return c
}

// bitshuffleWith implements bitshuffle with kernel set k. Bit row 8j+b of the
// output is bit b of byte j of every element, so the transpose is a byte
// shuffle (byte j of each element into row j) followed by a bit transpose of
// every byte row: done in chunks of elements through a cached scratch
// buffer so that both passes run at full vector speed.
func bitshuffleWith(k *kernelSet, dst, src []byte, typesize int) {
	n := len(src)
	dst = dst[:n]
	if typesize < 1 {
		typesize = 1
	}
	e8 := (n / typesize) &^ 7
	body := e8 * typesize
	if e8 > 0 {
		rowLen := e8 / 8 // bytes per bit row
		if typesize == 1 {
			k.bitTrans(dst, src[:e8], rowLen)
		} else {
			tmp := bitTmpPool.Get().(*[bitTmpSize]byte)
			chunk := bitChunk(typesize)
			for i0 := 0; i0 < e8; i0 += chunk {
				c := min(chunk, e8-i0)
				t := tmp[:c*typesize]
				k.shuffle(t, src[i0*typesize:(i0+c)*typesize], typesize)
				for j := 0; j < typesize; j++ {
					k.bitTrans(dst[8*j*rowLen+i0/8:], t[j*c:(j+1)*c], rowLen)
				}
			}
			bitTmpPool.Put(tmp)
		}
	}
	copy(dst[body:], src[body:])
}

// bitunshuffleWith implements bitunshuffle with kernel set k: the two passes
// of bitshuffleWith in reverse order.
func bitunshuffleWith(k *kernelSet, dst, src []byte, typesize int) {
	n := len(src)
	dst = dst[:n]
	if typesize < 1 {
		typesize = 1
	}
	e8 := (n / typesize) &^ 7
	body := e8 * typesize
	if e8 > 0 {
		rowLen := e8 / 8
		if typesize == 1 {
			k.bitUntrans(dst[:e8], src, rowLen)
		} else {
			tmp := bitTmpPool.Get().(*[bitTmpSize]byte)
			chunk := bitChunk(typesize)
			for i0 := 0; i0 < e8; i0 += chunk {
				c := min(chunk, e8-i0)
				t := tmp[:c*typesize]
				for j := 0; j < typesize; j++ {
					k.bitUntrans(t[j*c:(j+1)*c], src[8*j*rowLen+i0/8:], rowLen)
				}
				k.unshuffle(dst[i0*typesize:(i0+c)*typesize], t, typesize)
			}
			bitTmpPool.Put(tmp)
		}
	}
	copy(dst[body:], src[body:])
}
