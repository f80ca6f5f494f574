package blosc2

import (
	"sync"

	"github.com/blosc2go/blosc2/internal/race"
)

// This file holds the dispatch of the SHUFFLE and BITSHUFFLE kernels
// (blosc/shuffle-generic.c, blosc/bitshuffle-generic.c) and the drivers shared by every instruction set.
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
	isaAVX512             // amd64 with AVX512BW, VBMI and GFNI (Ice Lake and later)
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
	case isaAVX512:
		return "avx512"
	case isaNEON:
		return "neon"
	}
	return "isa?"
}

// kernelSet is the set of kernels of one instruction-set level.
//
// diffBytes and sumBytes are the BYTEDELTA kernels on one stream (see
// diffBytesGeneric and sumBytesGeneric): len(out) >= len(in), len(in)
// bytes written, the running value starting at 0.
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
	diffBytes  func(out, in []byte)
	sumBytes   func(out, in []byte)
}

var genericKernels = kernelSet{
	shuffle:    shuffleGeneric,
	unshuffle:  unshuffleGeneric,
	bitTrans:   bitTransGeneric,
	bitUntrans: bitUntransGeneric,
	diffBytes:  diffBytesGeneric,
	sumBytes:   sumBytesGeneric,
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

// shuffle applies the SHUFFLE filter (blosc/shuffle-generic.c) with element width
// typesize: byte j of element i goes to dst[j*E+i], E = len(src)/typesize;
// the len(src)%typesize trailing bytes are copied. len(dst) >= len(src),
// exactly len(src) bytes of dst are written; dst and src must not overlap.
func shuffle(dst, src []byte, typesize int) { kernels.shuffle(dst, src, typesize) }

// unshuffle is the inverse of shuffle, with the same contract.
func unshuffle(dst, src []byte, typesize int) { kernels.unshuffle(dst, src, typesize) }

// bitshuffle applies the BITSHUFFLE filter as C-Blosc2 writes it in
// version >= 3 chunks (blosc/bitshuffle-generic.c): E8 = len(src)/typesize rounded
// down to a multiple of 8 elements are transposed into 8*typesize bit rows,
// the bytes past E8*typesize are copied. Contract as shuffle.
func bitshuffle(dst, src []byte, typesize int) { bitshuffleWith(&kernels, dst, src, typesize) }

// bitunshuffle is the inverse of bitshuffle.
func bitunshuffle(dst, src []byte, typesize int) { bitunshuffleWith(&kernels, dst, src, typesize) }

// bitunshuffleV2 undoes BITSHUFFLE in a version-2 (C-Blosc 1.x) chunk
// (blosc/bitshuffle-generic.c). C-Blosc 1.x transposed a block only when its element
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

// bitTmpSize is the scratch size of the two-pass bit shuffle. Each pass
// over a chunk touches 8*typesize bit rows of the block; the chunk must be
// long enough for the hardware prefetchers to follow that many streams
// (with 32 KiB, typesize 8 and 16 bit-unshuffled at half the speed), and
// the scratch small enough to stay in the L2 cache.
const bitTmpSize = 128 << 10

var bitTmpPool = sync.Pool{New: func() any { return new([bitTmpSize]byte) }}

// bitChunk is the number of elements of width typesize transposed per pass:
// a multiple of 64 (so that each bit row grows by whole 8-byte words) that
// fits bitTmpSize and is not a multiple of 2 KiB, so that the byte rows in
// the scratch buffer (chunk bytes apart) do not all fall into the same L1
// cache sets.
func bitChunk(typesize int) int {
	c := (bitTmpSize / typesize) &^ 63
	if c%2048 == 0 {
		c -= 64
	}
	return max(c, 64)
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

// vecKernels are the vector kernels of one assembly level; set wraps them
// into a kernelSet whose Go drivers do what the vector kernels do not: the
// tails, the element widths without a vector kernel, the race detector
// annotations. Each kernel processes n elements (or bytes, for the bit
// kernels), n a positive multiple of its vector width, reading and writing
// nothing outside what its contract names:
//
//   - shuffle[k], typesize 2<<k: dst[j*stride+i] = src[i*typesize+j], i < n;
//     unshuffle[k] is the inverse (dst[i*typesize+j] = src[j*stride+i]).
//   - shuffle16: 16-byte tiles, dst[j*dstStride+i] = src[i*srcStride+j],
//     j < 16; unshuffle16 the inverse. Typesize 16 is one tile, larger
//     typesizes are covered by tiles that may overlap.
//   - bitTrans, bitUntrans: as in kernelSet, on n bytes.
//   - diff: dst[i] = src[i+1] - src[i], i < n (reads n+1 bytes of src);
//     sum: dst[i] = src[0] + ... + src[i] mod 256, i < n. Either may be
//     nil (the generic BYTEDELTA code then runs).
//
// vec, vec16, bitVec and untransVec are the widths (elements, elements,
// bytes, bytes) of shuffle[k]/unshuffle[k], the tile kernels, bitTrans and
// bitUntrans; all are powers of 2.
type vecKernels struct {
	shuffle   [3]func(dst, src []byte, stride, n int)
	unshuffle [3]func(dst, src []byte, stride, n int)
	shuffle16 func(dst, src []byte, srcStride, dstStride, n int)
	// shuffle16Strip, if not nil, is shuffle16 for row strides that alias
	// in the L1 cache (tileRowsAlias), stripVec elements at a time.
	shuffle16Strip func(dst, src []byte, srcStride, dstStride, n int)
	unshuffle16    func(dst, src []byte, dstStride, srcStride, n int)
	bitTrans       func(dst, src []byte, stride, n int)
	bitUntrans     func(dst, src []byte, stride, n int)
	diff, sum      func(dst, src []byte, n int)

	vec                                 [3]int // widths of shuffle[k], unshuffle[k]
	vec16, stripVec, bitVec, untransVec int
	deltaVec                            int // width of diff and sum

	// narrow, if not nil, is the level that takes the bit transposes of
	// inputs shorter than bitVec or untransVec (else the generic code).
	narrow *vecKernels
}

func (k *vecKernels) set() kernelSet {
	ks := kernelSet{
		shuffle:    k.shuffleVec,
		unshuffle:  k.unshuffleVec,
		bitTrans:   k.bitTransVec,
		bitUntrans: k.bitUntransVec,
		diffBytes:  diffBytesGeneric,
		sumBytes:   sumBytesGeneric,
	}
	if k.diff != nil {
		ks.diffBytes = k.diffBytesVec
	}
	if k.sum != nil {
		ks.sumBytes = k.sumBytesVec
	}
	return ks
}

// widthIndex maps typesize 2, 4, 8 to the index of its vector kernel.
func widthIndex(t int) (int, bool) {
	switch t {
	case 2:
		return 0, true
	case 4:
		return 1, true
	case 8:
		return 2, true
	}
	return 0, false
}

// tileRowsAlias reports whether many of the 16 rows a tile kernel writes,
// stride bytes apart, fall into the same set of a 64-set (4 KiB period)
// L1 data cache, which holds 8 to 12 lines per set: then writing a few
// bytes to each row in turn evicts lines before they are complete. Row
// strides that are multiples of 4 KiB (power-of-two blocks) do that.
func tileRowsAlias(stride int) bool {
	var perSet [64]uint8
	for j := 0; j < 16; j++ {
		s := (j * stride >> 6) & 63
		perSet[s]++
		if perSet[s] > 6 {
			return true
		}
	}
	return false
}

// The vector kernels run over the largest multiple of their width; the
// remaining elements are done by one more kernel call on the last full
// vector width, overlapping the previous one (it rewrites the same values),
// and only inputs shorter than one vector fall to the Go code.

func (k *vecKernels) shuffleVec(dst, src []byte, t int) {
	n := len(src)
	dst = dst[:n]
	if t <= 1 || n < t {
		copy(dst, src)
		return
	}
	e := n / t
	body := e * t
	race.ReadSlice(src[:body])
	race.WriteSlice(dst[:body])
	done := 0
	if w, ok := widthIndex(t); ok && e >= k.vec[w] {
		v := k.vec[w]
		m := e &^ (v - 1)
		k.shuffle[w](dst, src, e, m)
		if m < e {
			k.shuffle[w](dst[e-v:], src[(e-v)*t:], e, v)
		}
		done = e
	} else if t >= 16 && e >= k.vec16 {
		f, v := k.shuffle16, k.vec16
		if k.shuffle16Strip != nil && e >= k.stripVec && tileRowsAlias(e) {
			f, v = k.shuffle16Strip, k.stripVec
		}
		m := e &^ (v - 1)
		for c := 0; c < t; c += 16 {
			c = min(c, t-16) // the last tile may overlap the previous one
			f(dst[c*e:], src[c:], t, e, m)
			if m < e {
				f(dst[c*e+e-v:], src[(e-v)*t+c:], t, e, v)
			}
		}
		done = e
	}
	shuffleElems(dst, src[:body], t, done, e, e)
	copy(dst[body:], src[body:])
}

func (k *vecKernels) unshuffleVec(dst, src []byte, t int) {
	n := len(src)
	dst = dst[:n]
	if t <= 1 || n < t {
		copy(dst, src)
		return
	}
	e := n / t
	body := e * t
	race.ReadSlice(src[:body])
	race.WriteSlice(dst[:body])
	done := 0
	if w, ok := widthIndex(t); ok && e >= k.vec[w] {
		v := k.vec[w]
		m := e &^ (v - 1)
		k.unshuffle[w](dst, src, e, m)
		if m < e {
			k.unshuffle[w](dst[(e-v)*t:], src[e-v:], e, v)
		}
		done = e
	} else if t >= 16 && e >= k.vec16 {
		v := k.vec16
		m := e &^ (v - 1)
		for c := 0; c < t; c += 16 {
			c = min(c, t-16)
			k.unshuffle16(dst[c:], src[c*e:], t, e, m)
			if m < e {
				k.unshuffle16(dst[(e-v)*t+c:], src[c*e+e-v:], t, e, v)
			}
		}
		done = e
	}
	unshuffleElems(dst[:body], src, t, done, e, e)
	copy(dst[body:], src[body:])
}

func (k *vecKernels) bitTransVec(dst, src []byte, stride int) {
	n := len(src)
	v := k.bitVec
	if n < v {
		if k.narrow != nil {
			k.narrow.bitTransVec(dst, src, stride)
		} else {
			bitTransGeneric(dst, src, stride)
		}
		return
	}
	race.ReadSlice(src)
	race.WriteSlice(dst[:7*stride+n/8])
	m := n &^ (v - 1)
	k.bitTrans(dst, src, stride, m)
	if m < n {
		k.bitTrans(dst[(n-v)/8:], src[n-v:], stride, v)
	}
}

func (k *vecKernels) bitUntransVec(dst, src []byte, stride int) {
	n := len(dst)
	v := k.untransVec
	if n < v {
		if k.narrow != nil {
			k.narrow.bitUntransVec(dst, src, stride)
		} else {
			bitUntransGeneric(dst, src, stride)
		}
		return
	}
	race.ReadSlice(src[:7*stride+n/8])
	race.WriteSlice(dst)
	m := n &^ (v - 1)
	k.bitUntrans(dst, src, stride, m)
	if m < n {
		k.bitUntrans(dst[n-v:], src[(n-v)/8:], stride, v)
	}
}

// diffBytesVec is kernelSet.diffBytes on k.diff. out[0] = in[0] needs no
// neighbour; the kernel does out[1:] over whole vectors, and since each
// output byte depends on the input alone, the remainder is one more
// kernel call on the last vector, overlapping the previous one.
func (k *vecKernels) diffBytesVec(out, in []byte) {
	n := len(in)
	v := k.deltaVec
	if n < v+1 {
		diffBytesGeneric(out, in)
		return
	}
	out = out[:n]
	race.ReadSlice(in)
	race.WriteSlice(out)
	out[0] = in[0]
	m := (n - 1) &^ (v - 1)
	k.diff(out[1:], in, m)
	if m < n-1 {
		k.diff(out[n-v:], in[n-v-1:], v)
	}
}

// sumBytesVec is kernelSet.sumBytes on k.sum, which does the whole vectors;
// the generic code continues the running sum over the remainder.
func (k *vecKernels) sumBytesVec(out, in []byte) {
	n := len(in)
	v := k.deltaVec
	if n < v {
		sumBytesGeneric(out, in)
		return
	}
	out = out[:n]
	m := n &^ (v - 1)
	race.ReadSlice(in[:m])
	race.WriteSlice(out[:m])
	k.sum(out, in, m)
	sumBytesFrom(out[m:], in[m:], out[m-1])
}
