package framewriter

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/internal/frame"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// b2c returns the path of the C-Blosc2 3.3.2 reference CLI, or skips.
func b2c(t *testing.T) string { return testvec.B2C(t) }

// b2cPath is where the C-Blosc2 reference CLI is looked for.
func b2cPath() string { return testvec.B2CPath() }

// cInfo is the part of `b2c info` this test reads.
type cInfo struct {
	Kind       string `json:"kind"`
	NChunks    int    `json:"nchunks"`
	ChunkSize  int    `json:"chunksize"`
	Nbytes     int64  `json:"nbytes"`
	Cbytes     int64  `json:"cbytes"`
	FrameLen   int64  `json:"frame_len"`
	Metalayers []struct {
		Name string `json:"name"`
		Hex  string `json:"hex"`
	} `json:"metalayers"`
	VLMetalayers []struct {
		Name string `json:"name"`
		Hex  string `json:"hex"`
	} `json:"vlmetalayers"`
}

// cCheck has C-Blosc2 open path, decode every chunk and report its
// header; the decoded bytes must equal want. It returns C's info, or the
// error text when C refused the frame and wantErr is set.
func cCheck(t *testing.T, path string, want []byte, wantErr bool) (cInfo, string) {
	t.Helper()
	bin := b2c(t)
	var info cInfo
	out, err := exec.Command(bin, "info", path).CombinedOutput()
	if err != nil {
		if wantErr {
			return info, strings.TrimSpace(string(out))
		}
		t.Fatalf("C-Blosc2 cannot open %s: %v\n%s", path, err, out)
	}
	if wantErr {
		t.Fatalf("C-Blosc2 opened %s, expected a refusal", path)
	}
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatalf("b2c info: %v\n%s", err, out)
	}
	raw := filepath.Join(t.TempDir(), "raw")
	if out, err := exec.Command(bin, "decompress-frame", path, raw).CombinedOutput(); err != nil {
		t.Fatalf("C-Blosc2 cannot decode %s: %v\n%s", path, err, out)
	}
	got, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("C-Blosc2 decodes %d bytes, want %d (equal prefix %d)", len(got), len(want), firstDiff(got, want))
	}
	return info, ""
}

