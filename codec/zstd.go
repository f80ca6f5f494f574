package codec

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/blosc2go/blosc2/codec/internal/zdec"
	"github.com/blosc2go/blosc2/codec/internal/zenc"
	"github.com/klauspost/compress/zstd"
)

// zdec decodes zstd streams where its sequences run in assembly
// (zdec.Accelerated: amd64 with BMI2). There it decodes zenc's (and so
// libzstd's) frames of the project's data, the first MiB of each file
// unshuffled and shuffled at its element size, in 128 KiB blocks at
// levels 1, 5 and 13, at 1.31 times klauspost's speed (the median of
// 126 sets of streams; 0.80-25 times, the most on runs at short
// offsets, which klauspost's sequence executor copies a byte at a
// time; below 0.99 only unshuffled 8-byte integers, 0.80-0.98, one
// short match and one literal per value). Elsewhere zdec is Go
// alone, and decodes only streams that compress zdecMinRatio:1 or
// better, those runs, where it was 2-13 times as fast as klauspost
// while klauspost's assembly decoded the others 1.1-3.7 times as fast
// (measured on the project's data at zstd levels 1-17, 32 and 256 KiB
// blocks, shuffled and not; no stream of it lies between 12.2:1 and
// 18:1).
const zdecMinRatio = 16

var zdecPool = sync.Pool{New: func() any { return new(zdec.Decoder) }}

// zstd is compressed by zenc, our port of libzstd 1.5.6's compressor,
// at every level (C-Blosc2's clevels 1-9), whose frames are the size of
// libzstd's (at clevels 4 and 5 blocks of 128-256 KiB take libzstd's
// parameters for larger inputs, faster on text and smaller; zenc's
// paramsFor): klauspost's are 3-8% larger on C-Blosc2's blocks of
// shuffled floats and float64 values, 4-5% on logs, 1.3-1.5 times on
// shuffled timestamps, and at clevel 9 (libzstd's btultra2) 1.01-2.1
// times. One core, on C-Blosc2's blocks, zenc runs at 0.42-1.43 of
// libzstd 1.5.6's speed at levels 1-15 (most levels and data 0.6-0.9;
// README, Benchmarks); C-Blosc2's stream is slower than its codec,
// building its super-chunk. Dictionaries, inputs over 128 MiB and, at
// clevel 9, blocks of 16 MiB or more (where zenc's tables would pass
// 256 MB, as libzstd's do) stay with klauspost.
//
// Against klauspost's levels, the Go peers the automatic mode's tiers
// are measured against: at levels 1 and 3 zenc is about as fast as
// SpeedFastest and SpeedDefault (0.5-1.1), but at levels 5-9
// SpeedDefault and SpeedBetterCompression are 1.6-3 times as fast. At
// level 11 (clevel 6) zenc is faster than SpeedBestCompression on 512
// KiB blocks (1.2-4 times), but not on the automatic best tier's 4 MiB
// blocks of text, its tables outgrowing the caches: through that tier,
// 0.31-1.1 of SpeedBestCompression's speed on the Silesia texts, CSV and
// logs, at ratios up to 12% higher. The codec of LookupFast (the root
// package's CParams.FastZstd, which the automatic mode sets) leaves
// levels 5-11 to klauspost.
const fastMinLevel, fastMaxLevel = 5, 11

// fastLevel1Max: LookupFast's codec compresses a block of more than
// this at clevel 1 with libzstd level 2's parameters, not level 1's.
// Both are libzstd's fast strategy, but level 1's row for inputs over
// 256 KiB is tuned for long streams: a 7-byte minimum match, which
// misses English text's and float64 values' 6-byte matches. Level 2's
// (6 bytes, a 64 Ki-entry table, a 1 MiB window) compress the
// automatic fastest tier's 1 MiB blocks of dickens and of the
// CloudWatch values 10% smaller, of the Silesia nci and the machine
// temperature CSV 2-4% larger, the logs, other CSV and XML within 1%,
// at 0.75-1.0 of level 1's speed: every text file of the project's
// data then compresses to at least 0.97 of klauspost's SpeedFastest
// ratio, whose window is the whole stream, where level 1 left dickens
// at 0.95 (the README's table). Blocks up to 256 KiB, as the default
// tier's, keep level 1's row, which has the 6-byte minimum already.
const fastLevel1Max = 256 << 10

var zencPool = sync.Pool{New: func() any { return new(zenc.Encoder) }}

