// Package blosc2 is a pure-Go implementation of Blosc2, the blocked and
// filtered compressor of C-Blosc2: it writes chunks and frames C-Blosc2
// reads (with BloscLZ or LZ4 at the same parameters, the same bytes), and
// reads what C-Blosc2, C-Blosc 1.x, python-blosc2, Zarr v2 and numcodecs
// write.
//
// Blosc2 data has three levels; this package is the first.
//
// # Chunk
//
// A chunk is one buffer of at most [MaxBufferSize] bytes, compressed on
// its own: a 32-byte header ([Header], read by [ParseHeader], or from
// its first bytes by [ParsePrefix] and [ParseHeaderPrefix]), then the
// data cut into blocks that are decoded independently, each run through
// a pipeline of up to six filters ([Filter], [Pipeline]: [Shuffle],
// [BitShuffle], [Delta], [TruncPrec], [ByteDelta], or a [UserFilter]) and
// a codec (package [github.com/blosc2go/blosc2/codec]: BloscLZ, LZ4, LZ4HC, Zlib, Zstd, or one given
// to codec.Register). [CParams] says how to compress (nil means
// [DefaultCParams]; [CParams.Validate] checks them), [DParams] how to
// decompress:
//
//	chunk, err := blosc2.Compress(nil, data, &blosc2.CParams{Codec: blosc2.Zstd, Level: 5, TypeSize: 8})
//	data, err = blosc2.Decompress(nil, chunk, nil)
//
// [Compress] and [Decompress] append to dst, as append does. [GetItems]
// and [DecompressRange] decode only the blocks that hold a part of the
// chunk; [DecompressTo] decodes into a buffer the caller owns. Special
// chunks ([AppendSpecial]) stand for all-zero, NaN or repeated-value data
// in a header alone; [CompressVL] writes chunks of variable-length blocks.
// [CompressAuto] and [Auto] pick the filters, element size, codec and
// block size from a probe of the data. The chunk layout is C-Blosc2's
// https://github.com/Blosc/c-blosc2/blob/main/README_CHUNK_FORMAT.rst;
// [ChunkBlosc1] writes C-Blosc 1.x's 16-byte-header chunks instead.
//
// # Frame
//
// A frame is a container of chunks of one size (a "super-chunk"): a
// header with the parameters and the fixed metalayers, the chunks, an
// index of their offsets, and a trailer with the variable-length
// metalayers. It is a file (contiguous frame,
// https://github.com/Blosc/c-blosc2/blob/main/README_CFRAME_FORMAT.rst)
// or a directory of one file a chunk (sparse frame,
// https://github.com/Blosc/c-blosc2/blob/main/README_SFRAME_FORMAT.rst).
// Package [github.com/blosc2go/blosc2/framewriter] writes frames chunk by
// chunk (NewWriter, Create, CreateSparse, Append) and repairs or recovers
// damaged ones; package [github.com/blosc2go/blosc2/framereader] reads them
// with random access (Open, NewReader) or front to back
// (NewChunkReader). Package [github.com/blosc2go/blosc2/b2nd] stores
// N-dimensional arrays in frames, described by the "b2nd" metalayer
// (https://github.com/Blosc/c-blosc2/blob/main/README_B2ND_METALAYER.rst).
//
// # Stream
//
// Package [github.com/blosc2go/blosc2/stream] is the io.Reader/io.Writer face
// of frames, as
// compress/gzip is for gzip members: stream.NewWriter(w, ...WriterOption)
// cuts what it is written into chunks, compresses them on goroutines and
// writes a frame; stream.NewReader(r, ...ReaderOption) reads frames (and
// concatenations of them) back with bounded memory. stream.EncodeAll and
// stream.DecodeAll do the same on byte slices.
//
// # Errors
//
// Every error of every package of the module wraps one of this package's
// sentinels ([ErrHeader], [ErrCorrupt], [ErrTruncated], [ErrUnsupported],
// [ErrInvalidOption], [ErrTooLarge], [ErrClosed], [ErrChecksum]), with
// context (the chunk, the block, the offset) in its message: test with
// errors.Is. Sizes read from the input are checked before they are used
// to allocate; [DParams].MaxMemory caps what a decode may allocate.
//
// ARCHITECTURE.md in the module's repository describes the layers and
// where to add a codec, a filter or a container.
package blosc2
