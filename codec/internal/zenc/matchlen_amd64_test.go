//go:build gc && !purego && !noasm

package zenc

import (
	"bytes"
	"testing"
)

// TestEqualPrefix: equalPrefixAVX2 finds a difference at every position
// of inputs of every length up to 200 (its 32-, 8- and 1-byte steps and
// their ends), and none where there is none.
func TestEqualPrefix(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 here: matches are followed by matchLen alone, so there is nothing to compare")
	}
	a := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstuvwxyz"), 8)
	for n := 1; n <= 200; n++ {
		b := bytes.Clone(a[:n])
		if got := equalPrefixAVX2(&a[0], &b[0], n); got != n {
			t.Fatalf("%d equal bytes: %d", n, got)
		}
		for d := range n {
			b[d] ^= 0x40
			if got := equalPrefixAVX2(&a[0], &b[0], n); got != d {
				t.Fatalf("%d bytes differing at %d: %d", n, d, got)
			}
			b[d] ^= 0x40
		}
	}
}

// FuzzMatchLenOn: matchLenOn, in assembly with AVX2, finds the length
// matchLen finds, for matches at any two positions of any input whose
// first 16 bytes are equal, overlapping ones included.
func FuzzMatchLenOn(f *testing.F) {
	if !hasAVX2 {
		f.Skip("no AVX2 here: matches are followed by matchLen alone, so there is nothing to compare")
	}
	f.Add(bytes.Repeat([]byte{1, 2, 3}, 100), uint16(0), uint16(3), uint16(0))
	f.Add(bytes.Repeat([]byte{7}, 300), uint16(5), uint16(6), uint16(17))
	f.Fuzz(func(t *testing.T, src []byte, a, b, cut uint16) {
		x, y := int(min(a, b)), int(max(a, b))
		end := len(src) - int(cut)
		if x == y || y+16 > end || end > len(src) || matchLen(src, x, y, y+16) < 16 {
			return
		}
		if got, want := matchLenOn(src, x, y, end), matchLen(src, x, y, end); got != want {
			t.Fatalf("a %d, b %d, end %d of %d: %d, matchLen %d", x, y, end, len(src), got, want)
		}
	})
}