// zstdCodec is Zstandard (id 5): one zstd frame per Blosc stream, without
// checksum. C-Blosc2 maps clevel c to zstd level 2c-1 (22 for clevel 9);
// klauspost/compress has four encoder levels, chosen from that zstd level.
// fast leaves zstd levels fastMinLevel-fastMaxLevel to klauspost, and
// compresses clevel 1's blocks over fastLevel1Max at zstd level 2
// (LookupFast).
type zstdCodec struct{ fast bool }

// zstdLevel is C-Blosc2's clevel → zstd level mapping (blosc/blosc2.c, zstd_wrap_compress).
func zstdLevel(clevel int) int {
	if clevel >= 9 {
		return 22
	}
	return 2*clevel - 1
}

var (
	zstdEncOnce [10]sync.Once
	zstdEnc     [10]*zstd.Encoder
	zstdEncErr  [10]error

	zstdDecOnce sync.Once
	zstdDec     *zstd.Decoder
	zstdDecErr  error
)

func zstdOptions(clevel int) []zstd.EOption {
	return []zstd.EOption{
		zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(zstdLevel(clevel))),
		// libzstd entropy-codes the literals of a block without matches
		// at every level; klauspost/compress skips that below
		// SpeedBetterCompression, which left shuffled float blocks (ERA5
		// grids, zstd 1 + shuffle: python-blosc2's default) 5–8% larger
		// than C-Blosc2's.
		zstd.WithAllLitEntropyCompression(true),
		zstd.WithEncoderCRC(false),
		zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)),
		zstd.WithZeroFrames(true),
	}
}

func zstdEncoder(clevel int) (*zstd.Encoder, error) {
	clevel = min(max(clevel, 1), 9)
	zstdEncOnce[clevel].Do(func() {
		zstdEnc[clevel], zstdEncErr[clevel] = zstd.NewWriter(nil, zstdOptions(clevel)...)
	})
	return zstdEnc[clevel], zstdEncErr[clevel]
}

// maxBlockSize bounds what any stream can decode to (C-Blosc2's
// BLOSC2_MAXBLOCKSIZE); the shared decoder refuses frames that declare more.
const maxBlockSize = 536866816

func newZstdDecoder(opts ...zstd.DOption) (*zstd.Decoder, error) {
	opts = append([]zstd.DOption{
		zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)),
		zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(maxBlockSize),
	}, opts...)
	return zstd.NewReader(nil, opts...)
}

// zstdDict holds the encoder and decoder built for one dictionary.
type zstdDict struct {
	once sync.Once
	enc  *zstd.Encoder
	dec  *zstd.Decoder
	err  error
}

// Chunks of one frame usually carry different dictionaries, but all the
// blocks of one chunk share one: a few recent dictionaries are kept so that
// they are digested once per chunk, not once per stream.
var zstdDicts struct {
	sync.Mutex
	keys []string
	m    map[string]*zstdDict
}

const zstdDictCacheSize = 8

func zstdForDict(d []byte, clevel int) *zstdDict {
	zstdDicts.Lock()
	if zstdDicts.m == nil {
		zstdDicts.m = make(map[string]*zstdDict)
	}
	e := zstdDicts.m[string(d)]
	if e == nil {
		if len(zstdDicts.keys) >= zstdDictCacheSize {
			delete(zstdDicts.m, zstdDicts.keys[0])
			zstdDicts.keys = zstdDicts.keys[1:]
		}
		e = new(zstdDict)
		k := string(d)
		zstdDicts.m[k] = e
		zstdDicts.keys = append(zstdDicts.keys, k)
	}
	zstdDicts.Unlock()
	e.once.Do(func() {
		var dopt zstd.DOption
		var eopt zstd.EOption
		if isZstdDict(d) {
			dopt, eopt = zstd.WithDecoderDicts(d), zstd.WithEncoderDict(d)
		} else {
			// Raw-content dictionary, as libzstd's ZSTD_createDDict accepts.
			dopt, eopt = zstd.WithDecoderDictRaw(0, d), zstd.WithEncoderDictRaw(0, d)
		}
		if e.dec, e.err = newZstdDecoder(dopt); e.err != nil {
			return
		}
		// C-Blosc2 compresses with a dictionary at zstd level 1 whatever
		// the clevel (blosc/blosc2.c, zstd_wrap_compress).
		e.enc, e.err = zstd.NewWriter(nil, append(zstdOptions(1), eopt)...)
	})
	return e
}

