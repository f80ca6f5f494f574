package framewriter

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
)

// RepairFile turns the complete frame at path whose header sizes were
// never patched (written to a pipe or socket by a Writer) into a standard
// frame, in place: it locates the index and the trailer, derives
// frame_len, nbytes, cbytes, the chunk size and the format version, and
// rewrites the header in one write (after which it syncs, unless
// WithoutSync). A frame that is already patched is left alone. A frame
// whose writer died before finishing has no index: use RecoverFile.
func RepairFile(path string, opts ...Option) error {
	o, err := newOptions(opts)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := checkCurrent(f, st.Size()); err != nil {
		return err
	}
	l, err := frame.LoadContiguous(f, st.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !l.Unpatched {
		return nil
	}
	h := l.Header
	b := h.Append(nil)
	if len(b) != l.Header.HeaderLen {
		return fmt.Errorf("%w: %s: header re-encodes to %d bytes, not %d", blosc2.ErrUnsupported, path, len(b), l.Header.HeaderLen)
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		return err
	}
	if !o.noSync {
		return f.Sync()
	}
	return nil
}

// Repair copies the complete frame that src holds to dst in one pass,
// patching its header: the standard form of a frame written to a pipe.
// It reads src up to the end of the frame's trailer. dst must be able to
// seek (io.WriteSeeker, io.WriterAt, a regular *os.File): the header comes
// first but its sizes are known last. It holds one chunk at a time (and 4
// bytes per chunk to size the frame). A frame that is already patched is
// copied as is.
func Repair(dst io.Writer, src io.Reader) error {
	s := newSink(dst)
	if !s.seekable() {
		return fmt.Errorf("%w: Repair needs a destination that can seek", blosc2.ErrUnsupported)
	}
	br := bufio.NewReader(src)
	var pos int64
	readFull := func(p []byte, what string) error {
		n, err := io.ReadFull(br, p)
		pos += int64(n)
		if err != nil {
			return fmt.Errorf("%w: %s at frame offset %d: %v", blosc2.ErrTruncated, what, pos, err)
		}
		return nil
	}
	fixed := make([]byte, frame.FixedHeaderLen)
	if err := readFull(fixed, "frame header"); err != nil {
		return err
	}
	if frame.Detect(fixed, -1) != frame.KindContiguous {
		return fmt.Errorf("%w: not a contiguous frame", blosc2.ErrHeader)
	}
	h, err := frame.ParseFixed(fixed)
	if err != nil {
		return err
	}
	hb := bytes.NewBuffer(fixed)
	n, err := io.CopyN(hb, br, int64(h.HeaderLen-frame.FixedHeaderLen))
	pos += n
	if err != nil {
		return fmt.Errorf("%w: frame header of %d bytes: %v", blosc2.ErrTruncated, h.HeaderLen, err)
	}
	hdr := hb.Bytes()
	if err := frame.ParseMetalayers(&h, hdr); err != nil {
		return err
	}
	if err := s.write(hdr); err != nil {
		return err
	}
	end := int64(-1) // end of the chunks section when the header says
	if !h.Unpatched() {
		end = int64(h.HeaderLen) + h.Cbytes
	}
	nb := map[int64]int32{}
	var last []byte
	lastPos := int64(-1)
	var flags2 byte
	for {
		if end >= 0 && pos == end {
			break
		}
		b, err := br.Peek(1)
		if err != nil {
			return fmt.Errorf("%w: stream ends at frame offset %d, before the trailer", blosc2.ErrTruncated, pos)
		}
		if b[0] == 0x94 && end < 0 {
			break
		}
		if b[0] == 0x94 {
			// A stale trailer inside the chunks section: copy it.
			t, err := frame.ReadTrailer(br, end-pos)
			pos += int64(len(t))
			if err != nil {
				return err
			}
			if err := s.write(t); err != nil {
				return err
			}
			delete(nb, lastPos-int64(h.HeaderLen))
			last = nil
			continue
		}
		var hb [blosc2.MinHeaderLen]byte
		at := pos
		if err := readFull(hb[:], "chunk header"); err != nil {
			return err
		}
		cb := int64(int32(binary.LittleEndian.Uint32(hb[12:])))
		if cb < blosc2.MinHeaderLen || (end >= 0 && cb > end-at) {
			return fmt.Errorf("%w: chunk at frame offset %d declares %d bytes", blosc2.ErrCorrupt, at, cb)
		}
		var buf bytes.Buffer
		buf.Write(hb[:])
		n, err := io.CopyN(&buf, br, cb-blosc2.MinHeaderLen)
		pos += n
		if err != nil {
			return fmt.Errorf("%w: chunk at frame offset %d: %v", blosc2.ErrTruncated, at, err)
		}
		last, lastPos = buf.Bytes(), at
		if lastPos == int64(h.HeaderLen) && len(last) >= 32 {
			flags2 = last[30]
		}
		nb[at-int64(h.HeaderLen)] = int32(binary.LittleEndian.Uint32(hb[4:]))
		if err := s.write(last); err != nil {
			return err
		}
	}
	// The index: the last chunk (unpatched) or the one at the section end.
	var idx []byte
	if end >= 0 {
		if h.Nbytes > 0 {
			c, err := readChunkFrom(br, &pos, h.FrameLen-pos)
			if err != nil {
				return fmt.Errorf("index chunk: %w", err)
			}
			idx = c
			if err := s.write(idx); err != nil {
				return err
			}
		}
	} else if last != nil {
		idx = last
		delete(nb, lastPos-int64(h.HeaderLen))
		h.Cbytes = lastPos - int64(h.HeaderLen)
	} else {
		h.Cbytes = 0
	}
	t, err := frame.ReadTrailer(br, -1)
	pos += int64(len(t))
	if err != nil {
		return err
	}
	if err := s.write(t); err != nil {
		return err
	}
	vl, err := frame.ParseTrailer(t)
	if err != nil {
		return err
	}
	if !h.Unpatched() {
		if pos != h.FrameLen {
			return fmt.Errorf("%w: frame ends at %d, frame_len says %d", blosc2.ErrCorrupt, pos, h.FrameLen)
		}
		return s.finish()
	}
	sizes := frame.NewSizes()
	sizes.VLBlocks = flags2&1 != 0
	if idx != nil {
		x, err := frame.DecodeIndex(idx, -1)
		if err != nil {
			return err
		}
		for i := range x.Len() {
			e := x.At(i)
			n, ok := nb[e]
			if e < 0 {
				if h.ChunkSize <= 0 {
					return fmt.Errorf("%w: index-only chunk %d and no chunk size in the header", blosc2.ErrCorrupt, i)
				}
				n, ok = h.ChunkSize, true
			}
			if !ok {
				return fmt.Errorf("%w: index entry %d points at %d, where no chunk starts", blosc2.ErrCorrupt, i, e)
			}
			sizes.Add(n)
		}
	}
	h.FrameLen = pos
	h.Nbytes = sizes.Nbytes
	h.ChunkSize = sizes.ChunkSize
	h.GeneralFlags = sizes.GeneralFlags()
	h.HasVLMeta = len(vl) > 0
	b := h.Append(nil)
	if len(b) != len(hdr) {
		return fmt.Errorf("%w: header re-encodes to %d bytes, not %d", blosc2.ErrUnsupported, len(b), len(hdr))
	}
	if err := s.patch(0, b); err != nil {
		return err
	}
	return s.finish()
}

// readChunkFrom reads one chunk of at most limit bytes from br.
func readChunkFrom(br *bufio.Reader, pos *int64, limit int64) ([]byte, error) {
	var hb [blosc2.MinHeaderLen]byte
	n, err := io.ReadFull(br, hb[:])
	*pos += int64(n)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", blosc2.ErrTruncated, err)
	}
	cb := int64(int32(binary.LittleEndian.Uint32(hb[12:])))
	if cb < blosc2.MinHeaderLen || cb > limit {
		return nil, fmt.Errorf("%w: chunk declares %d bytes, at most %d fit", blosc2.ErrCorrupt, cb, limit)
	}
	var buf bytes.Buffer
	buf.Write(hb[:])
	m, err := io.CopyN(&buf, br, cb-blosc2.MinHeaderLen)
	*pos += m
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%w: %v", blosc2.ErrTruncated, err)
	}
	return buf.Bytes(), nil
}
