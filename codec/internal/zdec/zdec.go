// Package zdec decodes Zstandard frames (RFC 8878) into a buffer of known
// size, for speed: it decodes a block's sequences in one pass and
// executes them in a second, both in amd64 assembly where the machine
// has BMI2 ([Accelerated]), with their Go loops as twins and for the
// rest. On C-Blosc2's blocks it is faster than klauspost/compress's
// decoder, most of all on long matches at short offsets (runs of
// shuffled timestamps), which klauspost's sequence executor copies a
// byte at a time. The literals are klauspost's huff0's. Frames with a
// dictionary or a content checksum are not its business
// ([ErrUnsupported]); the caller's other decoder takes them.
package zdec

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/klauspost/compress/huff0"

	"github.com/blosc2go/blosc2/codec/internal/zfmt"
)

// ErrUnsupported is returned for valid frames this package does not
// decode: a dictionary, a checksum it does not verify.
var ErrUnsupported = errors.New("zdec: unsupported frame")

// ErrCorrupt is returned for input that is not a valid frame, or one that
// does not decode to exactly the expected size.
var ErrCorrupt = errors.New("zdec: corrupt frame")

const (
	// maxWindow is the largest window libzstd decodes by default
	// (ZSTD_WINDOWLOG_LIMIT_DEFAULT, 2^27), so C-Blosc2 too: larger
	// windows are refused, as there.
	maxWindow     = 1 << 27
	magic         = 0xFD2FB528
	maxBlockSize  = 128 << 10
	skippableMask = 0xFFFFFFF0
	skippable     = 0x184D2A50
)

// Decoder holds the state kept across the blocks of a frame and the
// tables it reuses from frame to frame. A Decoder is used by one
// goroutine at a time.
type Decoder struct {
	huff    *huff0.Scratch
	huffOK  bool
	tables  [3]fseTable
	cur     [3]*fseTable // the tables in use, for the repeat mode
	reps    [3]int
	window  int // the frame's window: how far back a match may reach
	lits    []byte
	seqs    []sequence
	normBuf [64]int16
	pad     [8]byte // a short sequences bitstream, padded to a word
}

var predefined = func() *[3]fseTable {
	t := new([3]fseTable)
	for k, norm := range zfmt.DefaultNorm {
		if err := t[k].build(k, norm, zfmt.DefaultLog[k]); err != nil {
			panic(err)
		}
	}
	return t
}()

// DecodeAll decodes the frames of src, which must decode to exactly
// len(dst) bytes, into dst.
func (d *Decoder) DecodeAll(dst, src []byte) error {
	out := 0
	for len(src) > 0 {
		if len(src) < 4 {
			return ErrCorrupt
		}
		m := binary.LittleEndian.Uint32(src)
		if m&skippableMask == skippable {
			if len(src) < 8 {
				return ErrCorrupt
			}
			n := uint64(binary.LittleEndian.Uint32(src[4:]))
			if n > uint64(len(src)-8) {
				return ErrCorrupt
			}
			src = src[8+n:]
			continue
		}
		if m != magic {
			return ErrCorrupt
		}
		n, rest, err := d.frame(dst, out, src[4:])
		if err != nil {
			return err
		}
		out, src = n, rest
	}
	if out != len(dst) {
		return fmt.Errorf("%w: %d bytes, want %d", ErrCorrupt, out, len(dst))
	}
	return nil
}

// frame decodes one frame, its magic read, into dst from position out,
// and returns the new position and what follows the frame.
func (d *Decoder) frame(dst []byte, out int, src []byte) (int, []byte, error) {
	if len(src) < 1 {
		return 0, nil, ErrCorrupt
	}
	fhd := src[0]
	src = src[1:]
	fcsFlag := fhd >> 6
	single := fhd&0x20 != 0
	if fhd&0x08 != 0 {
		return 0, nil, ErrCorrupt // reserved bit
	}
	if fhd&0x04 != 0 {
		return 0, nil, ErrUnsupported // content checksum
	}
	dictLen := [4]int{0, 1, 2, 4}[fhd&3]
	window := uint64(0) // single segment: the frame's content size
	if !single {
		if len(src) < 1 {
			return 0, nil, ErrCorrupt
		}
		wd := src[0]
		base := uint64(1) << (10 + wd>>3)
		window = base + base/8*uint64(wd&7)
		if window > maxWindow {
			return 0, nil, ErrCorrupt
		}
		src = src[1:]
	}
	if len(src) < dictLen {
		return 0, nil, ErrCorrupt
	}
	for _, b := range src[:dictLen] {
		if b != 0 {
			return 0, nil, ErrUnsupported
		}
	}
	src = src[dictLen:]
	fcsLen := [4]int{0, 2, 4, 8}[fcsFlag]
	if fcsFlag == 0 && single {
		fcsLen = 1
	}
	if len(src) < fcsLen {
		return 0, nil, ErrCorrupt
	}
	var fcs uint64
	hasFCS := fcsLen > 0
	switch fcsLen {
	case 1:
		fcs = uint64(src[0])
	case 2:
		fcs = uint64(binary.LittleEndian.Uint16(src)) + 256
	case 4:
		fcs = uint64(binary.LittleEndian.Uint32(src))
	case 8:
		fcs = binary.LittleEndian.Uint64(src)
	}
	src = src[fcsLen:]
	if hasFCS && fcs > uint64(len(dst)-out) {
		return 0, nil, ErrCorrupt
	}
	if window == 0 {
		window = fcs
	}
	// Matches reach at most the window back, and blocks are no larger
	// than it (nor than 128 KiB).
	d.window = int(min(window, uint64(len(dst))))
	if windowCap > 0 {
		d.window = min(d.window, windowCap)
	}
	blockMax := int(min(window, maxBlockSize))
	start := out
	d.huffOK = false
	d.cur = [3]*fseTable{}
	d.reps = [3]int{1, 4, 8}
	for {
		if len(src) < 3 {
			return 0, nil, ErrCorrupt
		}
		h := uint32(src[0]) | uint32(src[1])<<8 | uint32(src[2])<<16
		src = src[3:]
		last := h&1 != 0
		size := int(h >> 3)
		switch (h >> 1) & 3 {
		case 0: // raw
			if size > blockMax || size > len(src) || size > len(dst)-out {
				return 0, nil, ErrCorrupt
			}
			out += copy(dst[out:], src[:size])
			src = src[size:]
		case 1: // one byte repeated
			if size > blockMax || len(src) < 1 || size > len(dst)-out {
				return 0, nil, ErrCorrupt
			}
			fill(dst[out:out+size], src[0])
			src = src[1:]
			out += size
		case 2:
			if size > blockMax || size > len(src) {
				return 0, nil, ErrCorrupt
			}
			n, err := d.block(dst[:out+min(blockMax, len(dst)-out)], start, out, src[:size])
			if err != nil {
				return 0, nil, err
			}
			out = n
			src = src[size:]
		default:
			return 0, nil, ErrCorrupt
		}
		if last {
			break
		}
	}
	if hasFCS && uint64(out-start) != fcs {
		return 0, nil, ErrCorrupt
	}
	return out, src, nil
}

