package blosc2

// BYTEDELTA filter plugins (plugins/filters/bytedelta/bytedelta.c). The block is cut into streams
// streams of L = len/streams bytes (the SHUFFLE layout, so the filter is
// meant to follow SHUFFLE); each stream stores the differences (mod 256)
// between consecutive bytes. The bytes past streams*L belong to no stream
// and are copied.
//
// Id 34 (BYTEDELTA_BUGGY) is the original version as the SSSE3/NEON builds
// of C-Blosc2 run it on x86-64 and AArch64: the differences are taken in
// 16-byte groups and the group after the last whole one restarts from 0, so
// with F = 16*floor(L/16) byte F of a stream is stored as is when 0 < F < L.

// bytedeltaEncode applies BYTEDELTA (id 35): len(dst) >= len(src), no
// overlap, len(src) bytes written. streams < 1 is taken as 1.
func bytedeltaEncode(dst, src []byte, streams int) { bytedeltaEnc(dst, src, streams, false) }

// bytedeltaDecode undoes bytedeltaEncode.
func bytedeltaDecode(dst, src []byte, streams int) { bytedeltaDec(dst, src, streams, false) }

// bytedelta34Encode applies the legacy BYTEDELTA_BUGGY (id 34).
func bytedelta34Encode(dst, src []byte, streams int) { bytedeltaEnc(dst, src, streams, true) }

// bytedelta34Decode undoes bytedelta34Encode.
func bytedelta34Decode(dst, src []byte, streams int) { bytedeltaDec(dst, src, streams, true) }

// restart34 is the offset inside a stream of length l where id 34 restarts
// from 0, or 0 if it does not.
func restart34(l int) int {
	if f := l &^ 15; f > 0 && f < l {
		return f
	}
	return 0
}

func bytedeltaEnc(dst, src []byte, streams int, buggy bool) {
	bytedeltaStreams(dst, src, streams, buggy, kernels.diffBytes)
}

func bytedeltaDec(dst, src []byte, streams int, buggy bool) {
	bytedeltaStreams(dst, src, streams, buggy, kernels.sumBytes)
}

// bytedeltaStreams applies op (kernels.diffBytes forward, kernels.sumBytes backward) to
// each of the streams byte streams, restarting at the legacy filter's
// 16-byte boundary when buggy, and copies the trailing bytes.
func bytedeltaStreams(dst, src []byte, streams int, buggy bool, op func(out, in []byte)) {
	n := len(src)
	dst = dst[:n]
	streams = max(streams, 1)
	l := n / streams
	for s := 0; s < streams; s++ {
		in, out := src[s*l:(s+1)*l], dst[s*l:(s+1)*l]
		if f := restart34(l); buggy && f > 0 {
			op(out[:f], in[:f])
			op(out[f:], in[f:])
		} else {
			op(out, in)
		}
	}
	copy(dst[streams*l:], src[streams*l:])
}

// SWAR byte subtraction: the high bit of every byte is handled apart so that
// no borrow crosses a byte boundary.
const hiBits = 0x8080808080808080

func subBytes(x, y uint64) uint64 { return ((x | hiBits) - (y &^ hiBits)) ^ ((x ^ ^y) & hiBits) }

// diffBytesGeneric sets out[k] = in[k] - in[k-1] (in[-1] = 0),
// len(out) >= len(in); it is the portable kernelSet.diffBytes.
func diffBytesGeneric(out, in []byte) {
	n := len(in)
	out = out[:n]
	k := 0
	if n >= 8 {
		x := load64(in, 0)
		store64(out, 0, subBytes(x, x<<8))
		for k = 8; k+8 <= n; k += 8 {
			store64(out, k, subBytes(load64(in, k), load64(in, k-1)))
		}
	}
	for ; k < n; k++ {
		var prev byte
		if k > 0 {
			prev = in[k-1]
		}
		out[k] = in[k] - prev
	}
}

// sumBytesGeneric is the inverse of diffBytesGeneric, a running sum mod
// 256; it is the portable kernelSet.sumBytes.
func sumBytesGeneric(out, in []byte) { sumBytesFrom(out, in, 0) }

// sumBytesFrom is sumBytesGeneric with the running sum starting at acc
// instead of 0 (the vector drivers finish their tails with it).
//
// The prefix sums of a word are taken with two multiplications instead of
// three shift-and-add SWAR steps: the even and the odd bytes are spread
// into 16-bit fields (at most 8*255 per field, so no carry leaves one), and
// multiplying by 0x0001000100010001 sums every field with those below.
// Byte 2i is then the even sum through field i plus the odd sum through
// field i-1, byte 2i+1 both sums through field i; the low byte of each field
// is the sum mod 256. The running sum acc is added to every field the same
// way, and the only dependency from one word to the next is acc += the
// word's own total, a byte addition.
func sumBytesFrom(out, in []byte, acc byte) {
	const (
		lo16   = 0x00ff00ff00ff00ff // low byte of each 16-bit field
		ones16 = 0x0001000100010001
	)
	n := len(in)
	out = out[:n]
	k := 0
	for ; k+8 <= n; k += 8 {
		x := load64(in, k)
		e := (x & lo16) * ones16      // field i: bytes 0, 2, ..., 2i
		o := (x >> 8 & lo16) * ones16 // field i: bytes 1, 3, ..., 2i+1
		c := uint64(acc) * ones16
		even := e + o<<16 + c
		odd := e + o + c
		store64(out, k, even&lo16|(odd&lo16)<<8)
		acc += byte((e + o) >> 48)
	}
	for ; k < n; k++ {
		acc += in[k]
		out[k] = acc
	}
}
