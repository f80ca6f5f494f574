package zenc

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/blosc2go/blosc2/codec/internal/zdec"
	"github.com/klauspost/compress/zstd"
)

// blockTypes returns the types of a frame's blocks (0 raw, 1 RLE, 2
// compressed), as its block headers give them.
func blockTypes(t *testing.T, frame []byte) []int {
	t.Helper()
	fhd := frame[4]
	p := 5 + []int{1, 2, 4, 8}[fhd>>6] // single segment: no window byte
	var types []int
	for {
		h := int(frame[p]) | int(frame[p+1])<<8 | int(frame[p+2])<<16
		p += 3
		typ, size := h>>1&3, h>>3
		types = append(types, typ)
		if typ == 1 {
			size = 1
		}
		p += size
		if h&1 != 0 {
			return types
		}
	}
}

// decodeBoth checks that frame decodes to want with zdec and with
// klauspost's decoder.
func decodeBoth(t *testing.T, frame, want []byte) {
	t.Helper()
	kd, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer kd.Close()
	if got, err := kd.DecodeAll(frame, nil); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("klauspost: %d bytes, %v", len(got), err)
	}
	var d zdec.Decoder
	got := make([]byte, len(want))
	if err := d.DecodeAll(got, frame); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("zdec: %v", err)
	}
}

// TestSplitRawPart: when the block splitter writes a part raw, the
// decoder's repeat offsets stay as they were before it, so the next
// part's repeat codes that the parser meant for offsets of the raw part
// are written as offsets. Here a block's first half is random bytes
// with a 3-byte match at offset 1000 every 250 (too little gain: raw),
// its second half short literals and 20-byte matches at that same
// offset, its last repeat offset.
func TestSplitRawPart(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var e Encoder
	p, _ := paramsFor(15, 90000) // btopt, window 2^17: the splitter's
	if p.strategy != stratBtOpt || p.windowLog < 17 {
		t.Fatalf("level 15 at 90000 bytes: %+v", p)
	}
	e.litGainLog, e.minGainLog = 6, 6
	e.reps = [3]uint32{1, 4, 8}
	var src []byte
	add := func(nlit int, lit func() byte, off, ml int) {
		at := len(src)
		for range nlit {
			src = append(src, lit())
		}
		for range ml {
			src = append(src, src[len(src)-off])
		}
		e.store(src[at:at+nlit], uint32(off), uint32(ml))
	}
	random := func() byte { return byte(r.Uint32()) }
	ab := func() byte { return "ab"[r.IntN(2)] }
	add(1250, random, 1000, 3)
	for range 299 {
		add(250, random, 1000, 3)
	}
	for range 300 {
		add(5, ab, 1000, 20)
	}
	if e.seqs[600-300].offset != 1 {
		t.Fatalf("the second half's first match is not repeat code 1: %+v", e.seqs[300])
	}
	reps := [3]uint32{1, 4, 8}
	frame, err := e.splitBlock(frameHeader(nil, len(src)), src, 0, len(src), reps, true)
	if err != nil {
		t.Fatal(err)
	}
	types := blockTypes(t, frame)
	raw := slices.Index(types, blockRaw)
	if raw < 0 || raw == len(types)-1 || types[len(types)-1] != blockCompressed {
		t.Fatalf("block types %v: want a raw part, then a compressed one", types)
	}
	decodeBoth(t, frame, src)
}

// TestSplitBlocks: a block of two kinds of data (log lines, then
// shuffled timestamps) is written in parts at the levels with the
// splitter (btopt and stronger, windows of 2^17 and more), whole at
// the others, and its frames decode.
func TestSplitBlocks(t *testing.T) {
	in := inputs(t)
	src := append(append([]byte(nil), in["text"][:60000]...), in["taxi_ts_shuffled"][:60000]...)
	var e Encoder
	for _, level := range []int{11, 13, 15, 19, 22} {
		frame, err := e.EncodeAll(nil, src, level)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := paramsFor(level, len(src))
		n := len(blockTypes(t, frame))
		if split := p.strategy >= stratBtOpt && p.windowLog >= 17; split != (n > 1) {
			t.Errorf("level %d (strategy %d): %d blocks", level, p.strategy, n)
		}
		decodeBoth(t, frame, src)
	}
}
