package framewriter

import (
	"bytes"
	"fmt"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/option"
)

// WriterOption configures a Writer.
type WriterOption func(*options) error

type options struct {
	cp       *blosc2.CParams
	metas    []frame.Metalayer
	vlmetas  []vlmetaOpt
	specials SpecialMode
	noSync   bool
	sticky   bool
	noSums   bool
}

type vlmetaOpt struct {
	name    string
	content []byte
}

// SpecialMode says how chunks whose content is all zeros, all NaN or
// uninitialized (blosc2 special chunks of those kinds) are recorded.
type SpecialMode int

const (
	// SpecialsAuto records them as index entries (SpecialsIndex) when the
	// destination can seek, and stores them (SpecialsInline) when it
	// cannot, so that a frame written to a pipe can be read back in one
	// pass. This is the default.
	SpecialsAuto SpecialMode = iota
	// SpecialsIndex records them only in the index, as C-Blosc2 does: they
	// take no bytes in the chunks section. Such chunks exist nowhere before
	// Close writes the index, so a writer that dies loses them.
	SpecialsIndex
	// SpecialsInline stores them in the chunks section like any other
	// chunk, as the repeated-value chunk of one element of their content
	// (32 bytes plus the typesize; C-Blosc2 cannot read zero, NaN and
	// uninitialized chunks stored in a frame file, but reads repeated-value
	// ones). An uninitialized chunk is stored as zeros. A sequential reader
	// and Recover then see every chunk.
	SpecialsInline
)

func newOptions(opts []WriterOption) (options, error) {
	var o options
	err := option.Apply(&o, opts)
	return o, err
}

// WithCParams sets the compression parameters: WriteChunk compresses with
// them, and the frame header records their codec, level, typesize, filters,
// requested block size, split mode, dictionary flag and thread count as
// C-Blosc2's defaults for the frame. The default is blosc2.DefaultCParams().
// For Append, the header keeps the existing frame's values and p only
// drives WriteChunk (the default is then the existing header's).
func WithCParams(p blosc2.CParams) WriterOption {
	return func(o *options) error {
		o.cp = &p
		return nil
	}
}

// WithMetalayer declares a fixed metalayer: a name (1-31 bytes) and raw
// content stored in the header. Metalayers must exist before the first
// chunk; their size is then frozen, and UpdateMetalayer may only rewrite
// their content in place. At most 16 per frame; repeatable, in order.
func WithMetalayer(name string, content []byte) WriterOption {
	return func(o *options) error {
		if err := frame.AddMetalayer(&o.metas, name, content); err != nil {
			return err
		}
		return nil
	}
}

// WithVLMetalayer adds a variable-length metalayer, compressed with
// C-Blosc2's default parameters as blosc2_vlmeta_add does without cparams
// (see Writer.SetVLMetalayer). Repeatable.
func WithVLMetalayer(name string, content []byte) WriterOption {
	return func(o *options) error {
		if err := frame.CheckMetaName(name); err != nil {
			return err
		}
		o.vlmetas = append(o.vlmetas, vlmetaOpt{name, bytes.Clone(content)})
		return nil
	}
}

// WithSpecials sets how zero, NaN and uninitialized chunks are recorded
// (default SpecialsAuto).
func WithSpecials(m SpecialMode) WriterOption {
	return func(o *options) error {
		if m < SpecialsAuto || m > SpecialsInline {
			return fmt.Errorf("%w: special mode %d", blosc2.ErrInvalidOption, m)
		}
		o.specials = m
		return nil
	}
}

// WithoutSync turns off the fsync calls Create, Append, RecoverFile and
// RepairFile make so that a crash never leaves a header pointing at data
// that did not reach the disk. Faster, for scratch files.
func WithoutSync() WriterOption {
	return func(o *options) error {
		o.noSync = true
		return nil
	}
}

// WithStickyBlockSize makes WriteChunk reproduce C-Blosc2's super-chunk
// compression context, whose block size, once chosen for a chunk, becomes
// the requested block size of every later chunk. C-Blosc2's frames with
// chunks of varying sizes are reproduced byte for byte only with it; it is
// off by default because after one small chunk every later chunk gets
// equally small blocks and compresses poorly.
func WithStickyBlockSize() WriterOption {
	return func(o *options) error {
		o.sticky = true
		return nil
	}
}

// WithoutChecksums leaves out the per-chunk CRC-32C checksums a Writer
// keeps by default (see the README's "Integrity"), as C-Blosc2 does.
// Readers then cannot tell damaged chunks that still decode from good
// ones.
func WithoutChecksums() WriterOption {
	return func(o *options) error {
		o.noSums = true
		return nil
	}
}
