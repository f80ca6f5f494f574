package zdec

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/blosc2go/blosc2/codec/internal/zenc"
	"github.com/klauspost/compress/zstd"
)

// FuzzExecute: executeFast followed by execute's loop writes the same
// bytes, ends at the same positions and rejects the same sequences as
// the loop alone, and writes nothing outside the output buffer.
func FuzzExecute(f *testing.F) {
	f.Add([]byte("\x00\x10\x00\x04\x20\x05\x03\x01\x01\x02\x10\x07\x08\x09\x30\x11\x01\x00"), uint16(2000), uint16(0), uint16(3), uint16(0))
	f.Add(bytes.Repeat([]byte{1, 40, 3, 200, 2}, 60), uint16(30000), uint16(100), uint16(0), uint16(20))
	f.Add(bytes.Repeat([]byte{17, 0, 250, 16, 9}, 80), uint16(9000), uint16(0), uint16(60), uint16(9))
	// Few literals with readable bytes after them (the last byte: 39).
	f.Add(append(bytes.Repeat([]byte{2, 100, 0, 3, 0, 0, 60, 0, 11, 0}, 30), 39), uint16(20000), uint16(40), uint16(0), uint16(300))
	f.Fuzz(func(t *testing.T, spec []byte, dstLen, out, start, window uint16) {
		// Each 5 bytes of spec are a sequence: a literal length, a
		// match length and an offset (small ones often, to reach the
		// spread and the 8-byte copies).
		var seqs []sequence
		litsLen := 0
		for i := 0; i+5 <= len(spec) && len(seqs) < 2000; i += 5 {
			llen := uint32(spec[i] % 48)
			mlen := 3 + uint32(binary.LittleEndian.Uint16(spec[i+1:]))%400
			offset := uint32(binary.LittleEndian.Uint16(spec[i+3:]))
			if offset&0x8000 == 0 {
				offset %= 40
			} else {
				offset &= 0x7FFF
			}
			seqs = append(seqs, sequence{lit: llen, match: mlen, offset: offset})
			litsLen += int(llen)
		}
		// Up to 16 literals fewer than the sequences use, or more.
		litsLen = max(0, litsLen+int(out%64)-16)
		// Bytes past the literals, readable but not theirs: up to 39,
		// from what is left of spec.
		slack := 0
		if len(spec)%5 != 0 {
			slack = int(spec[len(spec)-1]) % 40
		}
		lits := make([]byte, litsLen+slack)
		for i := range lits {
			lits[i] = byte(i*7 + 1)
		}
		lits = lits[:litsLen]
		n := int(dstLen)
		o, st := min(int(out), n), min(int(start), int(out), n)
		const guard = 64
		run := func(twins bool) ([]byte, int, int, error) {
			buf := make([]byte, n+2*guard)
			for i := range buf {
				buf[i] = 0xA5
			}
			dst := buf[guard : guard+n : guard+n]
			for i := range o {
				dst[i] = byte(i * 13)
			}
			twinsOnly = twins
			defer func() { twinsOnly = false }()
			end, litPos, err := execute(dst, st, o, lits, seqs, 1+int(window))
			for i := range guard {
				if buf[i] != 0xA5 || buf[guard+n+i] != 0xA5 {
					t.Fatalf("a write outside the output buffer")
				}
			}
			if err != nil {
				return nil, 0, 0, err
			}
			return dst[:end], end, litPos, nil
		}
		want, wantEnd, wantLit, wantErr := run(true)
		// With SSSE3 where the machine has it, and without.
		defer func(had bool) { hasSSSE3 = had }(hasSSSE3)
		for _, ssse3 := range []bool{hasSSSE3, false} {
			hasSSSE3 = ssse3
			got, gotEnd, gotLit, gotErr := run(false)
			if (wantErr == nil) != (gotErr == nil) {
				t.Fatalf("SSSE3 %v: error %v, its twin's %v", ssse3, gotErr, wantErr)
			}
			if gotEnd != wantEnd || gotLit != wantLit || !bytes.Equal(got, want) {
				t.Fatalf("SSSE3 %v: ends at %d with %d literals used, its twin at %d with %d; same bytes: %v", ssse3, gotEnd, gotLit, wantEnd, wantLit, bytes.Equal(got, want))
			}
		}
	})
}

