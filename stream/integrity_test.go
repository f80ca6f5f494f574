package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/framewriter"
)

// decoders are every way of decoding a whole frame (or concatenation) in
// memory: through the index (DecodeAll), front to back from a plain
// io.Reader at one and two goroutines, and framereader's ReadAt.
var decoders = map[string]func([]byte) ([]byte, error){
	"DecodeAll": func(b []byte) ([]byte, error) { return DecodeAll(b, nil, WithMaxMemory(1<<22)) },
	"sequential": func(b []byte) ([]byte, error) {
		r, err := NewReader(struct{ io.Reader }{bytes.NewReader(b)}, WithReaderConcurrency(1), WithMaxMemory(1<<22))
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return io.ReadAll(r)
	},
	"sequential-2": func(b []byte) ([]byte, error) {
		r, err := NewReader(struct{ io.Reader }{bytes.NewReader(b)}, WithReaderConcurrency(2), WithMaxMemory(1<<22))
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return io.ReadAll(r)
	},
	"framereader": func(b []byte) ([]byte, error) {
		frs, err := framereader.NewReaders(bytes.NewReader(b), int64(len(b)), framereader.WithMaxMemory(1<<22))
		if err != nil {
			return nil, err
		}
		var out []byte
		for _, fr := range frs {
			if fr.Size() > 1<<24 {
				return nil, errors.New("size beyond the data written")
			}
			p := make([]byte, fr.Size())
			if _, err := fr.ReadAt(p, 0); err != nil && err != io.EOF {
				return nil, err
			}
			out = append(out, p...)
		}
		return out, nil
	},
}

// checkDamage decodes a damaged copy with every decoder: each must fail
// or return exactly want. It returns how many decodes failed.
func checkDamage(t *testing.T, what string, damaged, want []byte) int {
	t.Helper()
	failed := 0
	for name, dec := range decoders {
		got, err := dec(damaged)
		if err != nil {
			failed++
			continue
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s, %s: %d bytes decoded without an error, and they differ from the %d written", what, name, len(got), len(want))
		}
	}
	return failed
}

