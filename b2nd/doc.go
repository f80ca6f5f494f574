// Package b2nd reads and writes Blosc2 N-dimensional arrays in the layout
// C-Blosc2's b2nd library and python-blosc2's NDArray use.
//
// A b2nd array is an ordinary Blosc2 frame (contiguous file or sparse
// directory) with a header metalayer named "b2nd" (Meta) that records the
// array's shape, its chunk shape, its block shape and a NumPy dtype string
// (DType). The array is cut into chunks on a regular grid; chunk number k is
// the k-th grid cell in C (row-major) order. Each chunk holds a full chunk
// shape of elements, extended to a multiple of the block shape and cut into
// blocks, again in C order; inside a block the elements are in C order.
// Positions beyond the array's edge or beyond the chunk shape are padding,
// written as zeros and ignored when reading. Because every Blosc block of a
// chunk is exactly one b2nd block, a reader can decode only the blocks a
// slice touches.
//
// Array reads whole arrays or hyper-slices into C-order memory; Create and
// Writer write them, row slab by row slab, so that an array can grow along
// its first axis one sample at a time. Info, ReadFile and WriteFile are the
// one-call forms the blosc2 command uses.
package b2nd
