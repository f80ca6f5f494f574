// Package zenc writes Zstandard frames (RFC 8878) the way libzstd's
// levels do, where klauspost/compress's encoder writes larger ones:
// C-Blosc2 compresses each block with libzstd, and our chunks should be
// as small as C's at the same clevel. It holds the match finders of the
// libzstd strategies it implements and one entropy stage for all of
// them (klauspost's huff0 for literals, our FSE for sequences). Frames
// are single-segment, with their content size and no checksum, as
// C-Blosc2 writes them.
package zenc

import (
	"encoding/binary"
	"errors"

	"github.com/blosc2go/blosc2/codec/internal/zfmt"
	"github.com/klauspost/compress/huff0"
)

// ErrUnsupported is returned for a level or input size this package has
// no strategy for; the caller's other encoder takes it.
var ErrUnsupported = errors.New("zenc: unsupported level or size")

const (
	magic        = 0xFD2FB528
	maxBlockSize = 128 << 10
	// maxInput keeps the frame's window (its content size, single
	// segment) within what libzstd decodes by default, 2^27.
	maxInput = 1 << 27
)

// Encoder holds a match finder's tables and the entropy stage's scratch,
// reused from frame to frame. An Encoder is used by one goroutine at a
// time.
type Encoder struct {
	hash   []uint32
	seqs   []seq // the block's: offset values, match lengths minus 3
	lits   []byte
	codes  [][3]uint8
	huff   huff0.Scratch
	tables [3]cTable
	cur    [3]*cTable
	norm   [64]int16
	desc   []byte
	reps   [3]uint32
}

// params are a level's match finder settings for one input size
// (libzstd's ZSTD_compressionParameters, after ZSTD_adjustCParams).
type params struct {
	hashLog  uint8
	minMatch uint8
}

// paramsFor returns libzstd's parameters for level and an input of n
// bytes (lib/compress/clevels.h: its tables for inputs of at most 16
// KiB, 128 KiB, 256 KiB and more), and whether this package implements
// that level.
func paramsFor(level, n int) (params, bool) {
	if level != 1 {
		return params{}, false
	}
	var p params
	var windowLog uint8
	switch {
	case n <= 16<<10:
		p, windowLog = params{hashLog: 15, minMatch: 5}, 14
	case n <= 128<<10:
		p, windowLog = params{hashLog: 13, minMatch: 6}, 17
	case n <= 256<<10:
		p, windowLog = params{hashLog: 14, minMatch: 6}, 18
	default:
		p, windowLog = params{hashLog: 14, minMatch: 7}, 19
	}
	// ZSTD_adjustCParams: a small input shrinks the window, and the
	// hash table to at most twice the window.
	srcLog := uint8(10)
	for srcLog < 30 && 1<<srcLog < n {
		srcLog++
	}
	windowLog = min(windowLog, srcLog)
	p.hashLog = min(p.hashLog, windowLog+1)
	return p, true
}

// Supported reports whether EncodeAll compresses at level.
func Supported(level int) bool {
	_, ok := paramsFor(level, 1)
	return ok
}

// EncodeAll appends to dst one frame holding src, compressed at zstd
// level level, and returns it. It returns ErrUnsupported for levels
// Supported refuses and inputs over 128 MiB.
func (e *Encoder) EncodeAll(dst, src []byte, level int) ([]byte, error) {
	p, ok := paramsFor(level, len(src))
	if !ok || len(src) > maxInput {
		return dst, ErrUnsupported
	}
	dst = frameHeader(dst, len(src))
	if len(src) == 0 {
		return appendUint24(dst, 1), nil // one empty last raw block
	}
	size := 1 << p.hashLog
	if cap(e.hash) < size {
		e.hash = make([]uint32, size)
	}
	e.hash = e.hash[:size]
	clear(e.hash)
	e.reps = [3]uint32{1, 4, 8}
	for start := 0; start < len(src); start += maxBlockSize {
		end := min(start+maxBlockSize, len(src))
		var err error
		if dst, err = e.block(dst, src, start, end, p, end == len(src)); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// frameHeader appends a single-segment frame header for n bytes of
// content, its size in the fewest bytes.
func frameHeader(dst []byte, n int) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, magic)
	switch {
	case n < 256:
		return append(dst, 0x20, byte(n))
	case n < 65536+256:
		return binary.LittleEndian.AppendUint16(append(dst, 1<<6|0x20), uint16(n-256))
	}
	return binary.LittleEndian.AppendUint32(append(dst, 2<<6|0x20), uint32(n))
}

// block appends the block of src[start:end] (what precedes it in src
// being the frame's history): compressed, or raw or RLE where that is
// no larger, as libzstd decides.
func (e *Encoder) block(dst, src []byte, start, end int, p params, last bool) ([]byte, error) {
	b := src[start:end]
	lastBit := uint32(0)
	if last {
		lastBit = 1
	}
	// Like libzstd, no frame starts with an RLE block: zstd 1.4.3 and
	// older refuse one.
	if start > 0 && isRun(b) {
		return append(appendUint24(dst, lastBit|1<<1|uint32(len(b))<<3), b[0]), nil
	}
	if cap(e.seqs) < len(b)/4+1 {
		e.seqs = make([]seq, 0, len(b)/4+1)
		e.lits = make([]byte, 0, len(b))
	}
	e.seqs, e.lits = e.seqs[:0], e.lits[:0]
	reps := e.reps
	e.fast(src, start, end, p)
	at := len(dst)
	dst = appendUint24(dst, 0)
	dst = e.literals(dst, e.lits)
	dst, err := e.sequences(dst)
	if err != nil {
		return dst[:at], err
	}
	n := len(dst) - at - 3
	if n >= len(b)-minGain(len(b)) {
		e.reps = reps // a raw block leaves the decoder's repeat offsets as they were
		dst = appendUint24(dst[:at], lastBit|uint32(len(b))<<3)
		return append(dst, b...), nil
	}
	v := lastBit | 2<<1 | uint32(n)<<3
	dst[at], dst[at+1], dst[at+2] = byte(v), byte(v>>8), byte(v>>16)
	return dst, nil
}

// store appends a sequence to the block's: lits, then length bytes
// copied from off bytes back. The offset is coded with the repeat codes
// the decoder's repeat offsets allow (RFC 8878, 3.1.2.5), and e.reps
// follows the decoder's.
func (e *Encoder) store(lits []byte, off, length uint32) {
	e.lits = append(e.lits, lits...)
	r := &e.reps
	var v uint32
	if len(lits) > 0 {
		switch off {
		case r[0]:
			v = 1
		case r[1]:
			v = 2
			r[0], r[1] = r[1], r[0]
		case r[2]:
			v = 3
			r[0], r[1], r[2] = r[2], r[0], r[1]
		}
	} else {
		switch off {
		case r[1]:
			v = 1
			r[0], r[1] = r[1], r[0]
		case r[2]:
			v = 2
			r[0], r[1], r[2] = r[2], r[0], r[1]
		case r[0] - 1:
			v = 3
			r[0], r[1], r[2] = off, r[0], r[1]
		}
	}
	if v == 0 {
		v = off + 3
		r[0], r[1], r[2] = off, r[0], r[1]
	}
	e.seqs = append(e.seqs, seq{litLen: uint32(len(lits)), matchLen: length - zfmt.MinMatch, offset: v})
}

// isRun reports whether b is one byte repeated.
func isRun(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	c := b[0]
	for _, x := range b {
		if x != c {
			return false
		}
	}
	return true
}
