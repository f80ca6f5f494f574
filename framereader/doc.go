// Package framereader reads Blosc2 frames: contiguous frames (format
// versions 2 and 3, from a file, a file offset, an io.ReaderAt or a byte
// slice), sparse frame directories, frames whose header sizes were never
// patched (written to a pipe), and the older beta-era frames (13-element
// header, usermeta trailer) and packed super-chunks (96-byte header) of
// early C-Blosc2 versions. [Detect] tells these formats, and bare chunks,
// apart from their first bytes.
//
// A [Reader] gives random access: chunk i compressed (Chunk) or decoded
// (DecodeChunk, DecodeChunkItems for a part of it), and any byte range of
// the uncompressed data (ReadAt), decoding only the chunks, and within
// them only the blocks, that hold it. It exposes the header ([Info]), the
// chunk table ([ChunkInfo]), fixed metalayers (raw bytes, or decoded as
// msgpack) and vlmetalayers (decompressed, or decoded as msgpack, as
// python-blosc2 stores them). Special chunks that the index records
// without storing them (zeros, NaN, uninitialized) decode as C-Blosc2
// synthesizes them; uninitialized ones decode to zeros.
//
// A [ChunkReader] reads contiguous frames front to back from a plain
// io.Reader, a concatenation of frames as one stream by default, and
// yields their compressed chunks in order (Next), for callers that
// decompress them in parallel. OpenFrames opens every frame of a
// concatenation held in an io.ReaderAt.
//
// Every size read from the input is checked against the input before it
// is used to allocate or index, and every error wraps one of the root
// package's sentinels (blosc2.ErrHeader, blosc2.ErrCorrupt, …).
package framereader
