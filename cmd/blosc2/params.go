package main

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/stream"
)

// filterList is the repeatable --filter NAME[:META] flag.
type filterList []blosc2.Filter

var filterNames = map[string]blosc2.FilterID{
	"nofilter": blosc2.NoFilter, "shuffle": blosc2.Shuffle, "bitshuffle": blosc2.BitShuffle,
	"delta": blosc2.Delta, "truncprec": blosc2.TruncPrec, "bytedelta": blosc2.ByteDelta,
	"ndcell": blosc2.NDCell, "ndmean": blosc2.NDMean, "int_trunc": blosc2.IntTrunc,
}

func (f *filterList) String() string {
	var s []string
	for _, x := range *f {
		s = append(s, filterString(x))
	}
	return strings.Join(s, ",")
}

func filterString(f blosc2.Filter) string {
	name := strconv.Itoa(int(f.ID))
	for n, id := range filterNames {
		if id == f.ID {
			name = n
		}
	}
	if f.Meta != 0 {
		if f.ID == blosc2.TruncPrec || f.ID == blosc2.IntTrunc || f.ID == blosc2.NDMean {
			return fmt.Sprintf("%s:%d", name, int8(f.Meta))
		}
		return fmt.Sprintf("%s:%d", name, f.Meta)
	}
	return name
}

func (f *filterList) Set(s string) error {
	name, meta, hasMeta := strings.Cut(s, ":")
	id, ok := filterNames[strings.ToLower(name)]
	if !ok {
		n, err := strconv.Atoi(name)
		if err != nil || n < 0 || n > 255 {
			return fmt.Errorf("unknown filter %q", name)
		}
		id = blosc2.FilterID(n)
	}
	var m uint8
	if hasMeta {
		n, err := strconv.Atoi(meta)
		if err != nil || n < -128 || n > 255 {
			return fmt.Errorf("bad filter meta %q", meta)
		}
		m = uint8(n) // negative values (truncprec) are stored as int8
	}
	if len(*f) == blosc2.MaxFilters {
		return fmt.Errorf("at most %d filters", blosc2.MaxFilters)
	}
	*f = append(*f, blosc2.Filter{ID: id, Meta: m})
	return nil
}

// cflags are the compression flags shared by compress and bench.
type cflags struct {
	codec     string
	clevel    int
	typesize  int
	filters   filterList
	blocksize int
	splitmode string
	threads   int
	dict      bool
	tier      string
	fs        *flag.FlagSet // to tell the flags given from defaults
}

func (c *cflags) register(fs *flag.FlagSet) {
	c.fs = fs
	fs.StringVar(&c.tier, "tier", "", "automatic mode, the default unless both --codec and --filter are given: per chunk, the filters, typesize and block size a probe of the chunk finds best, at speed tier fastest, default, better or best (-1…-9 pick it: 1-2 fastest, 3-5 default, 6-7 better, 8-9 best); --codec, --clevel, --filter and --blocksize stay fixed when given, --typesize is a hint; off: C-Blosc2's fixed defaults (blosclz 5, typesize 8, shuffle)")
	fs.StringVar(&c.codec, "codec", "blosclz", "codec NAME[:META]: blosclz, lz4, lz4hc, zlib, zstd; snappy (--format blosc1 only); for b2nd arrays (--shape): "+
		"zfp_acc:K (error within 10^K), zfp_prec:P, zfp_rate:PERCENT (of the raw size), ndlz:4 or ndlz:8 (|u1 2-D)")
	c.clevel, c.typesize = 5, 8
	fs.IntVar(&c.clevel, "clevel", 5, "compression level 0-9")
	fs.IntVar(&c.typesize, "typesize", 8, "element size in bytes, 1-255")
	fs.Var(&c.filters, "filter", "filter NAME[:META], repeatable, applied in order (nofilter shuffle bitshuffle delta truncprec bytedelta int_trunc, and for b2nd arrays ndcell ndmean, or an id); default shuffle")
	fs.Var((*sizeValue)(&c.blocksize), "blocksize", "block size in bytes, e.g. 32KiB (0: automatic)")
	fs.StringVar(&c.splitmode, "splitmode", "forward", "always, never, auto or forward")
	fs.IntVar(&c.threads, "threads", 0, "goroutines compressing (0: one per CPU, at most 8)")
	fs.BoolVar(&c.dict, "dict", false, "build a dictionary per chunk (lz4, lz4hc, zstd)")
}

var splitModes = map[string]blosc2.SplitMode{
	"always": blosc2.SplitAlways, "never": blosc2.SplitNever,
	"auto": blosc2.SplitAuto, "forward": blosc2.SplitForward,
}

