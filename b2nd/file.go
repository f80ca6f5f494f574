package b2nd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blosc2go/blosc2"
)

// Info summarises an array: what `blosc2 info` prints for a .b2nd file.
type Info struct {
	Shape      []int64 `json:"shape"`
	ChunkShape []int32 `json:"chunkshape"`
	BlockShape []int32 `json:"blockshape"`
	// DType is the dtype string as stored ("" if the metalayer has none).
	DType    string `json:"dtype"`
	ItemSize int    `json:"itemsize"` // the frame's typesize
	NItems   int64  `json:"nitems"`   // elements
	NBytes   int64  `json:"nbytes"`   // bytes of the whole array in C order
	NChunks  int64  `json:"nchunks"`
	// MetaName is the metalayer the geometry came from: "b2nd", or
	// "caterva" for arrays of the standalone Caterva library.
	MetaName string `json:"metalayer"`
}

// Info returns the summary of a.
func (a *Array) Info() Info {
	in := Info{
		Shape: a.Shape(), ChunkShape: a.ChunkShape(), BlockShape: a.BlockShape(),
		DType: a.meta.DType, ItemSize: a.ItemSize(), NItems: a.NItems(), NBytes: a.NBytes(),
		NChunks: a.NChunks(), MetaName: MetaName,
	}
	if a.frame != nil {
		if _, ok := a.frame.Metalayer(MetaName); !ok {
			in.MetaName = CatervaMetaName
		}
	}
	return in
}

// String formats the summary on one line, e.g.
// "shape (100, 37) chunkshape (30, 16) blockshape (7, 5) dtype <f4".
func (in Info) String() string {
	return fmt.Sprintf("shape %s chunkshape %s blockshape %s dtype %s",
		tuple(in.Shape), tuple(in.ChunkShape), tuple(in.BlockShape), in.DType)
}

// tuple formats extents as a Python tuple: (), (5,), (5, 7).
func tuple[T int32 | int64](x []T) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, v := range x {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(int64(v), 10))
	}
	if len(x) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// Stat returns the summary of the array in the frame file or sparse
// directory at path. It reads the header only.
func Stat(path string) (Info, error) {
	a, err := Open(path)
	if err != nil {
		return Info{}, err
	}
	defer a.Close()
	return a.Info(), nil
}

// ReadFile returns the whole array at path in C order, and its summary.
// It takes Open's options.
func ReadFile(path string, opts ...ReaderOption) ([]byte, Info, error) {
	a, err := Open(path, opts...)
	if err != nil {
		return nil, Info{}, err
	}
	defer a.Close()
	data, err := a.ReadAll(nil)
	return data, a.Info(), err
}

// WriteFile writes data, a whole array in C order, to a new file (or
// sparse directory, WithSparse) at path as an array of the given shape
// and dtype. len(data) must be the product of shape times the item size.
func WriteFile(path string, data []byte, shape []int64, dtype string, opts ...WriterOption) error {
	s, err := newSpec(shape, dtype, opts)
	if err != nil {
		return err
	}
	if s.growing {
		return fmt.Errorf("%w: WriteFile needs a complete shape, not %v", blosc2.ErrInvalidOption, shape)
	}
	n := int64(s.dtype.Size)
	for _, x := range shape {
		n *= x
	}
	if int64(len(data)) != n {
		return fmt.Errorf("%w: %d bytes for shape %v of %d-byte items (%d bytes)",
			blosc2.ErrInvalidOption, len(data), shape, s.dtype.Size, n)
	}
	w, err := Create(path, shape, dtype, opts...)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// ParseShape parses extents written as "A,B,C" (spaces and surrounding
// parentheses allowed; "" or "()" is the 0-d shape). It is the parser of
// the blosc2 command's --shape flag; the first extent may be -1 (an array
// that grows as rows are appended).
func ParseShape(s string) ([]int64, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "("), ")")
	out := []int64{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	parts := strings.Split(s, ",")
	if strings.TrimSpace(parts[len(parts)-1]) == "" {
		parts = parts[:len(parts)-1] // "(5,)"
	}
	if len(parts) > MaxDim {
		return nil, fmt.Errorf("%w: %d dimensions, at most %d", blosc2.ErrInvalidOption, len(parts), MaxDim)
	}
	for i, p := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil || v < -1 || (v == -1 && i > 0) {
			return nil, fmt.Errorf("%w: bad extent %q in %q", blosc2.ErrInvalidOption, p, s)
		}
		out = append(out, v)
	}
	return out, nil
}

// ParseShape32 is ParseShape for chunk and block shapes: every extent
// between 1 and 2³¹−1.
func ParseShape32(s string) ([]int32, error) {
	x, err := ParseShape(s)
	if err != nil {
		return nil, err
	}
	out := make([]int32, len(x))
	for i, v := range x {
		if v < 1 || v > 1<<31-1 {
			return nil, fmt.Errorf("%w: extent %d in %q outside 1-%d", blosc2.ErrInvalidOption, v, s, 1<<31-1)
		}
		out[i] = int32(v)
	}
	return out, nil
}