// integrityCases are frames written with the defaults (checksums on):
// several codecs, small and large, a concatenation with an unpatched
// frame, an appended file, incompressible data (memcpy chunks).
func integrityCases(t *testing.T) []struct {
	name        string
	frame, data []byte
	small       bool
} {
	data := testData(t)
	noise := make([]byte, 20000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	var cases []struct {
		name        string
		frame, data []byte
		small       bool
	}
	add := func(name string, frame, raw []byte, small bool) {
		cases = append(cases, struct {
			name        string
			frame, data []byte
			small       bool
		}{name, frame, raw, small})
	}
	for _, c := range []struct {
		name string
		id   codec.ID
	}{{"blosclz", blosc2.BloscLZ}, {"lz4", blosc2.LZ4}, {"zstd", blosc2.Zstd}} {
		small, err := EncodeAll(data[:4000], nil, WithCodec(c.id), WithChunkSize(1500))
		if err != nil {
			t.Fatal(err)
		}
		add("small-"+c.name, small, data[:4000], true)
		large, err := EncodeAll(data[:150000], nil, WithCodec(c.id), WithChunkSize(16384))
		if err != nil {
			t.Fatal(err)
		}
		add("large-"+c.name, large, data[:150000], false)
	}
	memcpy, _ := EncodeAll(noise[:3000], nil, WithChunkSize(1000))
	add("small-memcpy", memcpy, noise[:3000], true)
	zeros, _ := EncodeAll(make([]byte, 5000), nil, WithChunkSize(1000))
	add("small-zero-specials", zeros, make([]byte, 5000), true)
	pipe := unpatchedFrame(t, data[4000:6000], WithCodec(blosc2.LZ4), WithChunkSize(700))
	first, _ := EncodeAll(data[:2000], nil, WithChunkSize(900))
	add("small-concatenation", append(append([]byte(nil), first...), pipe...), append(append([]byte(nil), data[:2000]...), data[4000:6000]...), true)

	// A file appended to by a second session (framewriter.Append).
	path := filepath.Join(t.TempDir(), "appended.b2frame")
	w, err := framewriter.Create(path, framewriter.WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	w.WriteChunk(data[:1000])
	w.WriteChunk(data[1000:2000])
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w, err = framewriter.Append(path, framewriter.WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	w.WriteChunk(data[2000:3000])
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	appended, _ := os.ReadFile(path)
	add("small-appended", appended, data[:3000], true)
	return cases
}

// TestDamagedFramesNeverDecodeWrong flips every bit of small frames and
// 2,000 random bits of large ones, and zeroes 64-byte runs: every decode
// fails or returns exactly the bytes written, never other bytes with a nil
// error. Without checksums (WithoutChecksums), the same flips do decode
// to wrong bytes, which is what the checksums are for.
func TestDamagedFramesNeverDecodeWrong(t *testing.T) {
	if testing.Short() {
		t.Skip("flips every bit of several frames: seconds; run without -short")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range integrityCases(t) {
		for name, dec := range decoders {
			if got, err := dec(c.frame); err != nil || !bytes.Equal(got, c.data) {
				t.Fatalf("%s, %s: the undamaged frame: %v", c.name, name, err)
			}
		}
		var bits []int
		if c.small {
			for i := range 8 * len(c.frame) {
				bits = append(bits, i)
			}
		} else {
			for range 2000 {
				bits = append(bits, rng.IntN(8*len(c.frame)))
			}
		}
		damaged := bytes.Clone(c.frame)
		failed, total := 0, 0
		for _, bit := range bits {
			damaged[bit/8] ^= 1 << (bit % 8)
			failed += checkDamage(t, fmt.Sprintf("%s, bit %d flipped", c.name, bit), damaged, c.data)
			total += len(decoders)
			damaged[bit/8] ^= 1 << (bit % 8)
		}
		step := 7
		if !c.small {
			step = len(c.frame)/300 + 1
		}
		for off := 0; off < len(c.frame); off += step {
			copy(damaged, c.frame)
			clear(damaged[off:min(off+64, len(damaged))])
			failed += checkDamage(t, fmt.Sprintf("%s, 64 zero bytes at %d", c.name, off), damaged, c.data)
			total += len(decoders)
		}
		t.Logf("%s: %d damaged decodes, %d failed with an error, the others returned the original", c.name, total, failed)
	}
}

// TestChecksumErrors: a damaged chunk is reported with ErrChecksum naming
// the chunk; a frame without checksums decodes damaged chunks to wrong
// bytes (so the checksums, not luck, catch them).
func TestChecksumErrors(t *testing.T) {
	data := testData(t)[:40000]
	for _, sums := range []bool{true, false} {
		var opts []WriterOption
		if !sums {
			opts = append(opts, WithoutChecksums())
		}
		// Level 0 stores the chunks as they are: a flipped bit in one
		// decodes fine, to a different byte.
		frame, err := EncodeAll(data, nil, append(opts, WithLevel(0), WithChunkSize(10000))...)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := framereader.NewReaderBytes(frame)
		ci, _ := r.ChunkInfo(2)
		damaged := bytes.Clone(frame)
		damaged[int64(r.Info().HeaderLen)+ci.Entry+100] ^= 0x10
		for name, dec := range decoders {
			got, err := dec(damaged)
			switch {
			case sums && (!errors.Is(err, blosc2.ErrChecksum) || !bytes.Contains([]byte(err.Error()), []byte("chunk 2"))):
				t.Fatalf("%s: %v, want ErrChecksum naming chunk 2", name, err)
			case !sums && (err != nil || bytes.Equal(got, data)):
				t.Fatalf("%s without checksums: %v (the flip should go unseen)", name, err)
			}
		}
		if want := map[bool]string{true: "crc32c", false: "none"}[sums]; r.Checksums() != want {
			t.Fatalf("Checksums() = %q, want %q", r.Checksums(), want)
		}
	}
}

// TestDamagedSparseFrame flips every bit of every file of a small sparse
// frame (its chunks.b2frame and chunk files): reading it fails or returns
// exactly the bytes written.
func TestDamagedSparseFrame(t *testing.T) {
	if testing.Short() {
		t.Skip("13,000 damaged reads: seconds; run without -short")
	}
	data := testData(t)[:3000]
	dir := filepath.Join(t.TempDir(), "s.b2frame")
	w, err := framewriter.CreateSparse(dir, framewriter.WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(data); i += 1000 {
		if err := w.WriteChunk(data[i : i+1000]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	read := func() ([]byte, error) {
		r, err := framereader.Open(dir)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		if r.Size() > 1<<20 {
			return nil, errors.New("size beyond what was written")
		}
		p := make([]byte, r.Size())
		if _, err := r.ReadAt(p, 0); err != nil && err != io.EOF {
			return nil, err
		}
		return p, nil
	}
	if got, err := read(); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("undamaged: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	failed, total := 0, 0
	for _, name := range files {
		orig, _ := os.ReadFile(name)
		b := bytes.Clone(orig)
		for bit := range 8 * len(b) {
			b[bit/8] ^= 1 << (bit % 8)
			os.WriteFile(name, b, 0o644)
			got, err := read()
			if err == nil && !bytes.Equal(got, data) {
				t.Fatalf("%s, bit %d flipped: wrong bytes without an error", filepath.Base(name), bit)
			}
			if err != nil {
				failed++
			}
			total++
			b[bit/8] ^= 1 << (bit % 8)
		}
		os.WriteFile(name, orig, 0o644)
	}
	t.Logf("%d damaged reads of %d files, %d failed, the others returned the original", total, len(files), failed)
}

// TestDamagedFingerprintKeepsVerifying damages the trailer's fingerprint
// as well as a byte of the first chunk: a fingerprint flipped to C-Blosc2's
// type 0, one of no known type, and one zeroed whole (C-Blosc2's own
// trailer, the sizes unchanged). Verification must stay on: every decode
// fails. With only the fingerprint zeroed, every decode succeeds.
func TestDamagedFingerprintKeepsVerifying(t *testing.T) {
	// Incompressible data: its chunks are stored as they are, so a flipped
	// byte decodes, without the checksums, to a wrong byte and no error.
	data := make([]byte, 4000)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	frame, err := EncodeAll(data, nil, WithCodec(blosc2.LZ4), WithChunkSize(1500))
	if err != nil {
		t.Fatal(err)
	}
	typeAt := len(frame) - 17 // the fixext16's type byte, then 16 bytes
	if frame[typeAt-1] != 0xd8 || frame[typeAt] != 1 {
		t.Fatalf("no fingerprint of type 1 at %d: % x", typeAt, frame[typeAt-1:])
	}
	fr, err := framereader.NewReader(bytes.NewReader(frame), int64(len(frame)))
	if err != nil {
		t.Fatal(err)
	}
	at, ok := fr.ChunkOffset(0)
	if !ok {
		t.Fatal("chunk 0 is not stored")
	}
	chunkByte := int(at) + 40 // inside chunk 0, past its 32-byte header
	for _, c := range []struct {
		name   string
		damage func(b []byte)
	}{
		{"type flipped to 0", func(b []byte) { b[typeAt] ^= 1 }},
		{"unknown type", func(b []byte) { b[typeAt] ^= 0xff }},
		{"zeroed", func(b []byte) { clear(b[typeAt:]) }},
	} {
		fpOnly := bytes.Clone(frame)
		c.damage(fpOnly)
		both := bytes.Clone(fpOnly)
		both[chunkByte] ^= 0x10
		if failed := checkDamage(t, c.name+" and chunk 0", both, data); failed != len(decoders) {
			t.Errorf("%s and a chunk byte: %d of %d decoders failed, want all", c.name, failed, len(decoders))
		}
		failed := checkDamage(t, c.name, fpOnly, data)
		if c.name == "zeroed" && failed != 0 {
			t.Errorf("C-Blosc2's trailer over intact chunks: %d decoders failed", failed)
		}
	}
}