// FuzzDecodeSequences: zenc's frames of the input, at levels 1-4, or
// klauspost's of a 1 KiB window (level bit 4), decoded with matches
// reaching at most 1 KiB back (level bit 5: windowCap), and
// those frames with a byte changed, decode to the same output (the
// input, for the frames as written) and the same verdict with
// decodeFast as with the sequences loop alone.
func FuzzDecodeSequences(f *testing.F) {
	for name, in := range inputs() {
		if len(in) > 4000 {
			in = in[len(in)/2 : len(in)/2+4000]
		}
		f.Add(in, byte(len(name)), uint32(0))
		f.Add(in, byte(3*len(name)), uint32(len(name))<<24|uint32(len(in)))
		f.Add(in, byte(0x10|len(name)), uint32(len(name))<<24|uint32(len(in)/3))
		f.Add(in, byte(0x20|len(name)), uint32(0))
	}
	// A match 1.5 KiB back, past the window of windowCap's seeds, and
	// literals after it (the sequences' last bytes are the loop's).
	far := make([]byte, 1536)
	for i := range far {
		far[i] = byte(i * i >> 3)
	}
	far = append(far, far...)
	for i := range 600 {
		far = append(far, byte(i*i*i>>5))
	}
	f.Add(far, byte(0x20), uint32(0))
	f.Add(far, byte(0x21), uint32(0))
	var e zenc.Encoder
	// Frames of a 1 KiB window, in blocks of 1 KiB: with a byte changed,
	// offsets that reach past the window but not past the frame's start.
	small, err := zstd.NewWriter(nil, zstd.WithWindowSize(1<<10), zstd.WithEncoderCRC(false), zstd.WithEncoderConcurrency(1))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte, level byte, change uint32) {
		in = in[:min(len(in), 1<<13)]
		var frame []byte
		if level&0x10 != 0 {
			frame = small.EncodeAll(in, nil)
		} else if frame, err = e.EncodeAll(nil, in, 1+int(level)%4); err != nil {
			t.Fatal(err)
		}
		if change != 0 {
			frame[int(change&0xFFFFFF)%len(frame)] ^= byte(change>>24) | 1
		}
		run := func(twins bool) ([]byte, error) {
			twinsOnly = twins
			defer func() { twinsOnly = false }()
			if level&0x20 != 0 {
				// Matches of more than 1 KiB reach past the window.
				windowCap = 1 << 10
				defer func() { windowCap = 0 }()
			}
			var d Decoder
			dst := make([]byte, len(in))
			return dst, d.DecodeAll(dst, frame)
		}
		want, wantErr := run(true)
		got, gotErr := run(false)
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("error %v, its twin's %v", gotErr, wantErr)
		}
		if wantErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("output differs from its twin's")
		}
		if change == 0 && level&0x20 == 0 && (gotErr != nil || !bytes.Equal(got, in)) {
			t.Fatalf("frame of level %d (1 KiB window: %v): %v, or not the input", 1+int(level)%4, level&0x10 != 0, gotErr)
		}
	})
}

// TestDecodeFastLongSequences: sequences whose extra bits pass 57 with
// the states' (runs of 20 KB of literals, offsets of 1.5 MB, matches of
// 10 KB, four to a block), which need the reload between their reads,
// decode to the input with decodeFast and without.
func TestDecodeFastLongSequences(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	noise := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	base := noise(3 << 19)
	in := bytes.Clone(base)
	for off := 0; off+10000 <= len(base); off += 10000 {
		in = append(append(in, noise(20000)...), base[off:off+10000]...)
	}
	var e zenc.Encoder
	frame, err := e.EncodeAll(nil, in, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, twins := range []bool{false, true} {
		twinsOnly = twins
		var d Decoder
		out := make([]byte, len(in))
		err := d.DecodeAll(out, frame)
		twinsOnly = false
		if err != nil || !bytes.Equal(out, in) {
			t.Fatalf("%v, or not the input", err)
		}
	}
}
