package codec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/pierrec/lz4/v4"
)

// TestLZ4GoldenC compares the encoder with results of lz4 1.10.0's
// LZ4_compress_fast (the LZ4 that C-Blosc2 3.3.2 bundles, built from its
// sources and run on the inputs of blzGoldenInput) for accelerations 1–9
// and several output capacities: size and SHA-256 of the output (0 = C gave
// up), recorded in testdata/lz4_c110.txt.
func TestLZ4GoldenC(t *testing.T) {
	lines, nonzero, limited := 0, 0, 0
	for _, c := range readGolden(t, "testdata/lz4_c110.txt") {
		src := blzGoldenInput(c.input)
		maxout := c.maxout
		switch maxout {
		case -1:
			maxout = len(src)
		case -2:
			maxout = lz4Bound(len(src))
		}
		if maxout < lz4Bound(len(src)) {
			limited++
		}
		dst := make([]byte, maxout)
		got := dst[:lz4Compress(dst, src, c.level)]
		if !c.matches(got) {
			t.Errorf("input %d (%d bytes) acceleration %d maxout %d: got %d bytes, C wrote %d", c.input, len(src), c.level, maxout, len(got), c.size)
		}
		if c.size > 0 {
			nonzero++
			out := make([]byte, len(src))
			if _, err := (lz4Codec{}).Decompress(out, got, 0, nil); err != nil || !bytes.Equal(out, src) {
				t.Errorf("input %d acceleration %d: round trip failed: %v", c.input, c.level, err)
			}
		}
		lines++
	}
	if lines < 1000 || nonzero < lines/2 || limited < lines/2 {
		t.Fatalf("only %d golden lines (%d compressed, %d with limited output)", lines, nonzero, limited)
	}
	t.Logf("%d cases (%d compressed, %d with limited output) identical to C", lines, nonzero, limited)
}

// TestLZ4DictCVector re-encodes every stream of a chunk C-Blosc2 3.3.2
// compressed with LZ4 and a dictionary (clevel 5, 16 KiB blocks of text)
// with that chunk's dictionary: the bytes must be C's. (The dictionary
// itself is not what C meant to write: C writes its size over four of
// the samples before copying them, so our chunks of the same input differ
// from C's there. What is checked here is that the encoder compresses
// against a dictionary exactly as lz4.c's LZ4_loadDict +
// LZ4_compress_fast_continue do.)
func TestLZ4DictCVector(t *testing.T) {
	ch, err := os.ReadFile("../testdata/vectors/chunks/dict-lz4-c5-text.cdata")
	if err != nil {
		t.Fatal(err)
	}
	le32 := func(b []byte) int { return int(int32(binary.LittleEndian.Uint32(b))) }
	flags, nbytes, blocksize := ch[2], le32(ch[4:]), le32(ch[8:])
	if flags&0x10 == 0 || ch[31]&1 == 0 || nbytes%blocksize == 0 {
		t.Fatalf("not an unsplit dictionary chunk with a short last block: flags %#x %#x", flags, ch[31])
	}
	nblocks := nbytes/blocksize + 1
	dpos := 32 + 4*nblocks
	dict := ch[dpos+4 : dpos+4+le32(ch[dpos:])]
	same, intoDict := 0, 0
	for j := range nblocks {
		bsize := blocksize
		if j == nblocks-1 {
			bsize = nbytes % blocksize
		}
		pos := le32(ch[32+4*j:])
		payload := ch[pos+4 : pos+4+le32(ch[pos:])]
		block := make([]byte, bsize)
		if _, err := (lz4Codec{}).Decompress(block, payload, 0, dict); err != nil {
			t.Fatalf("block %d: %v", j, err)
		}
		dst := make([]byte, bsize)
		n, err := lz4Codec{}.Compress(dst, block, 5, 0, dict)
		if err != nil || !bytes.Equal(dst[:n], payload) {
			t.Errorf("block %d: %d bytes, C wrote %d (%v)", j, n, len(payload), err)
			continue
		}
		same++
		if m, _ := (lz4Codec{}).Compress(dst, block, 5, 0, nil); m != n {
			intoDict++
		}
	}
	if intoDict == 0 {
		t.Fatal("no block compressed differently without the dictionary: the test proves nothing")
	}
	t.Logf("%d of %d blocks identical to C's (%d of them reach into the dictionary)", same, nblocks, intoDict)
}