// params checks the flags' ranges and returns the chunk parameters.
func (c *cflags) params() (blosc2.CParams, error) {
	switch {
	case c.clevel < 0 || c.clevel > 9:
		return blosc2.CParams{}, fmt.Errorf("--clevel %d outside 0-9", c.clevel)
	case c.typesize < 1 || c.typesize > 255:
		return blosc2.CParams{}, fmt.Errorf("--typesize %d outside 1-255", c.typesize)
	case c.blocksize < 0 || c.blocksize > blosc2.MaxBufferSize:
		return blosc2.CParams{}, fmt.Errorf("--blocksize %d outside 0-%d (0: automatic)", c.blocksize, blosc2.MaxBufferSize)
	case c.threads < 0:
		return blosc2.CParams{}, fmt.Errorf("--threads %d is negative (0: one per CPU, N: N goroutines)", c.threads)
	}
	name, metaStr, hasMeta := strings.Cut(c.codec, ":")
	id, ok := codec.ByName(strings.ToLower(name))
	if !ok {
		return blosc2.CParams{}, fmt.Errorf("unknown codec %q", name)
	}
	var meta uint8
	switch {
	case hasMeta:
		n, err := strconv.Atoi(metaStr)
		if err != nil || n < -128 || n > 255 {
			return blosc2.CParams{}, fmt.Errorf("bad codec meta %q", metaStr)
		}
		meta = uint8(n) // negative values (zfp_acc) are stored as int8
	case id == codec.NDLZ:
		meta = 4
	case id == codec.ZFPAccuracy || id == codec.ZFPPrecision || id == codec.ZFPRate:
		return blosc2.CParams{}, fmt.Errorf("codec %s needs its meta: zfp_acc:K (error within 10^K), zfp_prec:P, zfp_rate:PERCENT", name)
	}
	sm, ok := splitModes[strings.ToLower(c.splitmode)]
	if !ok {
		return blosc2.CParams{}, fmt.Errorf("unknown split mode %q", c.splitmode)
	}
	filters := []blosc2.Filter(c.filters)
	if filters == nil && !codec.NeedsGeometry(id) {
		// ZFP and NDLZ read the values themselves: no default shuffle.
		filters = []blosc2.Filter{{ID: blosc2.Shuffle}}
	}
	return blosc2.CParams{
		Codec:       id,
		CodecMeta:   meta,
		Level:       c.clevel,
		TypeSize:    c.typesize,
		Filters:     blosc2.Pipeline(filters...),
		BlockSize:   c.blocksize,
		SplitMode:   sm,
		Concurrency: threadCount(c.threads),
		UseDict:     c.dict,
	}, nil
}

var tierNames = map[string]blosc2.Tier{
	"fastest": blosc2.TierFastest, "default": blosc2.TierDefault,
	"better": blosc2.TierBetter, "best": blosc2.TierBest,
}

// given reports whether flag name was on the command line.
func (c *cflags) given(name string) bool {
	found := false
	if c.fs != nil {
		c.fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	}
	return found
}

// auto returns the automatic mode the flags ask for, or nil. It is on by
// default where supported (frames of the stream package, single chunks),
// unless --tier off, or both --codec and --filter are given (the user
// then chose the parameters). A level shortcut (-1 … -9, --fast, --best)
// picks the tier; the parameters named by flags are fixed.
func (c *cflags) auto(supported bool) (*blosc2.Auto, error) {
	name := strings.ToLower(c.tier)
	if name == "off" || !supported && name == "" {
		return nil, nil
	}
	if !supported {
		return nil, fmt.Errorf("--tier works with --format cframe or chunk")
	}
	if name == "" {
		if c.given("codec") && c.given("filter") {
			return nil, nil
		}
		name = "default"
	}
	t, ok := tierNames[name]
	if !ok {
		return nil, fmt.Errorf("unknown tier %q (fastest, default, better, best, off)", c.tier)
	}
	p, err := c.params()
	if err != nil {
		return nil, err
	}
	a := &blosc2.Auto{Tier: t, Base: p}
	for l := 1; l <= 9; l++ {
		if c.given(fmt.Sprint(l)) {
			a.Tier = blosc2.TierFromLevel(c.clevel)
		}
	}
	if c.given("fast") || c.given("best") {
		a.Tier = blosc2.TierFromLevel(c.clevel)
	}
	for name, fix := range map[string]blosc2.Fixed{
		"codec": blosc2.FixCodec, "clevel": blosc2.FixLevel, "filter": blosc2.FixFilters, "blocksize": blosc2.FixBlockSize,
	} {
		if c.given(name) && (name != "blocksize" || c.blocksize != 0) {
			a.Fixed |= fix
		}
	}
	if !c.given("typesize") {
		a.Base.TypeSize = 0
	}
	if _, err := blosc2.ChooseCParams(nil, a); err != nil {
		return nil, err
	}
	return a, nil
}

// threadCount turns --threads 0 into one goroutine per CPU, at most
// stream.MaxConcurrency.
func threadCount(n int) int {
	if n <= 0 {
		return min(runtime.GOMAXPROCS(0), stream.MaxConcurrency)
	}
	return n
}
