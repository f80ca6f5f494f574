package blosc2

import (
	"encoding/binary"
	"fmt"

	"github.com/blosc2go/blosc2/codec"
)

// CompressVL compresses blocks into one chunk with variable-length blocks
// (format version 6, C-Blosc2 ≥ 3.0), appends it to dst and returns the
// extended slice. Each block is filtered and compressed on its own, as one
// stream. Level 0 stores every block uncompressed (C-Blosc2 hands level 0 to
// the codec, with undefined results for BloscLZ).
func CompressVL(dst []byte, blocks [][]byte, p *CParams) ([]byte, error) {
	q, err := p.orDefault()
	if err != nil {
		return dst, err
	}
	if len(blocks) == 0 {
		return dst, fmt.Errorf("%w: a VL-block chunk needs at least one block", ErrInvalidOption)
	}
	total, maxLen := 0, 0
	for i, b := range blocks {
		if len(b) == 0 {
			return dst, fmt.Errorf("%w: VL block %d is empty", ErrInvalidOption, i)
		}
		total += len(b)
		maxLen = max(maxLen, len(b))
		if total > MaxBufferSize || len(b) > MaxBlockSize {
			return dst, fmt.Errorf("%w: VL blocks too large", ErrTooLarge)
		}
	}
	typesize := headerTypeSize(q.TypeSize)
	c := lookupEncoder(&q, false)
	h := Header{
		Version:   VersionVLBlocks,
		VersionLZ: 1,
		Flags:     flagExtended | flagNoSplit | uint8(codecFormat(q.Codec))<<5,
		TypeSize:  typesize,
		Nbytes:    total,
		BlockSize: len(blocks),
		Extended:  true,
		Filters:   q.Filters,
		Codec:     q.Codec,
		CodecMeta: q.CodecMeta,
		flags2:    b2VLBlocks,
	}
	for _, f := range q.Filters {
		if f.ID == Delta {
			h.Flags |= flagDelta
		}
	}
	s := getScratch(maxLen, 0)
	defer putScratch(s)
	var dict []byte
	if q.UseDict && q.Level > 0 {
		if dict, err = vlDict(&q, &h, blocks, c, s); err != nil {
			return dst, err
		}
	}
	if dict != nil {
		h.blosc2Flag |= b2UseDict
	}
	start := len(dst)
	tableEnd := ExtendedHeaderLen + 4*len(blocks)
	if dict != nil {
		tableEnd += 4 + len(dict)
	}
	bound := tableEnd + 4*len(blocks) + total
	dst = append(dst, make([]byte, bound)...)
	out := dst[start:]
	if dict != nil {
		binary.LittleEndian.PutUint32(out[tableEnd-4-len(dict):], uint32(len(dict)))
		copy(out[tableEnd-len(dict):], dict)
	}
	pos := tableEnd
	for j, b := range blocks {
		binary.LittleEndian.PutUint32(out[ExtendedHeaderLen+4*j:], uint32(pos))
		binary.LittleEndian.PutUint32(out[pos:], uint32(len(b)))
		pos += 4
		data, err := pipelineForward(&h, nil, b, nil, s.a, s.b)
		if err != nil {
			return dst[:start], err
		}
		r := 0
		if q.Level > 0 {
			if r, err = c.Compress(out[pos:pos+len(b):pos+len(b)], data, q.Level, q.CodecMeta, dict); err != nil {
				return dst[:start], err
			}
		}
		if r <= 0 || r >= len(b) {
			r = copy(out[pos:], data)
		}
		pos += r
	}
	h.Cbytes = pos
	putHeader(out, &h)
	return dst[:start+pos], nil
}

// vlDict builds the dictionary of a VL-block chunk (blosc/blosc2.c, get_coffset and the dictionary code): the
// samples are the filtered blocks.
func vlDict(q *CParams, h *Header, blocks [][]byte, c codec.Codec, s *scratch) ([]byte, error) {
	nbytes := h.Nbytes
	dictMax := min(MaxDictSize, nbytes/20)
	n := len(blocks)
	if dictMax < 256 || n < 8 || nbytes/n/16 == 0 {
		return nil, nil
	}
	samples := make([][]byte, n)
	for j, b := range blocks {
		data, err := pipelineForward(h, nil, b, nil, s.a, s.b)
		if err != nil {
			return nil, err
		}
		samples[j] = append([]byte(nil), data...)
	}
	if q.Codec != Zstd {
		var d []byte
		for _, smp := range samples {
			d = append(d, smp[:min(len(smp), dictMax-len(d))]...)
			if len(d) == dictMax {
				break
			}
		}
		return d, nil
	}
	t, ok := c.(codec.DictTrainer)
	if !ok {
		return nil, nil
	}
	d, err := t.TrainDict(samples, dictMax)
	if err != nil || len(d) == 0 {
		return nil, nil
	}
	return d, nil
}

// DecompressVLBlock decodes block i of a VL-block chunk and appends it to
// dst.
func DecompressVLBlock(dst, chunk []byte, i int) ([]byte, error) {
	h, err := ParseHeader(chunk)
	if err != nil {
		return dst, err
	}
	if !h.VLBlocks() {
		return dst, fmt.Errorf("%w: not a VL-block chunk", ErrInvalidOption)
	}
	if i < 0 || i >= h.BlockSize {
		return dst, fmt.Errorf("%w: block %d of %d", ErrInvalidOption, i, h.BlockSize)
	}
	d, err := newDecoder(&h, chunk[:h.Cbytes])
	if err != nil {
		return dst, err
	}
	off, n := d.blockRange(i)
	d.release()
	return getRange(dst, chunk[:h.Cbytes], &h, off, n, nil)
}
