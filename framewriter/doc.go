// Package framewriter writes Blosc2 frames: contiguous frames (one file or
// stream: header, chunks, index, trailer) and sparse frames (a directory
// of chunk files plus a chunks.b2frame index frame), laid out as C-Blosc2
// 3.3.2 lays them out, so that C-Blosc2 opens and decodes them. It also
// appends to existing frames, patches frames written to pipes ([Repair])
// and rebuilds frames whose writer died ([Recover]).
//
// # Writing
//
// A [Writer] takes chunks in order: WriteChunk compresses raw data with the
// Writer's blosc2.CParams, WriteCompressedChunk takes chunks compressed
// elsewhere, and WriteCompressed chunks held in the pieces their blocks
// were compressed in (blosc2.Chunk, as package stream compresses them in
// parallel), written without copying them together; WriteSpecial and FillSpecial
// add zero, NaN, uninitialized and repeated-value chunks. Fixed metalayers
// are declared before the first chunk ([WithMetalayer], AddMetalayer) and
// may be rewritten in place later (UpdateMetalayer); vlmetalayers can be
// set and deleted until Close. Memory stays at one chunk plus 8 bytes per
// chunk for the index: the frame is never buffered.
//
// The first chunk's size is the frame's chunk size (format version 2); a
// chunk after a shorter one, or a larger one, makes the sizes variable
// (version 3), exactly as C-Blosc2 decides. Frames of BloscLZ and LZ4
// chunks written with the parameters C-Blosc2 was given are byte for byte
// C-Blosc2's (with [WithStickyBlockSize] when chunk sizes vary).
//
// # Destinations that cannot seek
//
// The header holds sizes known only at the end. Close patches them when
// the destination can seek (an *os.File on a regular file, an
// io.WriteSeeker, an io.WriterAt). On a pipe or socket the frame is
// written completely, with the same layout, but with its header sizes
// unpatched (frame_len 0, nbytes and cbytes -1). framereader reads such
// frames (Reader, and ChunkReader in one pass); Repair (one pass, from a
// stream to a seekable destination) and [RepairFile] (in place) turn them
// into standard frames.
//
// # What C-Blosc2 3.3.2 opens
//
// Checked with a C-Blosc2 3.3.2 build (TestCInterop and the append,
// repair and recovery tests run it when available):
//
//   - It opens and decodes every frame a Writer finishes on a seekable
//     destination: fixed and variable chunk sizes, metalayers,
//     vlmetalayers, zero/NaN/uninit chunks (as index entries, or stored),
//     repeated-value chunks, FillSpecial frames, VL-block chunks, sparse
//     frames; and every frame [Append], Repair, RepairFile, Recover and
//     [RecoverFile] produce.
//   - It refuses frames with unpatched headers ("blosc2_schunk_open
//     failed": it needs frame_len, nbytes and cbytes to find the index).
//   - It cannot read zero, NaN or uninitialized special chunks stored in
//     a frame file (its lazy chunk reader accepts only regular and
//     repeated-value chunks), so this package stores those, when it stores
//     them (SpecialsInline, or variable-size frames), as repeated-value
//     chunks.
//   - It cannot size index-only special chunks of a variable-size frame
//     (it divides by the chunk size, 0), although it writes such frames;
//     this package stores those chunks instead.
//   - It refuses to write a 17th vlmetalayer and cannot read frames with
//     empty chunks; Writer refuses both.
//
// # Crash safety
//
// A Writer writes the header first (sizes unpatched) and the index and
// trailer last. RecoverFile and Recover rebuild a valid frame from what a
// dead writer left, keeping every whole chunk; chunks recorded only in
// the index (SpecialsIndex, the default on seekable destinations, as in
// C-Blosc2) are lost with it, which [RecoverReport.LostSpecials] reports:
// write with WithSpecials(SpecialsInline) when nothing may be lost.
// Append writes after the current end and rewrites the header last, so a
// failed append leaves the previous frame readable.
package framewriter
