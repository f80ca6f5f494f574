package framereader

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/internal/testvec"
)

// frameVectors returns every cframe, sframe and b2nd vector with the
// length and digest of its concatenated chunks.
func frameVectors(t *testing.T) []testvec.Vector {
	var out []testvec.Vector
	for _, v := range testvec.Load(t) {
		switch v.Kind {
		case "cframe", "sframe":
			out = append(out, v)
		case "b2nd":
			v.RawLen, v.RawSHA256 = v.Params.FrameRawLen, v.Params.FrameRawSHA
			out = append(out, v)
		}
	}
	return out
}

// TestFrameVectors opens every frame C-Blosc2 wrote (contiguous, sparse,
// b2nd arrays in both, C-Blosc2's compat frames), decodes every chunk and
// compares the digest of the whole with the manifest's, and checks the
// header fields, chunk sizes, metalayers and vlmetalayers it records.
func TestFrameVectors(t *testing.T) {
	n := 0
	for _, v := range frameVectors(t) {
		t.Run(v.File, func(t *testing.T) {
			r, err := Open(v.Path())
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var got []byte
			for i := range r.NumChunks() {
				got, err = r.DecodeChunk(got, i)
				if err != nil {
					t.Fatal(err)
				}
			}
			if len(got) != v.RawLen || testvec.SHA256(got) != v.RawSHA256 {
				t.Fatalf("decoded %d bytes sha %s, want %d %s", len(got), testvec.SHA256(got), v.RawLen, v.RawSHA256)
			}
			checkParams(t, r, &v)
			checkReadAt(t, r, got)
			n++
		})
	}
	t.Logf("%d frame vectors decoded", n)
}

func checkParams(t *testing.T, r *Reader, v *testvec.Vector) {
	t.Helper()
	p := &v.Params
	if p.NChunks != 0 || p.ChunkNbytes != nil {
		if r.NumChunks() != len(p.ChunkNbytes) {
			t.Errorf("%d chunks, manifest %d", r.NumChunks(), len(p.ChunkNbytes))
		}
		for i := range min(r.NumChunks(), len(p.ChunkNbytes)) {
			ci, err := r.ChunkInfo(i)
			if err != nil {
				t.Fatalf("chunk %d: %v", i, err)
			}
			if ci.Nbytes != p.ChunkNbytes[i] {
				t.Errorf("chunk %d: %d bytes, manifest %d", i, ci.Nbytes, p.ChunkNbytes[i])
			}
		}
	}
	var hdr map[string]any
	if len(p.Header) > 0 {
		if err := json.Unmarshal(p.Header, &hdr); err != nil {
			t.Fatal(err)
		}
	}
	in := r.Info()
	want := map[string]int64{
		"header_len": int64(in.HeaderLen), "frame_len": in.FrameLen, "general_flags": int64(in.GeneralFlags),
		"frame_type": int64(r.h.FrameType), "codec_flags": int64(r.h.CodecFlags), "other_flags": int64(r.h.OtherFlags),
		"other_flags2": int64(r.h.OtherFlags2), "uncompressed_size": in.Nbytes, "compressed_size": in.Cbytes,
		"typesize": int64(in.TypeSize), "blocksize": int64(in.BlockSize), "chunksize": int64(in.ChunkSize),
	}
	for k, got := range want {
		if x, ok := hdr[k]; ok {
			if int64(x.(float64)) != got {
				t.Errorf("header %s = %d, manifest %v", k, got, x)
			}
		}
	}
	if x, ok := hdr["has_vlmetalayers"]; ok && x.(bool) != in.HasVLMeta {
		t.Errorf("has_vlmetalayers %v, manifest %v", in.HasVLMeta, x)
	}
	for _, k := range []string{"filters", "filters_meta"} {
		if x, ok := hdr[k]; ok {
			for i, f := range x.([]any) {
				g := int(in.Filters[i].ID)
				if k == "filters_meta" {
					g = int(in.Filters[i].Meta)
				}
				if int(f.(float64)) != g {
					t.Errorf("%s[%d] = %d, manifest %v", k, i, g, f)
				}
			}
		}
	}
	metas := r.Metalayers()
	if v.Kind != "b2nd" && len(metas) != len(p.Metalayers) {
		t.Errorf("%d metalayers, manifest %d", len(metas), len(p.Metalayers))
	}
	for _, m := range p.Metalayers {
		c, ok := r.Metalayer(m.Name)
		if !ok || hex.EncodeToString(c) != m.Hex {
			t.Errorf("metalayer %q = %x (%v), manifest %s", m.Name, c, ok, m.Hex)
		}
	}
	if v.Kind == "b2nd" {
		c, ok := r.Metalayer("b2nd")
		if !ok || hex.EncodeToString(c) != p.B2ndMetaHex {
			t.Errorf("b2nd metalayer %x, manifest %s", c, p.B2ndMetaHex)
		}
		if _, err := r.MetalayerValue("b2nd"); err != nil {
			t.Errorf("b2nd metalayer as msgpack: %v", err)
		}
	}
	names := r.VLMetalayerNames()
	if len(names) != len(p.VLMetalayers) {
		t.Errorf("vlmetalayers %v, manifest %d", names, len(p.VLMetalayers))
	}
	for i, m := range p.VLMetalayers {
		if i < len(names) && names[i] != m.Name {
			t.Errorf("vlmetalayer %d named %q, manifest %q", i, names[i], m.Name)
		}
		c, err := r.VLMetalayer(m.Name)
		if err != nil || string(c) != m.Value {
			t.Errorf("vlmetalayer %q = %q (%v), manifest %q", m.Name, c, err, m.Value)
		}
	}
}

