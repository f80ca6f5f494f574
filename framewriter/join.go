package framewriter

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
)

// JoinReport says what Join did.
type JoinReport struct {
	Frames int   // frames read
	Chunks int   // chunks copied
	Nbytes int64 // their uncompressed size
	// DroppedVLMeta names the vlmetalayers left out because the frames
	// holding them disagree on their value.
	DroppedVLMeta []string
}

// Join writes the frames concatenated in the size bytes of ra (cat a b,
// appends with >>, a stream Writer's Flushes) as one frame to dst, which
// C-Blosc2 opens: the compressed chunks are copied in order, never
// recompressed (special chunks the indexes record are carried over as
// special chunks). The new frame takes the first frame's header
// parameters and fixed metalayers, and each vlmetalayer whose value every
// frame holding it agrees on. Options are NewWriter's (WithCParams is set from
// the first frame and may be overridden). dst needs to seek for the header
// to be patched, as with NewWriter. A single frame is copied chunk by chunk
// likewise, which also turns an unpatched frame into a standard one.
func Join(dst io.Writer, ra io.ReaderAt, size int64, opts ...WriterOption) (JoinReport, error) {
	var rep JoinReport
	frames, err := framereader.NewReaders(ra, size)
	if err != nil {
		return rep, err
	}
	rep.Frames = len(frames)
	first := frames[0].Info()
	p := blosc2.CParams{
		Codec: first.Codec, Level: first.Clevel, TypeSize: first.TypeSize, Filters: first.Filters,
		BlockSize: first.BlockSize, SplitMode: first.SplitMode, UseDict: first.UseDict,
	}
	base := []WriterOption{WithCParams(p)}
	for _, m := range frames[0].Metalayers() {
		base = append(base, WithMetalayer(m.Name, m.Content))
	}
	// A vlmetalayer is kept when every frame holding it agrees on it.
	values := map[string][]byte{}
	var order []string
	for i, fr := range frames {
		for _, name := range fr.VLMetalayerNames() {
			v, err := fr.VLMetalayer(name)
			if err != nil {
				return rep, fmt.Errorf("frame %d (input offset %d): %w", i, fr.Offset(), err)
			}
			old, seen := values[name]
			switch {
			case !seen:
				values[name] = v
				order = append(order, name)
			case old != nil && !bytes.Equal(old, v):
				values[name] = nil
			}
		}
	}
	for _, name := range order {
		if values[name] == nil {
			rep.DroppedVLMeta = append(rep.DroppedVLMeta, name)
			continue
		}
		base = append(base, WithVLMetalayer(name, values[name]))
	}
	w, err := NewWriter(dst, slices.Concat(base, opts)...)
	if err != nil {
		return rep, err
	}
	var c []byte
	for i, fr := range frames {
		for k := range fr.NumChunks() {
			if c, err = fr.AppendChunk(c[:0], k); err == nil {
				err = w.WriteCompressedChunk(c)
			}
			if err != nil {
				w.abort()
				return rep, fmt.Errorf("frame %d (input offset %d), chunk %d: %w", i, fr.Offset(), k, err)
			}
			rep.Chunks++
		}
		rep.Nbytes += fr.Size()
	}
	return rep, w.Close()
}
