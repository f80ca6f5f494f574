package blosc2

import "io"

// A Chunk is a compressed chunk held in the pieces it was compressed in,
// for writing it out without first copying it together: the blocks that
// [Chunk.Compress] compresses on several goroutines stay in the buffers
// they were compressed in, after a first piece holding the header, the
// block starts and the dictionary (or the whole chunk, when its blocks
// were compressed on one goroutine). The chunk's bytes are its pieces in
// order, the bytes [Compress] writes for the same input and parameters.
//
// [github.com/blosc2go/blosc2/framewriter.Writer.WriteCompressed] writes
// one into a frame, [Chunk.WriteTo] to any io.Writer.
//
// A Chunk is reused by compressing into it again; [Chunk.Release] gives
// its block buffers back for the next chunks. The zero value is an empty
// Chunk, ready to use. A Chunk is not safe for concurrent use.
type Chunk struct {
	// pieces[0] is the head (in the caller's buffer), pieces[1:] the
	// blocks, in pooled buffers.
	pieces [][]byte
}

// Compress compresses src into c as [Compress] does, replacing what c held
// (its block buffers are released first). The first piece is written from
// the start of buf when buf has room, else into a new buffer; either way
// it is c.Pieces()[0], whose buffer the caller may reuse once c is
// written. On error c is empty.
func (c *Chunk) Compress(buf, src []byte, p *CParams) error {
	c.begin()
	head, err := compressChunk(buf[:0], src, p, &c.pieces)
	return c.end(head, err)
}

// CompressAuto compresses src into c as [CompressAuto] does, replacing
// what c held, and returns the parameters chosen. buf is as in
// [Chunk.Compress].
func (c *Chunk) CompressAuto(buf, src []byte, a *Auto) (CParams, error) {
	c.begin()
	head, p, err := compressAuto(buf[:0], src, a, &c.pieces)
	return p, c.end(head, err)
}

// begin empties c and keeps pieces[0] for the head, the encoder appending
// the blocks after it.
func (c *Chunk) begin() {
	c.Release()
	c.pieces = append(c.pieces, nil)
}

// end stores the head once compressed, or empties c on error.
func (c *Chunk) end(head []byte, err error) error {
	if err != nil {
		c.Release()
		return err
	}
	c.pieces[0] = head
	return nil
}

// Pieces returns the chunk's pieces, in order; the first holds at least
// the chunk's header. They stay c's: valid until c is compressed into
// again or released.
func (c *Chunk) Pieces() [][]byte { return c.pieces }

// Len returns the chunk's length in bytes (its cbytes).
func (c *Chunk) Len() int {
	n := 0
	for _, b := range c.pieces {
		n += len(b)
	}
	return n
}

// WriteTo writes the chunk's bytes to w, piece by piece, and returns how
// many were written (io.WriterTo).
func (c *Chunk) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for _, b := range c.pieces {
		n, err := w.Write(b)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// Append appends the chunk's bytes to dst and returns the extended slice.
func (c *Chunk) Append(dst []byte) []byte {
	dst = grow(dst, c.Len())
	for _, b := range c.pieces {
		dst = append(dst, b...)
	}
	return dst
}

// Release gives c's block buffers back for other chunks to use and
// empties c. The first piece's buffer is the caller's and stays so.
func (c *Chunk) Release() {
	releaseBlocks(&c.pieces)
	clear(c.pieces)
	c.pieces = c.pieces[:0]
}