// checkReadAt reads random ranges through ReadAt and compares them with
// the decoded whole; the whole and every range also through
// ReadAtConcurrency, on 1 to 4 goroutines.
func checkReadAt(t *testing.T, r *Reader, want []byte) {
	t.Helper()
	all := make([]byte, len(want))
	n, err := r.ReadAt(all, 0)
	if n != len(want) || (err != nil && err != io.EOF) || !bytes.Equal(all, want) {
		t.Fatalf("ReadAt all: %d, %v, equal %v", n, err, bytes.Equal(all, want))
	}
	for g := 1; g <= 4; g++ {
		clear(all)
		n, err := r.ReadAtConcurrency(all, 0, g)
		if n != len(want) || (err != nil && err != io.EOF) || !bytes.Equal(all, want) {
			t.Fatalf("ReadAtConcurrency all, %d goroutines: %d, %v, equal %v", g, n, err, bytes.Equal(all, want))
		}
	}
	if len(want) == 0 {
		return
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(want))))
	for range 40 {
		off := rng.IntN(len(want))
		ln := rng.IntN(min(len(want)-off, 70000) + 1)
		p := make([]byte, ln)
		n, err := r.ReadAt(p, int64(off))
		if n != ln || (err != nil && !(err == io.EOF && off+ln == len(want))) {
			t.Fatalf("ReadAt(%d, %d): %d, %v", off, ln, n, err)
		}
		if !bytes.Equal(p, want[off:off+ln]) {
			t.Fatalf("ReadAt(%d, %d): wrong bytes", off, ln)
		}
		g := 1 + rng.IntN(4)
		clear(p)
		if n, err := r.ReadAtConcurrency(p, int64(off), g); n != ln || (err != nil && !(err == io.EOF && off+ln == len(want))) || !bytes.Equal(p, want[off:off+ln]) {
			t.Fatalf("ReadAtConcurrency(%d, %d), %d goroutines: %d, %v, equal %v", off, ln, g, n, err, bytes.Equal(p, want[off:off+ln]))
		}
	}
	// Past the end.
	p := make([]byte, 10)
	if n, err := r.ReadAt(p, int64(len(want))); n != 0 || err != io.EOF {
		t.Fatalf("ReadAt at end: %d, %v", n, err)
	}
	if n, err := r.ReadAt(p, int64(len(want)-3)); n != 3 || err != io.EOF {
		t.Fatalf("ReadAt across end: %d, %v", n, err)
	}
}