// block decodes a compressed block into dst at out, the frame's output
// starting at start, and returns the new position.
func (d *Decoder) block(dst []byte, start, out int, src []byte) (int, error) {
	lits, src, err := d.literals(src)
	if err != nil {
		return 0, err
	}
	return d.sequences(dst, start, out, lits, src)
}

// literals decodes a block's literals section and returns the literals
// and what follows the section.
func (d *Decoder) literals(src []byte) ([]byte, []byte, error) {
	if len(src) < 1 {
		return nil, nil, ErrCorrupt
	}
	typ := src[0] & 3
	sf := (src[0] >> 2) & 3
	if typ < 2 {
		var size, hl int
		switch sf {
		case 0, 2:
			size, hl = int(src[0]>>3), 1
		case 1:
			if len(src) < 2 {
				return nil, nil, ErrCorrupt
			}
			size, hl = int(src[0]>>4)|int(src[1])<<4, 2
		case 3:
			if len(src) < 3 {
				return nil, nil, ErrCorrupt
			}
			size, hl = int(src[0]>>4)|int(src[1])<<4|int(src[2])<<12, 3
		}
		if size > maxBlockSize {
			return nil, nil, ErrCorrupt
		}
		src = src[hl:]
		if typ == 0 {
			if size > len(src) {
				return nil, nil, ErrCorrupt
			}
			// Copied, as the other kinds are decoded, into d's buffer,
			// whose bytes past them the sequences' execution may read
			// (execute): the caller's past them may be another's.
			lits := d.litBuf(size)
			copy(lits, src)
			return lits, src[size:], nil
		}
		if len(src) < 1 {
			return nil, nil, ErrCorrupt
		}
		lits := d.litBuf(size)
		fill(lits, src[0])
		return lits, src[1:], nil
	}
	var regen, comp, hl int
	streams4 := sf != 0
	switch sf {
	case 0, 1:
		if len(src) < 3 {
			return nil, nil, ErrCorrupt
		}
		v := int(src[0]) | int(src[1])<<8 | int(src[2])<<16
		regen, comp, hl = v>>4&0x3FF, v>>14&0x3FF, 3
	case 2:
		if len(src) < 4 {
			return nil, nil, ErrCorrupt
		}
		v := binary.LittleEndian.Uint32(src)
		regen, comp, hl = int(v>>4&0x3FFF), int(v>>18&0x3FFF), 4
	case 3:
		if len(src) < 5 {
			return nil, nil, ErrCorrupt
		}
		v := uint64(binary.LittleEndian.Uint32(src)) | uint64(src[4])<<32
		regen, comp, hl = int(v>>4&0x3FFFF), int(v>>22&0x3FFFF), 5
	}
	src = src[hl:]
	if regen > maxBlockSize || comp > len(src) {
		return nil, nil, ErrCorrupt
	}
	in, rest := src[:comp], src[comp:]
	if typ == 2 {
		s, remain, err := huff0.ReadTable(in, d.huff)
		if err != nil {
			return nil, nil, ErrCorrupt
		}
		d.huff, d.huffOK, in = s, true, remain
	} else if !d.huffOK {
		return nil, nil, ErrCorrupt
	}
	lits := d.litBuf(regen)
	var out []byte
	var err error
	if streams4 {
		out, err = d.huff.Decoder().Decompress4X(lits[:0:regen], in)
	} else {
		out, err = d.huff.Decoder().Decompress1X(lits[:0:regen], in)
	}
	if err != nil || len(out) != regen {
		return nil, nil, ErrCorrupt
	}
	return out, rest, nil
}

// litBuf returns d's literal buffer of n bytes, with room past them
// (its capacity is the largest block's).
func (d *Decoder) litBuf(n int) []byte {
	if cap(d.lits) < n {
		d.lits = make([]byte, n, maxBlockSize)
	}
	return d.lits[:n]
}

// fill sets every byte of p to b, doubling what is set with each copy.
func fill(p []byte, b byte) {
	if len(p) == 0 {
		return
	}
	p[0] = b
	for n := 1; n < len(p); n *= 2 {
		copy(p[n:], p[:n])
	}
}
