package testvec

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// PluginVector is one line of testdata/plugins/manifest.jsonl: a b2nd array
// C-Blosc2 3.3.2 wrote with one of its plugin codecs or filters, and the
// digest of what C-Blosc2 decodes it to (b2nd_to_cbuffer, C order).
type PluginVector struct {
	File       string  `json:"file"`
	DType      string  `json:"dtype"` // f4, f8, i1…i8, u1…u8
	Shape      []int64 `json:"shape"`
	ChunkShape []int32 `json:"chunkshape"`
	BlockShape []int32 `json:"blockshape"`
	Codec      int     `json:"codec"`
	CodecMeta  int     `json:"codec_meta"`
	Filter     int     `json:"filter"` // in slot 5; 0 for none
	FilterMeta int     `json:"filter_meta"`
	Data       string  `json:"data"` // smooth, noisy, const, nanf (NaN and ±Inf), ramp
	Clevel     int     `json:"clevel"`
	RawLen     int     `json:"raw_len"`
	RawSHA256  string  `json:"raw_sha256"`
}

// PluginDir is the directory of the plugin vectors.
func PluginDir() string { return filepath.Join(Root(), "testdata", "plugins") }

// Path is the vector file's path.
func (v *PluginVector) Path() string { return filepath.Join(PluginDir(), v.File) }

// LoadPlugins reads the plugin vectors' manifest.
func LoadPlugins(tb testing.TB) []PluginVector {
	tb.Helper()
	f, err := os.Open(filepath.Join(PluginDir(), "manifest.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var vs []PluginVector
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var v PluginVector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatal(err)
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(vs) == 0 {
		tb.Fatal("no plugin vectors")
	}
	return vs
}