func (c zstdCodec) Compress(dst, src []byte, clevel int, _ uint8, d []byte) (int, error) {
	var enc *zstd.Encoder
	if len(d) > 0 {
		e := zstdForDict(d, clevel)
		if e.err != nil {
			return 0, fmt.Errorf("%w: zstd: %v", ErrDict, e.err)
		}
		enc = e.enc
	} else {
		if level := zstdLevel(min(max(clevel, 1), 9)); !c.fast || level < fastMinLevel || level > fastMaxLevel {
			if c.fast && level == 1 && len(src) > fastLevel1Max {
				level = 2
			}
			ze := zencPool.Get().(*zenc.Encoder)
			out, err := ze.EncodeAll(dst[:0:len(dst)], src, level)
			zencPool.Put(ze)
			switch {
			case err == nil:
				return placed(dst, out), nil
			case !errors.Is(err, zenc.ErrUnsupported):
				return 0, fmt.Errorf("zstd: %w", err)
			}
			// Over 128 MiB, or clevel 9 from 16 MiB: klauspost's
			// frames (whose window is then not the whole block).
		}
		var err error
		if enc, err = zstdEncoder(clevel); err != nil {
			return 0, err
		}
	}
	return placed(dst, enc.EncodeAll(src, dst[:0:len(dst)])), nil
}

// placed returns the length of the frame out, which an EncodeAll wrote
// from dst's start, once it is in dst: copied there where EncodeAll grew
// its own buffer on the way (klauspost's encoder, or zenc's raw block
// whose compressed trial outgrew dst); 0 where it does not fit.
func placed(dst, out []byte) int {
	if len(out) > len(dst) || len(out) == 0 {
		return 0 // does not fit
	}
	if &out[0] != &dst[0] {
		copy(dst, out)
	}
	return len(out)
}

func (zstdCodec) Decompress(dst, src []byte, _ uint8, d []byte) (int, error) {
	var dec *zstd.Decoder
	if len(d) > 0 {
		e := zstdForDict(d, 1)
		if e.err != nil {
			return 0, fmt.Errorf("%w: zstd: %v", ErrDict, e.err)
		}
		dec = e.dec
	} else {
		if zdec.Accelerated() || len(dst) >= zdecMinRatio*len(src) {
			zd := zdecPool.Get().(*zdec.Decoder)
			err := zd.DecodeAll(dst, src)
			zdecPool.Put(zd)
			if err == nil {
				return len(dst), nil
			}
			if !errors.Is(err, zdec.ErrUnsupported) {
				return 0, fmt.Errorf("%w: zstd: %v", ErrCorrupt, err)
			}
		}
		zstdDecOnce.Do(func() { zstdDec, zstdDecErr = newZstdDecoder() })
		if zstdDecErr != nil {
			return 0, zstdDecErr
		}
		dec = zstdDec
	}
	out, err := dec.DecodeAll(src, dst[:0:len(dst)])
	if err != nil {
		return 0, fmt.Errorf("%w: zstd: %v", ErrCorrupt, err)
	}
	if len(out) != len(dst) {
		return len(out), fmt.Errorf("%w: zstd stream decodes to %d bytes, want %d", ErrCorrupt, len(out), len(dst))
	}
	if len(out) > 0 && &out[0] != &dst[0] {
		copy(dst, out)
	}
	return len(out), nil
}

// TrainDict builds the chunk's Zstandard dictionary from samples. C-Blosc2
// trains one with libzstd's ZDICT_trainFromBuffer; klauspost's trainer
// iterates over maps and gives different dictionaries from run to run, and
// our chunks must not change from one run to the next. So the dictionary is
// the samples' raw content (up to maxSize), a form libzstd's
// ZSTD_createDDict accepts as well: frames carry no dictionary id.
func (zstdCodec) TrainDict(samples [][]byte, maxSize int) ([]byte, error) {
	raw := make([]byte, 0, maxSize)
	for _, s := range samples {
		raw = append(raw, s[:min(len(s), maxSize-len(raw))]...)
	}
	if len(raw) < 8 || isZstdDict(raw) {
		return nil, nil
	}
	return raw, nil
}

// isZstdDict reports whether d starts with the magic of a structured
// (trained) Zstandard dictionary; anything else is raw content.
func isZstdDict(d []byte) bool {
	return len(d) >= 8 && d[0] == 0x37 && d[1] == 0xa4 && d[2] == 0x30 && d[3] == 0xec
}
