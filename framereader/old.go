package framereader

import (
	"fmt"
	"io"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
)

// openBeta opens a beta-era frame (C-Blosc2 2.0.0-beta frame.c). Its usermeta blob,
// if any, is exposed as the vlmetalayer "usermeta".
func (r *Reader) openBeta(ra io.ReaderAt, size int64) error {
	l, err := frame.LoadBeta(ra, size)
	if err != nil {
		return err
	}
	r.use(&l.Layout, Beta)
	if l.Usermeta != nil {
		r.vl = append(r.vl, frame.VLMeta{Name: "usermeta", Chunk: l.Usermeta})
	}
	r.src = &contiguousSource{ra: ra, base: int64(l.Header.HeaderLen), cbytes: l.Header.Cbytes}
	return nil
}

// openPacked opens a packed super-chunk (C-Blosc2 2.0.0-alpha blosc2_pack): its data
// chunks are Blosc1-style chunks listed by the offset table at its end.
// The metadata and userdata chunks are exposed as the vlmetalayers
// "metadata" and "userdata".
func (r *Reader) openPacked(ra io.ReaderAt, size int64) error {
	p, err := frame.LoadPacked(ra, size)
	if err != nil {
		return err
	}
	src := &packedSource{ra: ra, size: size}
	r.format = Packed
	r.src = src
	r.idx = frame.NewIndex(p.Offsets)
	r.nchunks = p.NChunks
	h := frame.Header{HeaderLen: frame.PackedHeaderLen, FrameLen: size, TypeSize: 1, NFilters: 5,
		CodecFlags: p.Compcode&0x0F | uint8(p.Clevel)<<4, UDCodec: p.Compcode, OtherFlags: 3}
	copy(h.Filters[:], p.Filters[:])
	sizes := frame.NewSizes()
	for i, o := range p.Offsets {
		hb, err := src.header(o)
		if err != nil {
			return fmt.Errorf("packed chunk %d: %w", i, err)
		}
		p, err := blosc2.ParsePrefix(hb)
		if err != nil {
			return fmt.Errorf("packed chunk %d: %w", i, err)
		}
		n := int32(p.Nbytes)
		if i == 0 {
			h.TypeSize = int32(max(p.TypeSize, 1))
		}
		sizes.Add(n)
	}
	h.Nbytes = sizes.Nbytes
	h.ChunkSize = sizes.ChunkSize
	h.GeneralFlags = sizes.GeneralFlags()
	h.Cbytes = size - frame.PackedHeaderLen - 8*int64(p.NChunks)
	r.h = h
	for _, a := range []struct {
		name string
		pos  int64
	}{{"metadata", p.MetaPos}, {"userdata", p.UserPos}} {
		if a.pos != 0 {
			c, _, err := src.chunk(nil, a.pos, false, false)
			if err != nil {
				return fmt.Errorf("packed %s chunk: %w", a.name, err)
			}
			r.vl = append(r.vl, frame.VLMeta{Name: a.name, Chunk: c})
		}
	}
	if p.FiltersPos != 0 && p.Filters[0] == uint8(blosc2.Delta) {
		c, _, err := src.chunk(nil, p.FiltersPos, false, false)
		if err != nil {
			return fmt.Errorf("packed filters chunk: %w", err)
		}
		if r.ref, err = blosc2.Decompress(nil, c, nil); err != nil {
			return fmt.Errorf("packed filters chunk: %w", err)
		}
	}
	return nil
}

// packedDelta prepares a chunk that a packed super-chunk delta-encoded
// against its filters chunk for the chunk decoder: the flag bit means
// "super-chunk delta" there, not the Blosc1 delta the decoder would apply.
// addRef then adds the reference back.
func (r *Reader) packedDelta(c []byte) ([]byte, bool, error) {
	if r.format != Packed {
		return c, false, nil
	}
	plain, delta := blosc2.PackedDelta(c)
	if delta && r.ref == nil {
		return nil, false, fmt.Errorf("%w: chunk delta-encoded against a filters chunk the super-chunk does not have", blosc2.ErrCorrupt)
	}
	return plain, delta, nil
}

// addRef undoes a packed super-chunk's delta on out, bytes [off,
// off+len(out)) of a chunk packedDelta prepared.
func (r *Reader) addRef(delta bool, out []byte, off int) {
	if !delta {
		return
	}
	for k := range out {
		if off+k >= len(r.ref) {
			break
		}
		out[k] += r.ref[off+k]
	}
}

// packedSource reads chunks at absolute positions of a packed buffer.
type packedSource struct {
	ra   io.ReaderAt
	size int64
}

func (s *packedSource) header(e int64) ([]byte, error) { return s.headerTo(nil, e) }

// headerTo is contiguousSource.headerTo for a packed super-chunk.
func (s *packedSource) headerTo(buf []byte, e int64) ([]byte, error) {
	return frame.ReadAppend(buf[:0], s.ra, e, blosc2.MinHeaderLen, s.size, "chunk header")
}

func (s *packedSource) chunk(dst []byte, e int64, sum, inPlace bool) ([]byte, uint32, error) {
	hb, err := s.headerTo(dst[len(dst):], e)
	if err != nil {
		return nil, 0, err
	}
	return sizedChunk(dst, hb, e, s.size-e, "the buffer", s.ra, e, s.size, sum, inPlace)
}