// TestFrameVectorsBytes opens the contiguous vectors from memory and at
// an offset inside a larger file, with trailing bytes after the frame.
func TestFrameVectorsBytes(t *testing.T) {
	for _, v := range frameVectors(t) {
		if v.Params.Storage == "sframe" || strings.HasSuffix(v.File, ".d") {
			continue
		}
		b := v.Read(t)
		r, err := NewReaderBytes(b)
		if err != nil {
			t.Fatalf("%s: %v", v.File, err)
		}
		got := decodeAll(t, r)
		if testvec.SHA256(got) != v.RawSHA256 {
			t.Fatalf("%s: bytes reader digest differs", v.File)
		}
		// Embedded at offset 16 with 6 trailing bytes.
		f, err := os.CreateTemp(t.TempDir(), "emb")
		if err != nil {
			t.Fatal(err)
		}
		f.Write(bytes.Repeat([]byte{0xAB}, 16))
		f.Write(b)
		f.Write([]byte("tail!!"))
		f.Close()
		r2, err := OpenAt(f.Name(), 16)
		if err != nil {
			t.Fatalf("%s at offset 16: %v", v.File, err)
		}
		if testvec.SHA256(decodeAll(t, r2)) != v.RawSHA256 {
			t.Fatalf("%s: embedded digest differs", v.File)
		}
		r2.Close()
	}
}

func decodeAll(t *testing.T, r *Reader) []byte {
	t.Helper()
	var out []byte
	var err error
	for i := range r.NumChunks() {
		out, err = r.DecodeChunk(out, i)
		if err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
	}
	return out
}

// TestFrameVectorsChunkItems decodes items from the middle of chunks
// through the partial path and compares with the full decode.
func TestFrameVectorsChunkItems(t *testing.T) {
	for _, v := range frameVectors(t) {
		r, err := Open(v.Path())
		if err != nil {
			t.Fatal(err)
		}
		for i := range r.NumChunks() {
			full, err := r.DecodeChunk(nil, i)
			if err != nil {
				t.Fatal(err)
			}
			ci, err := r.ChunkInfo(i)
			if err != nil {
				t.Fatal(err)
			}
			ts := ci.Header.TypeSize
			items := len(full) / ts
			if items < 3 || ci.Header.VLBlocks() {
				continue
			}
			start, n := items/3, items/3
			got, err := r.DecodeChunkItems(nil, i, start, n)
			if err != nil {
				t.Fatalf("%s chunk %d items: %v", v.File, i, err)
			}
			if !bytes.Equal(got, full[start*ts:(start+n)*ts]) {
				t.Fatalf("%s chunk %d: items differ", v.File, i)
			}
		}
		r.Close()
	}
}

var _ = blosc2.ErrCorrupt

// TestAppendChunk checks, on every frame vector (contiguous, sparse,
// implied special chunks), that AppendChunk appends exactly Chunk's bytes
// after what dst holds and fills a recycled buffer in place when it fits.
func TestAppendChunk(t *testing.T) {
	prefix := []byte("kept")
	for _, v := range frameVectors(t) {
		r, err := Open(v.Path())
		if err != nil {
			t.Fatal(err)
		}
		recycled := make([]byte, 0, 1<<20)
		for i := range r.NumChunks() {
			want, err := r.Chunk(i)
			if err != nil {
				t.Fatalf("%s chunk %d: %v", v.File, i, err)
			}
			got, err := r.AppendChunk(append([]byte(nil), prefix...), i)
			if err != nil || !bytes.Equal(got, append(append([]byte(nil), prefix...), want...)) {
				t.Fatalf("%s chunk %d: AppendChunk after a prefix: %v", v.File, i, err)
			}
			c, err := r.AppendChunk(recycled[:0], i)
			if err != nil || !bytes.Equal(c, want) {
				t.Fatalf("%s chunk %d: AppendChunk into a recycled buffer: %v", v.File, i, err)
			}
			if len(want) <= cap(recycled) && &c[0] != &recycled[:1][0] {
				t.Fatalf("%s chunk %d: recycled buffer not reused", v.File, i)
			}
		}
		if _, err := r.AppendChunk(nil, r.NumChunks()); !errors.Is(err, blosc2.ErrInvalidOption) {
			t.Fatalf("%s: chunk past the end: %v", v.File, err)
		}
		r.Close()
	}
}