// lz4CheckAgainstPierrec compresses data with acceleration accel into dst
// capacities from tight to the bound and requires the bytes of pierrec/lz4's
// CompressorCCompat, an independent port of the same lz4.c function (tested
// upstream against lz4.c's own output), and a round trip.
func lz4CheckAgainstPierrec(t *testing.T, data []byte, accel int) {
	t.Helper()
	for _, maxout := range []int{lz4Bound(len(data)), len(data), len(data) / 2, len(data)/8 + 16} {
		dst := make([]byte, maxout)
		n := lz4Compress(dst, data, accel)
		var c lz4.CompressorCCompat
		c.Acceleration = accel
		want := make([]byte, maxout)
		m, err := c.CompressBlock(data, want)
		if err != nil {
			m = 0
		}
		if !bytes.Equal(dst[:n], want[:m]) {
			t.Fatalf("%d bytes, acceleration %d, maxout %d: %d bytes, pierrec/lz4 wrote %d", len(data), accel, maxout, n, m)
		}
		if n == 0 {
			continue
		}
		out := make([]byte, len(data))
		if _, err := (lz4Codec{}).Decompress(out, dst[:n], 0, nil); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("%d bytes, acceleration %d: round trip failed: %v", len(data), accel, err)
		}
	}
}

// shuffleBlocks returns data byte-shuffled at element size ts as Blosc
// shuffles it, block by block (the bytes past the last whole element of a
// block stay in place).
func shuffleBlocks(data []byte, ts, blockSize int) []byte {
	out := make([]byte, 0, len(data))
	for off := 0; off < len(data); off += blockSize {
		blk := data[off:min(off+blockSize, len(data))]
		n := len(blk) / ts
		for k := range ts {
			for i := range n {
				out = append(out, blk[i*ts+k])
			}
		}
		out = append(out, blk[n*ts:]...)
	}
	return out
}

// TestLZ4MatchesPierrec runs lz4CheckAgainstPierrec over the shared data's
// files, as they are and shuffled as Blosc shuffles them, in blocks of the
// sizes Blosc gives LZ4: both hash tables (below and above 64 KiB),
// accelerations across C-Blosc2's and the automatic mode's.
func TestLZ4MatchesPierrec(t *testing.T) {
	names := []string{"era_interim_u.f32.bin", "nab_aws_cloudwatch.ts.i64.bin", "loghub_2k_12sources.log",
		"timgm6mb_samples.i16.bin", "silesia_xml"}
	ran := 0
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(sharedDir, "data", name))
		if err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		if testing.Short() {
			data = data[:min(len(data), 1<<20)]
		}
		for _, in := range [][]byte{data, shuffleBlocks(data, 8, 1<<18)} {
			for _, size := range []int{1 << 14, 1<<16 + 10, 1<<16 + 11, 1 << 18} {
				for off := 0; off+size <= len(in); off += 5 * size {
					// 1-9 are C-Blosc2's; 64 the automatic fastest
					// tier's on near-noise (LZ4Accelerated).
					for _, accel := range []int{1, 5, 9, 64} {
						lz4CheckAgainstPierrec(t, in[off:off+size], accel)
						ran++
					}
				}
			}
		}
	}
	// Without the shared data, the golden inputs.
	for i := range 96 {
		lz4CheckAgainstPierrec(t, blzGoldenInput(i), 1+i%9)
		ran++
	}
	t.Logf("%d blocks identical to pierrec/lz4's", ran)
}

