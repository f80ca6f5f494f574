// Package b2nd reads and writes Blosc2 N-dimensional arrays in the layout
// C-Blosc2's b2nd library and python-blosc2's NDArray use.
//
// A b2nd array is an ordinary Blosc2 frame (contiguous file or sparse
// directory) with a header metalayer named "b2nd" ([Meta]) that records the
// array's shape, its chunk shape, its block shape and a NumPy dtype string
// ([DType]). The array is cut into chunks on a regular grid; chunk number k is
// the k-th grid cell in C (row-major) order. Each chunk holds a full chunk
// shape of elements, extended to a multiple of the block shape and cut into
// blocks, again in C order; inside a block the elements are in C order.
// Positions beyond the array's edge or beyond the chunk shape are padding,
// written as zeros and ignored when reading. Because every Blosc block of a
// chunk is exactly one b2nd block, a reader can decode only the blocks a
// slice touches.
//
// [Open] (files and sparse directories), [NewReader] and [FromFrame] give an
// [Array], which reads the whole array or any hyper-slice into C-order
// memory. [Create] and [NewWriter] give a [Writer], which takes the array in C
// order and stores it slab by slab (chunkshape[0] rows at a time); an
// array declared with a first extent of -1 grows as rows are appended,
// one sample at a time if need be, and [OpenAppend] adds rows to an
// existing array. [Stat], [ReadFile], [WriteFile] and [OpenIfArray] are the
// one-call forms the blosc2 command uses.
//
// The files are those of C-Blosc2 3.3.2 (b2nd_open, b2nd_to_cbuffer) and
// python-blosc2 (blosc2.open): the same metalayer bytes, chunk layout,
// padding (zeros) and frame header values (typesize, blocksize = one
// block's bytes, chunksize = one padded chunk's bytes).
//
// Arrays may use C-Blosc2's plugin codecs and filters, which work on the
// blocks as N-dimensional arrays: ZFP and NDLZ (see
// [github.com/blosc2go/blosc2/codec.ShapedCodec]), and the filters [blosc2.NDCell], [blosc2.NDMean] and [blosc2.IntTrunc]. Name them
// in [WithCParams]; the block shape they need travels in
// [blosc2.CParams.Geometry] and [blosc2.DParams.Geometry], which this
// package sets from the array's metalayer, as C-Blosc2's plugins read it.
package b2nd
