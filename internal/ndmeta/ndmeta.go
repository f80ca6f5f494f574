// Package ndmeta decodes the "b2nd" metalayer of a frame (README_B2ND_METALAYER.rst): the
// one decoder of its bytes, shared by the b2nd package (b2nd.ParseMeta) and
// by framereader, which hands the block shape to the codecs and filters that
// need it, as C-Blosc2's plugins read it from the super-chunk.
package ndmeta

import (
	"encoding/binary"
	"fmt"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/errs"
	"github.com/blosc2go/blosc2/internal/frame"
)

// MaxDim is the largest number of dimensions (C-Blosc2's B2ND_MAX_DIM).
const MaxDim = 16

// Fields are the metalayer's contents, in the order and types of
// b2nd.Meta.
type Fields struct {
	Version     int8
	Shape       []int64
	ChunkShape  []int32
	BlockShape  []int32
	DTypeFormat int8
	DType       string
	NoDType     bool
}

// Decode decodes a "b2nd" (or "caterva") metalayer with C-Blosc2's
// rules (see b2nd.ParseMeta). Errors wrap blosc2.ErrHeader.
func Decode(b []byte) (Fields, error) {
	var m Fields
	if len(b) < 3 {
		return m, fmt.Errorf("%w: b2nd metalayer of %d bytes", errs.ErrHeader, len(b))
	}
	m.Version = int8(b[1])
	n := int(int8(b[2]))
	if n < 0 || n > MaxDim {
		return m, fmt.Errorf("%w: b2nd metalayer has %d dimensions, at most %d", errs.ErrHeader, n, MaxDim)
	}
	need := 3 + 3 + 9*n + 10*n
	if len(b) < need {
		return m, fmt.Errorf("%w: b2nd metalayer of %d bytes, %d dimensions need %d", errs.ErrHeader, len(b), n, need)
	}
	m.Shape = make([]int64, n)
	m.ChunkShape = make([]int32, n)
	m.BlockShape = make([]int32, n)
	p := 4
	for i := range n {
		m.Shape[i] = int64(binary.BigEndian.Uint64(b[p+1:]))
		p += 9
	}
	p++
	for i := range n {
		m.ChunkShape[i] = int32(binary.BigEndian.Uint32(b[p+1:]))
		p += 5
	}
	p++
	for i := range n {
		m.BlockShape[i] = int32(binary.BigEndian.Uint32(b[p+1:]))
		p += 5
	}
	if p == len(b) {
		m.NoDType = true
		return m, nil
	}
	if len(b)-p < 6 {
		return m, fmt.Errorf("%w: b2nd metalayer dtype truncated", errs.ErrHeader)
	}
	m.DTypeFormat = int8(b[p])
	if b[p+1] != 0xdb {
		return m, fmt.Errorf("%w: b2nd metalayer dtype marker %#x, want 0xdb", errs.ErrHeader, b[p+1])
	}
	d := int64(int32(binary.BigEndian.Uint32(b[p+2:])))
	p += 6
	if d < 0 || d > int64(len(b)-p) {
		return m, fmt.Errorf("%w: b2nd metalayer dtype of %d bytes, %d left", errs.ErrHeader, d, len(b)-p)
	}
	m.DType = string(b[p : p+int(d)])
	return m, nil
}

// Geometry returns the block shape of the metalayer b for the chunk
// pipeline, or nil when b does not decode or has no positive block shape.
func Geometry(b []byte) *blosc2.Geometry {
	f, err := Decode(b)
	if err != nil || len(f.BlockShape) == 0 {
		return nil
	}
	bs := make([]int, len(f.BlockShape))
	for i, x := range f.BlockShape {
		if x <= 0 {
			return nil
		}
		bs[i] = int(x)
	}
	return &blosc2.Geometry{BlockShape: bs}
}

// FrameGeometry returns the block shape of a frame's "b2nd" (or
// "caterva") metalayer, or nil: what chunks compressed with ZFP or NDLZ,
// or filtered with NDCELL or NDMEAN, need, read from the frame as
// C-Blosc2's plugins read it from the super-chunk.
func FrameGeometry(ms []frame.Metalayer) *blosc2.Geometry {
	for _, name := range []string{"b2nd", "caterva"} {
		if m, ok := frame.FindMetalayer(ms, name); ok {
			return Geometry(m.Content)
		}
	}
	return nil
}
