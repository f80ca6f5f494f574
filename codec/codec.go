// Package codec is the registry of the compressors that Blosc2 chunks name by
// id: BloscLZ (implemented here), LZ4 (its compressor implemented here,
// byte-exact with lz4 1.10's; decoding by pierrec/lz4/v4), LZ4HC
// (pierrec/lz4/v4), zlib and
// Zstandard (klauspost/compress), Snappy (klauspost/compress/snappy; C-Blosc
// 1.x chunks only), the plugin codecs C-Blosc2 registers at start-up (NDLZ
// and ZFP in three modes, implemented here and in [github.com/blosc2go/blosc2/codec/zfp],
// which need the block shape of a b2nd array: see [ShapedCodec]), and any
// codec an application registers with an id from 160 to 255.
//
// A codec works on one stream at a time: it is handed exactly one (filtered)
// block, or one typesize-th of a block when the block is split, and it never
// keeps state from one stream to the next except for an optional dictionary
// shared by every stream of a chunk.
package codec

import (
	"fmt"
	"sync"

	"github.com/blosc2go/blosc2/internal/errs"
)

// ID is a Blosc codec code (the "compcode" of C-Blosc2), stored in byte 22 of
// a chunk's extended header.
type ID uint8

// The codec ids that C-Blosc2 defines and this package implements.
const (
	BloscLZ ID = 0
	LZ4     ID = 1
	LZ4HC   ID = 2
	Zlib    ID = 4
	Zstd    ID = 5

	// Snappy is C-Blosc 1.x's Snappy (its BLOSC_SNAPPY compcode), stored
	// as the Snappy format of the header's flags byte. C-Blosc2 has no such codec: only Blosc1
	// (version-2) chunks may use it (see [LookupBlosc1]).
	Snappy ID = 3

	// UserMin is the first id an application may register.
	UserMin ID = 160
)

// Lossless reports whether id is a codec known to decode exactly what it
// encoded: every built-in codec but ZFP's three modes. A registered user
// codec is not known to be.
func Lossless(id ID) bool {
	switch id {
	case BloscLZ, LZ4, LZ4HC, Snappy, Zlib, Zstd, NDLZ:
		return true
	}
	return false
}

// Errors returned by codecs. Callers test them with errors.Is. ErrCorrupt
// is the root package's blosc2.ErrCorrupt; ErrUnknown and ErrDict are
// their own sentinels, which also match blosc2.ErrUnsupported and
// blosc2.ErrCorrupt respectively (their messages are those sentinels'):
// errors.Is(err, ErrDict) holds for dictionary errors only.
var (
	// ErrCorrupt reports a stream that does not decode to exactly the
	// expected number of bytes.
	ErrCorrupt = errs.ErrCorrupt
	// ErrUnknown reports a codec id that nothing has registered.
	ErrUnknown error = &kindError{errs.ErrUnsupported}
	// ErrDict reports a dictionary the codec cannot use.
	ErrDict error = &kindError{errs.ErrCorrupt}
)

// kindError is a sentinel narrower than the root sentinel it wraps, with
// the same message.
type kindError struct{ base error }

func (e *kindError) Error() string { return e.base.Error() }
func (e *kindError) Unwrap() error { return e.base }

// Codec compresses and decompresses single Blosc streams.
//
// Implementations must be safe for concurrent use: the blocks of one chunk are
// compressed by several goroutines at once.
type Codec interface {
	// Compress compresses src into dst and returns the number of bytes
	// written. The result must fit in len(dst); when it does not, Compress
	// returns 0 and a nil error, and the caller stores src uncompressed.
	// clevel is the Blosc level, 1 to 9; meta is the codec meta byte of the
	// chunk header. dict, when not nil, is the chunk's dictionary.
	Compress(dst, src []byte, clevel int, meta uint8, dict []byte) (int, error)

	// Decompress decodes the whole of src into dst, which has exactly the
	// length the stream must produce, and returns the number of bytes
	// written. A stream that would write past dst, or that produces fewer
	// bytes than len(dst), is an error wrapping ErrCorrupt.
	Decompress(dst, src []byte, meta uint8, dict []byte) (int, error)
}

// DictTrainer is implemented by codecs that build a dictionary from samples
// of a chunk's filtered data (C-Blosc2 trains Zstandard dictionaries; LZ4
// uses a prefix of the data as is).
type DictTrainer interface {
	// TrainDict returns a dictionary of at most maxSize bytes built from
	// samples, or nil when no useful dictionary can be built.
	TrainDict(samples [][]byte, maxSize int) ([]byte, error)
}

type entry struct {
	name  string
	codec Codec
}

var (
	registryMu sync.RWMutex
	registry   = map[ID]entry{}
)

