package blosc2

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// randBytes returns n bytes from rng, 8 at a time (byte loops are slow
// under the race detector).
func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n+7)
	for i := 0; i < n; i += 8 {
		store64(b, i, rng.Uint64())
	}
	return b[:n:n]
}

// refDeltaEncode follows blosc/delta.c literally, in units of u bytes.
func refDeltaEncode(src, ref []byte, typesize int) []byte {
	u := deltaUnit(typesize)
	out := bytes.Clone(src)
	k := len(src) / u
	for unit := 0; unit < k; unit++ {
		for b := 0; b < u; b++ {
			i := unit*u + b
			switch {
			case ref != nil:
				out[i] = src[i] ^ ref[i]
			case unit > 0:
				out[i] = src[i] ^ src[i-u]
			}
		}
	}
	return out
}

func TestDeltaUnit(t *testing.T) {
	for ts, want := range map[int]int{1: 1, 2: 2, 3: 1, 4: 4, 5: 1, 8: 8, 12: 1, 16: 8, 24: 8, 255: 1, 256: 8} {
		if got := deltaUnit(ts); got != want {
			t.Errorf("deltaUnit(%d) = %d, want %d", ts, got, want)
		}
	}
}

// TestDeltaSpecExample checks a worked example of the DELTA filter
// (blosc/delta.c).
func TestDeltaSpecExample(t *testing.T) {
	b0 := unhex(t, "0a 0b 0d 10 31 72 05 99 aa 01 7f 80 12 34 56 78")
	b0out := unhex(t, "0a 01 06 1d 21 43 77 9c 33 ab 7e ff 92 26 62 2e")
	b1 := unhex(t, "0a 0c 0d 11 31 70 05 98 ab 01 7e 80 12 35 57 78")
	b1out := unhex(t, "00 07 00 01 00 02 00 01 01 00 01 00 00 01 01 00")
	got := make([]byte, 16)
	deltaEncode(got, b0, nil, 1)
	if !bytes.Equal(got, b0out) {
		t.Errorf("block 0 = % x, want % x", got, b0out)
	}
	deltaDecode(got, nil, 1)
	if !bytes.Equal(got, b0) {
		t.Errorf("block 0 decoded = % x", got)
	}
	deltaEncode(got, b1, b0, 1)
	if !bytes.Equal(got, b1out) {
		t.Errorf("block 1 = % x, want % x", got, b1out)
	}
	deltaDecode(got, b0, 1)
	if !bytes.Equal(got, b1) {
		t.Errorf("block 1 decoded = % x", got)
	}
	// T = 2: 16-bit units; 0x100d ^ 0x0b0a = 0x1b07.
	deltaEncode(got, b0, nil, 2)
	if want := unhex(t, "0a 0b 07 1b 3c 62"); !bytes.Equal(got[:6], want) {
		t.Errorf("T=2 block 0 = % x, want % x...", got[:6], want)
	}
	deltaEncode(got, b1, b0, 2)
	if !bytes.Equal(got, b1out) {
		t.Errorf("T=2 block 1 = % x, want % x", got, b1out)
	}
	// T = 16: 8-byte units.
	deltaEncode(got, b0, nil, 16)
	want := append(bytes.Clone(b0[:8]), make([]byte, 8)...)
	for i := 8; i < 16; i++ {
		want[i] = b0[i] ^ b0[i-8]
	}
	if !bytes.Equal(got, want) {
		t.Errorf("T=16 block 0 = % x, want % x", got, want)
	}
}

// TestDeltaProperties checks encode against the literal definition and the
// round trip, for every typesize class, every length 0..200 and a few
// longer ones: trailing bytes and short reference blocks copied, as blosc/delta.c does.
func TestDeltaProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	lengths := []int{}
	for n := 0; n <= 200; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1023, 4096, 65536+5)
	for _, ts := range []int{1, 2, 3, 4, 5, 8, 12, 16, 24, 255} {
		for _, n := range lengths {
			raw0 := randBytes(rng, n+3)
			src := randBytes(rng, n)
			for _, ref := range [][]byte{nil, raw0} {
				enc := make([]byte, n+guard)
				deltaEncode(enc[:n:n], src, ref, ts)
				if want := refDeltaEncode(src, ref, ts); !bytes.Equal(enc[:n], want) {
					t.Fatalf("ts %d n %d ref %v: encode mismatch", ts, n, ref != nil)
				}
				if !bytes.Equal(enc[n:], make([]byte, guard)) {
					t.Fatalf("ts %d n %d: wrote past dst", ts, n)
				}
				deltaDecode(enc[:n], ref, ts)
				if !bytes.Equal(enc[:n], src) {
					t.Fatalf("ts %d n %d ref %v: round trip mismatch", ts, n, ref != nil)
				}
			}
		}
	}
}

// TestTruncPrecSpecExample checks a worked example of TRUNC_PREC
// (blosc/trunc-prec.c).
func TestTruncPrecSpecExample(t *testing.T) {
	in := unhex(t, "ab aa aa 3e  cd cc 4c 3e  ab aa 2a 3e  25 49 12 3e")
	want := unhex(t, "00 a0 aa 3e  00 c0 4c 3e  00 a0 2a 3e  00 40 12 3e")
	for _, p := range []int8{10, -13} {
		got := make([]byte, len(in))
		if err := truncPrec(got, in, 4, p); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("p %d: % x, want % x", p, got, want)
		}
	}
}

func TestTruncPrecRanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	src := randBytes(rng, 8*33+5)
	for _, ts := range []int{4, 8} {
		mant := 23
		if ts == 8 {
			mant = 52
		}
		for p := -128; p <= 127; p++ {
			dst := make([]byte, len(src))
			err := truncPrec(dst, src, ts, int8(p))
			valid := (p >= 1 && p <= mant) || (p <= -1 && p > -mant)
			if valid != (err == nil) {
				t.Fatalf("ts %d p %d: err %v, valid %v", ts, p, err, valid)
			}
			if err != nil {
				if !errors.Is(err, ErrInvalidOption) {
					t.Fatalf("ts %d p %d: %v does not wrap ErrInvalidOption", ts, p, err)
				}
				continue
			}
			z := -p
			if p > 0 {
				z = mant - p
			}
			e := len(src) / ts * ts
			for i := 0; i < e; i += ts {
				var v, w uint64
				for b := ts - 1; b >= 0; b-- {
					v = v<<8 | uint64(src[i+b])
					w = w<<8 | uint64(dst[i+b])
				}
				if w != v&^(1<<z-1) {
					t.Fatalf("ts %d p %d elem %d: %#x -> %#x", ts, p, i/ts, v, w)
				}
			}
			if !bytes.Equal(dst[e:], src[e:]) {
				t.Fatalf("ts %d p %d: trailing bytes not copied", ts, p)
			}
		}
	}
	for _, ts := range []int{1, 2, 3, 16} {
		if err := truncPrec(make([]byte, 16), make([]byte, 16), ts, 5); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("typesize %d: err %v", ts, err)
		}
	}
}

// refBytedelta follows plugins/filters/bytedelta/bytedelta.c literally; buggy selects id 34.
func refBytedelta(src []byte, s int, buggy bool) []byte {
	out := bytes.Clone(src)
	l := len(src) / s
	f := l / 16 * 16
	for st := 0; st < s; st++ {
		for k := 0; k < l; k++ {
			var prev byte
			if k > 0 && !(buggy && k == f && f < l) {
				prev = src[st*l+k-1]
			}
			out[st*l+k] = src[st*l+k] - prev
		}
	}
	return out
}

// TestBytedeltaSpecExample checks a worked example of BYTEDELTA
// (plugins/filters/bytedelta/bytedelta.c).
func TestBytedeltaSpecExample(t *testing.T) {
	in := unhex(t, `03 0a 1f 42 73 b2 ff 5a  c3 3a bf 52 f3 a2 5f 2a  03 ea df e2 f3 12 3f 7a  c3 1a 7f f2 73 02 9f 4a`)
	want := unhex(t, `03 07 15 23 31 3f 4d 5b  c3 77 85 93 a1 af bd cb  03 e7 f5 03 11 1f 2d 3b  c3 57 65 73 81 8f 9d ab`)
	for _, enc := range []permFunc{bytedeltaEncode, bytedelta34Encode} { // L = 8: ids agree
		got := make([]byte, len(in))
		enc(got, in, 4)
		if !bytes.Equal(got, want) {
			t.Errorf("% x, want % x", got, want)
		}
	}
	back := make([]byte, len(in))
	bytedeltaDecode(back, want, 4)
	if !bytes.Equal(back, in) {
		t.Errorf("decode % x", back)
	}
}

// Id 34 differs from 35 only at byte F = 16*floor(L/16) when 0 < F < L.
func TestBytedelta34Example(t *testing.T) {
	in := make([]byte, 2*20+1) // 2 streams of L = 20, F = 16, one trailing byte
	for i := range in {
		in[i] = byte(3*i + 1)
	}
	a, b := make([]byte, len(in)), make([]byte, len(in))
	bytedeltaEncode(a, in, 2)
	bytedelta34Encode(b, in, 2)
	for i := range in {
		differs := i == 16 || i == 20+16
		if (a[i] != b[i]) != differs {
			t.Fatalf("byte %d: id35 %#x id34 %#x", i, a[i], b[i])
		}
	}
	if b[16] != in[16] || b[36] != in[36] || b[40] != in[40] {
		t.Fatalf("id34 restart bytes %#x %#x, trailing %#x", b[16], b[36], b[40])
	}
}

func TestBytedeltaProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, s := range []int{1, 2, 3, 4, 7, 8, 16, 17, 255} {
		for n := 0; n <= 700; n += 1 + n/40 {
			src := randBytes(rng, n)
			for _, buggy := range []bool{false, true} {
				enc, dec := bytedeltaEncode, bytedeltaDecode
				if buggy {
					enc, dec = bytedelta34Encode, bytedelta34Decode
				}
				mid := make([]byte, n+guard)
				enc(mid[:n:n], src, s)
				if want := refBytedelta(src, s, buggy); !bytes.Equal(mid[:n], want) {
					t.Fatalf("s %d n %d buggy %v: encode mismatch\n got % x\nwant % x", s, n, buggy, mid[:n], want)
				}
				if !bytes.Equal(mid[n:], make([]byte, guard)) {
					t.Fatalf("s %d n %d: wrote past dst", s, n)
				}
				back := make([]byte, n)
				dec(back, mid[:n], s)
				if !bytes.Equal(back, src) {
					t.Fatalf("s %d n %d buggy %v: round trip mismatch", s, n, buggy)
				}
			}
		}
	}
}