// TestCInterop writes frames of every layout this package produces and
// has C-Blosc2 3.3.2 open and decode them: fixed and variable chunk sizes
// (format 2 and 3), metalayers and vlmetalayers, special chunks as index
// entries and stored, FillSpecial, VL-block chunks, empty frames, sparse
// frames. A frame written to a pipe must be refused until repaired.
func TestCInterop(t *testing.T) {
	b2c(t)
	for _, c := range rtCases() {
		if !strings.Contains(c.name, "-f1-") && !strings.Contains(c.name, "-f3-") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			var want []byte
			for _, p := range c.pieces {
				want = append(want, p.expected(c.cp.TypeSize)...)
			}
			path := filepath.Join(t.TempDir(), "f.b2frame")
			w, err := Create(path, c.options()...)
			if err != nil {
				t.Fatal(err)
			}
			c.write(t, w)
			info, _ := cCheck(t, path, want, false)
			if info.NChunks != len(c.pieces) || info.Nbytes != int64(len(want)) {
				t.Fatalf("C sees %d chunks, %d bytes", info.NChunks, info.Nbytes)
			}
			// C-Blosc2 sees the checksum record as one more vlmetalayer.
			if len(info.Metalayers) != len(c.metas) || len(info.VLMetalayers) != len(c.vlmetas)+1 ||
				info.VLMetalayers[len(c.vlmetas)].Name != frame.ChecksumsName {
				t.Fatalf("C sees metalayers %v, vlmetalayers %v", info.Metalayers, info.VLMetalayers)
			}
			for i, m := range c.vlmetas {
				if info.VLMetalayers[i].Name != m[0] || info.VLMetalayers[i].Hex != hex.EncodeToString([]byte(m[1])) {
					t.Fatalf("C reads vlmetalayer %q as %.40s…", m[0], info.VLMetalayers[i].Hex)
				}
			}
			dir := filepath.Join(t.TempDir(), "sf.b2frame")
			w, err = CreateSparse(dir, c.options()...)
			if err != nil {
				t.Fatal(err)
			}
			c.write(t, w)
			info, _ = cCheck(t, dir, want, false)
			if info.Kind != "sframe" || info.NChunks != len(c.pieces) {
				t.Fatalf("C sees %s with %d chunks", info.Kind, info.NChunks)
			}
		})
	}
	t.Run("fill-special-then-append", func(t *testing.T) {
		cp := blosc2.DefaultCParams()
		cp.TypeSize = 4
		path := filepath.Join(t.TempDir(), "fill.b2frame")
		w, err := Create(path, WithCParams(cp), WithoutSync())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.FillSpecial(25000, blosc2.SpecialNaN, 40000); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		want := piece{kind: blosc2.SpecialNaN, n: 100000}.expected(4)
		cCheck(t, path, want, false)
	})
	t.Run("dictionaries", func(t *testing.T) {
		// Chunks with a dictionary: LZ4 streams reach into it (our port
		// of LZ4_compress_fast_continue), zstd ones use it as C does.
		// Text, so that the dictionary pays.
		var text []byte
		for i := 0; len(text) < 300000; i++ {
			text = fmt.Appendf(text, "2026-11-26T10:%02d:%02d host%d GET /api/v1/items/%d status=%d\n",
				i/60%60, i%60, i%7, i*37%1000, []int{200, 404, 500}[i%3])
		}
		for _, id := range []codec.ID{blosc2.LZ4, blosc2.Zstd} {
			cp := blosc2.DefaultCParams()
			cp.Codec, cp.Level, cp.TypeSize, cp.UseDict, cp.BlockSize = id, 5, 1, true, 16384
			cp.Filters = [blosc2.MaxFilters]blosc2.Filter{}
			path := filepath.Join(t.TempDir(), "dict.b2frame")
			w, err := Create(path, WithCParams(cp), WithoutSync())
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off < len(text); off += 100000 {
				if err := w.WriteChunk(text[off:min(off+100000, len(text))]); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			r, err := framereader.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			ci, err := r.ChunkInfo(0)
			r.Close()
			if err != nil || !ci.Header.UseDict() {
				t.Fatalf("%s: the first chunk has no dictionary (%v)", codec.Name(id), err)
			}
			cCheck(t, path, text, false)
		}
	})
	t.Run("zstd-clevels", func(t *testing.T) {
		// Every zstd clevel through each of our encoders (zenc's ports
		// of libzstd's strategies at clevels 1-8, klauspost's at 9 and
		// at 3-6 under FastZstd), on chunks of 1 MiB and 300 KB, both
		// sides of libzstd's 256 KiB parameter class: shuffled
		// timestamps and log lines.
		stamps := make([]byte, 8*170000)
		for i := range len(stamps) / 8 {
			binary.LittleEndian.PutUint64(stamps[8*i:], 1_700_000_000_000+uint64(1000*i+i*i%7))
		}
		var text []byte
		for i := 0; len(text) < len(stamps); i++ {
			text = fmt.Appendf(text, "2026-11-27T09:%02d:%02d host%d GET /api/v1/items/%d status=%d took=%dms\n",
				i/60%60, i%60, i%11, i*37%5000, []int{200, 404, 500}[i%3], i*i%997)
		}
		text = text[:len(stamps)]
		for clevel := 1; clevel <= 9; clevel++ {
			for _, fast := range []bool{false, true} {
				for _, in := range []struct {
					data   []byte
					ts     int
					filter blosc2.FilterID
				}{{stamps, 8, blosc2.Shuffle}, {text, 1, blosc2.NoFilter}} {
					cp := blosc2.DefaultCParams()
					cp.Codec, cp.Level, cp.TypeSize, cp.FastZstd = blosc2.Zstd, clevel, in.ts, fast
					cp.Filters = blosc2.Pipeline(blosc2.Filter{ID: in.filter})
					path := filepath.Join(t.TempDir(), "zstd.b2frame")
					w, err := Create(path, WithCParams(cp), WithoutSync())
					if err != nil {
						t.Fatal(err)
					}
					for off := 0; off < len(in.data); off += 1 << 20 {
						if err := w.WriteChunk(in.data[off:min(off+1<<20, len(in.data))]); err != nil {
							t.Fatal(err)
						}
					}
					if err := w.Close(); err != nil {
						t.Fatal(err)
					}
					cCheck(t, path, in.data, false)
				}
			}
		}
	})
	t.Run("vlblocks", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "vl.b2frame")
		w, err := Create(path, WithoutSync())
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		for i, n := range []int{5000, 5000, 1200} {
			raw := testData(n, uint64(i))
			want = append(want, raw...)
			c, err := blosc2.CompressVL(nil, [][]byte{raw[:n/3], raw[n/3:]}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteCompressedChunk(c); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		cCheck(t, path, want, false)
	})
	t.Run("unpatched-refused", func(t *testing.T) {
		var buf bytes.Buffer
		w, err := NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		raw := testData(20000, 1)
		if err := w.WriteChunk(raw); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "pipe.b2frame")
		os.WriteFile(path, buf.Bytes(), 0o644)
		_, msg := cCheck(t, path, nil, true)
		t.Logf("C-Blosc2 on an unpatched frame: %s", msg)
	})
}
