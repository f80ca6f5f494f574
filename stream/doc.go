// Package stream compresses and decompresses byte streams as Blosc2
// contiguous frames, the way compress/gzip and klauspost's zstd do: wrap a
// file or a socket, io.Copy, Close.
//
// A [Writer] cuts what it is given into chunks (4 MiB by default), compresses
// them with goroutines while the caller keeps writing (by default in the
// automatic mode, which picks each chunk's filters, element size and
// block size from a probe of the chunk: see [WithTier]), and lays them out as
// a frame C-Blosc2 and python-blosc2 open (blosc2.open, blosc2_schunk_open).
// When the destination can seek (a file), Close patches the frame header;
// on a pipe, a socket or a file opened with O_APPEND the header sizes stay
// unpatched, which our [Reader] reads and framewriter.Repair (blosc2 repair)
// turns into a standard frame. On those, Flush ends a frame so that the
// peer gets every byte written so far; framewriter.Join (blosc2 join)
// makes one frame of several.
//
// A Reader decompresses frames from any io.Reader, decoding chunks ahead
// on goroutines; like gzip.Reader it reads a concatenation of frames (cat,
// appends with >>, a socket's flushed frames) as one stream. When the
// source is an io.ReaderAt or an io.ReadSeeker it also offers Seek and a
// stateless, concurrent ReadAt across all frames that decodes only the
// chunks and blocks holding the bytes asked for. Frames carry per-chunk
// CRC-32C checksums, verified on every read.
//
// Memory stays bounded by a few chunks however long the stream: see
// Writer and [WithMaxMemory].
package stream