// TestLZ4Accelerated: LZ4Accelerated's codec writes, at any clevel, what
// LZ4 writes at its acceleration (pierrec/lz4's bytes, checked above), and
// what C-Blosc2's clevel 1 writes at acceleration 9; an acceleration
// beyond lz4.c's range is clamped as lz4.c clamps it.
func TestLZ4Accelerated(t *testing.T) {
	for i := range 24 {
		src := blzGoldenInput(i)
		dst := make([]byte, lz4Bound(len(src)))
		for _, accel := range []int{-3, 0, 1, 9, 64, MaxLZ4Acceleration, MaxLZ4Acceleration + 1000} {
			want := append([]byte(nil), dst[:lz4Compress(dst, src, min(max(accel, 1), MaxLZ4Acceleration))]...)
			for _, clevel := range []int{1, 5, 9} {
				n, err := LZ4Accelerated(accel).Compress(dst, src, clevel, 0, nil)
				if err != nil || !bytes.Equal(dst[:n], want) {
					t.Fatalf("input %d, acceleration %d, clevel %d: %d bytes (%v), want %d", i, accel, clevel, n, err, len(want))
				}
			}
		}
		n, _ := LZ4Accelerated(9).Compress(dst, src, 5, 0, nil)
		got := append([]byte(nil), dst[:n]...)
		c, _ := Lookup(LZ4)
		if m, _ := c.Compress(dst, src, 1, 0, nil); !bytes.Equal(dst[:m], got) {
			t.Fatalf("input %d: acceleration 9 differs from clevel 1", i)
		}
	}
}

// FuzzLZ4Compress: for any input, acceleration and capacity, the encoder
// writes pierrec/lz4's CompressorCCompat bytes, which decode back; with
// the input's first cut bytes as a dictionary for the rest (pierrec/lz4
// has no compressor with one), what it writes fits and decodes back.
func FuzzLZ4Compress(f *testing.F) {
	f.Add([]byte("The quick brown fox jumps over the lazy dog. The quick brown fox!!"), 1, 20)
	f.Add(bytes.Repeat([]byte{0, 0, 0, 1, 0, 0, 0, 2}, 500), 5, 7)
	f.Add(blzGoldenInput(5), 9, 70000)
	f.Add(blzGoldenInput(10), 3, 3)
	f.Fuzz(func(t *testing.T, data []byte, accel, cut int) {
		accel = int(uint(accel) % 12)
		lz4CheckAgainstPierrec(t, data, accel)
		cut = int(uint(cut) % uint(len(data)+1))
		dict, src := data[:cut], data[cut:]
		for _, maxout := range []int{lz4Bound(len(src)), len(src), len(src) / 2} {
			dst := make([]byte, maxout)
			n := lz4CompressDict(dst, src, dict, accel)
			if n == 0 {
				continue
			}
			out := make([]byte, len(src))
			if _, err := (lz4Codec{}).Decompress(out, dst[:n], 0, dict); err != nil || !bytes.Equal(out, src) {
				t.Fatalf("%d bytes after a %d-byte dictionary, acceleration %d, maxout %d: round trip failed: %v",
					len(src), len(dict), accel, maxout, err)
			}
		}
	})
}

// BenchmarkLZ4 compares the encoder with pierrec/lz4's port of the same
// function on blocks of the shared data (as they are, and byte-shuffled
// at 4), at accelerations 1 and 5 (clevel 9 and 5).
func BenchmarkLZ4(b *testing.B) {
	names := []string{"era_interim_u.f32.bin", "loghub_2k_12sources.log", "nab_aws_cloudwatch.ts.i64.bin"}
	const block = 1 << 16
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(sharedDir, "data", name))
		if err != nil {
			b.Skipf("no shared data: %v", err)
		}
		data = data[:min(len(data), 32*block)]
		for _, in := range []struct {
			name string
			data []byte
		}{{name, data}, {name + "-shuffled", shuffleBlocks(data, 4, len(data))}} {
			for _, accel := range []int{1, 5} {
				dst := make([]byte, block)
				var c lz4.CompressorCCompat
				c.Acceleration = accel
				for _, enc := range []struct {
					name string
					fn   func(blk []byte)
				}{
					{"ours", func(blk []byte) { lz4Compress(dst, blk, accel) }},
					{"pierrec", func(blk []byte) { c.CompressBlock(blk, dst) }},
				} {
					b.Run(fmt.Sprintf("%s/accel=%d/%s", in.name, accel, enc.name), func(b *testing.B) {
						b.SetBytes(int64(len(in.data) / block * block))
						for b.Loop() {
							for off := 0; off+block <= len(in.data); off += block {
								enc.fn(in.data[off : off+block])
							}
						}
					})
				}
			}
		}
	}
}