func init() {
	registry[BloscLZ] = entry{"blosclz", blosclzCodec{}}
	registry[LZ4] = entry{"lz4", lz4Codec{}}
	registry[LZ4HC] = entry{"lz4hc", lz4hcCodec{}}
	registry[Zlib] = entry{"zlib", zlibCodec{}}
	registry[Zstd] = entry{"zstd", zstdCodec{}}
	registry[Snappy] = entry{"snappy", snappyCodec{}}
}

// Register makes a user codec available under id, which must be in
// [UserMin, 255]. Registering an id twice replaces the earlier codec.
func Register(id ID, name string, c Codec) error {
	if id < UserMin {
		return fmt.Errorf("%w: codec id %d is reserved; user codecs use %d-255", errs.ErrInvalidOption, id, UserMin)
	}
	if c == nil || name == "" {
		return fmt.Errorf("%w: Register needs a name and a codec", errs.ErrInvalidOption)
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	registry[id] = entry{name, c}
	return nil
}

// Lookup returns the codec registered under id.
func Lookup(id ID) (Codec, error) {
	registryMu.RLock()
	e, ok := registry[id]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w: codec id %d is not registered", ErrUnknown, id)
	}
	return e.codec, nil
}

// LookupBlosc1 returns the codec id as C-Blosc 1.21 runs it for a chunk
// whose blocks are split (split) or not: BloscLZ then makes BloscLZ 2.5.1's
// decisions, whose output differs from the 2.5.3 of [Lookup] (C-Blosc2's);
// the other codecs are those of Lookup. Ids C-Blosc 1.x does not know (it
// has BloscLZ, LZ4, LZ4HC, Snappy, Zlib and Zstd) fail with an error
// wrapping ErrUnknown.
func LookupBlosc1(id ID, split bool) (Codec, error) {
	switch id {
	case BloscLZ:
		return blosclz1Codec{split: split}, nil
	case LZ4, LZ4HC, Snappy, Zlib, Zstd:
		return Lookup(id)
	}
	return nil, fmt.Errorf("%w: codec %s does not exist in C-Blosc 1.x", ErrUnknown, Name(id))
}

// LookupFast returns the codec id with its encoder chosen for speed in
// Go where ours differ: Zstd then compresses clevels 3-6 with
// klauspost/compress's encoder levels rather than the port of libzstd's
// that [Lookup]'s Zstd writes C-Blosc2's sizes with: 1.6-3 times as fast
// at clevels 3-5, up to 1.5 times larger (shuffled timestamps; 3-8% on
// text and floats); and blocks over 256 KiB at clevel 1 with libzstd
// level 2's parameters rather than level 1's, whose 7-byte matches miss
// text's shorter ones. It is what the root package compresses with under
// CParams.FastZstd. Other ids are those of Lookup; the output is a
// normal stream of the codec either way.
func LookupFast(id ID) (Codec, error) {
	if id == Zstd {
		return zstdCodec{fast: true}, nil
	}
	return Lookup(id)
}

// Name returns the name of the codec registered under id ("blosclz", "lz4",
// ...), or a numeric placeholder.
func Name(id ID) string {
	registryMu.RLock()
	e, ok := registry[id]
	registryMu.RUnlock()
	if !ok {
		return fmt.Sprintf("codec-%d", id)
	}
	return e.name
}

// ByName returns the id of the codec registered under name.
func ByName(name string) (ID, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	for id, e := range registry {
		if e.name == name {
			return id, true
		}
	}
	return 0, false
}

// Geometry is the shape of the blocks of an N-dimensional array, as the b2nd
// metalayer of a frame gives it. Codecs and filters that work on
// N-dimensional cells (ZFP, NDLZ, NDCELL, NDMEAN) need it; C-Blosc2's
// plugins read it from the super-chunk, and so must the caller here (the
// b2nd package does).
type Geometry struct {
	// BlockShape is the extent of a block in each dimension, the last
	// varying fastest (C order). Its product times the typesize is the
	// chunk's block size.
	BlockShape []int
}

// ShapedCodec is implemented by codecs that need the block geometry and the
// element size. The chunk pipeline calls these methods instead of Compress
// and Decompress when it has a Geometry; their plain methods fail with an
// error wrapping [ErrNoGeometry].
type ShapedCodec interface {
	Codec
	CompressShaped(dst, src []byte, clevel int, meta uint8, typesize int, g *Geometry) (int, error)
	DecompressShaped(dst, src []byte, meta uint8, typesize int, g *Geometry) (int, error)
}

// ErrNoGeometry reports a codec or filter that needs a block geometry (a
// b2nd array) used without one, as C-Blosc2 refuses a frame without the
// b2nd metalayer. It wraps the root package's ErrUnsupported.
var ErrNoGeometry = fmt.Errorf("%w: needs the block shape of a b2nd array (no b2nd metalayer)", errs.ErrUnsupported)

// NeedsGeometry reports whether the codec registered under id is a
// [ShapedCodec].
func NeedsGeometry(id ID) bool {
	c, err := Lookup(id)
	if err != nil {
		return false
	}
	_, ok := c.(ShapedCodec)
	return ok
}
