package b2nd

import (
	"encoding/binary"
	"fmt"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/ndmeta"
)

// Metalayer names and limits
// (https://github.com/Blosc/c-blosc2/blob/main/README_B2ND_METALAYER.rst).
const (
	// MetaName is the name of the frame metalayer that holds Meta.
	MetaName = "b2nd"
	// CatervaMetaName is the metalayer name of arrays written by the
	// standalone Caterva library; readers fall back to it.
	CatervaMetaName = "caterva"
	// MaxDim is the largest number of dimensions (C-Blosc2's B2ND_MAX_DIM).
	MaxDim = ndmeta.MaxDim
	// MetaVersion is the metalayer format version this package writes.
	MetaVersion = 0
	// DTypeNumPy is the dtype_format of NumPy dtype strings, the only one
	// defined.
	DTypeNumPy = 0
)

// Meta is the content of the "b2nd" metalayer: the array's geometry and
// element type. It is stored with fixed-width integers, so that its
// encoded length depends only on the number of dimensions and the length of
// DType; a shape change can rewrite it in place.
type Meta struct {
	// Version is the metalayer format version (0). Readers ignore it.
	Version int8
	// Shape is the array's extent in each dimension; len(Shape) is the
	// number of dimensions, 0 to MaxDim.
	Shape []int64
	// ChunkShape and BlockShape have one entry per dimension.
	ChunkShape []int32
	BlockShape []int32
	// DTypeFormat says how DType is written; 0 (DTypeNumPy) is NumPy's.
	DTypeFormat int8
	// DType is the element type description, e.g. "<f8".
	DType string
	// NoDType marks a metalayer that ends after the block shape (the
	// Caterva layout); DType and DTypeFormat are then not encoded.
	NoDType bool
}

// NDim is the number of dimensions.
func (m *Meta) NDim() int { return len(m.Shape) }

// Geometry returns the block shape in the form the chunk pipeline hands to
// the codecs and filters that need it (ZFP, NDLZ, NDCELL, NDMEAN): what
// C-Blosc2's plugins read from the b2nd metalayer.
func (m *Meta) Geometry() *blosc2.Geometry {
	bs := make([]int, len(m.BlockShape))
	for i, b := range m.BlockShape {
		bs[i] = int(b)
	}
	return &blosc2.Geometry{BlockShape: bs}
}

// EncodedLen is the length of the encoded metalayer: 12 + 19·ndim +
// len(DType), or 6 + 19·ndim without a dtype.
func (m *Meta) EncodedLen() int {
	n := 6 + 19*len(m.Shape)
	if !m.NoDType {
		n += 6 + len(m.DType)
	}
	return n
}

// MarshalBinary encodes m exactly as C-Blosc2's b2nd_serialize_meta does.
func (m *Meta) MarshalBinary() ([]byte, error) {
	return m.AppendBinary(nil)
}

// AppendBinary appends the encoded metalayer to b.
func (m *Meta) AppendBinary(b []byte) ([]byte, error) {
	n := len(m.Shape)
	if n > MaxDim {
		return b, fmt.Errorf("%w: %d dimensions, at most %d", blosc2.ErrInvalidOption, n, MaxDim)
	}
	if len(m.ChunkShape) != n || len(m.BlockShape) != n {
		return b, fmt.Errorf("%w: shape has %d dimensions, chunkshape %d, blockshape %d",
			blosc2.ErrInvalidOption, n, len(m.ChunkShape), len(m.BlockShape))
	}
	if m.Version < 0 || m.DTypeFormat < 0 {
		return b, fmt.Errorf("%w: version %d, dtype format %d must be 0-127", blosc2.ErrInvalidOption, m.Version, m.DTypeFormat)
	}
	if int64(len(m.DType)) > 1<<31-1-int64(m.EncodedLen()-len(m.DType)) {
		return b, fmt.Errorf("%w: dtype string of %d bytes", blosc2.ErrTooLarge, len(m.DType))
	}
	arr := byte(0x90 + n) // 0xA0 for 16 dimensions, as C writes it
	b = append(b, 0x97)
	if m.NoDType {
		b[len(b)-1] = 0x95
	}
	b = append(b, byte(m.Version), byte(n), arr)
	for _, x := range m.Shape {
		b = append(b, 0xd3)
		b = binary.BigEndian.AppendUint64(b, uint64(x))
	}
	b = append(b, arr)
	for _, x := range m.ChunkShape {
		b = append(b, 0xd2)
		b = binary.BigEndian.AppendUint32(b, uint32(x))
	}
	b = append(b, arr)
	for _, x := range m.BlockShape {
		b = append(b, 0xd2)
		b = binary.BigEndian.AppendUint32(b, uint32(x))
	}
	if m.NoDType {
		return b, nil
	}
	b = append(b, byte(m.DTypeFormat), 0xdb)
	b = binary.BigEndian.AppendUint32(b, uint32(len(m.DType)))
	return append(b, m.DType...), nil
}

// ParseMeta decodes a "b2nd" (or "caterva") metalayer with C-Blosc2's
// rules: the msgpack markers are not checked, except the str32 marker of
// the dtype; ndim must be 0 to MaxDim; a metalayer that ends after the
// block shape has no dtype. Bytes after the dtype are ignored, as C does.
// It does not check the values (see Meta.Validate). Errors wrap
// blosc2.ErrHeader.
func ParseMeta(b []byte) (Meta, error) {
	f, err := ndmeta.Decode(b)
	return Meta(f), err
}

// Validate checks the geometry as C-Blosc2 does before it uses an array
// (b2nd_from_schunk): every extent non-negative, chunk and block extents
// positive wherever the array extent is, and no product overflowing
// (the item count int64, a chunk's and a block's item counts int32).
// Errors wrap blosc2.ErrHeader.
func (m *Meta) Validate() error {
	_, err := newGeom(m, 1)
	return err
}
