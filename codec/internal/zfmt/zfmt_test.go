package zfmt

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSpreadLinear checks Spread's fast path (no "less than 1" symbol)
// against spreadStepping, which steps state by state as RFC 8878
// describes, on the predefined distributions and random ones, and that
// counts that do not fill the table are refused by both.
func TestSpreadLinear(t *testing.T) {
	check := func(norm []int16, log uint8) {
		t.Helper()
		got := make([]uint8, 1<<log)
		want := make([]uint8, 1<<log)
		gn, gerr := Spread(got, norm, log)
		wn, werr := spreadStepping(want, norm, log)
		if (gerr == nil) != (werr == nil) || gn != wn || gerr == nil && !slices.Equal(got, want) {
			t.Fatalf("log %d counts %v: Spread %d, %v, %v; stepping %d, %v, %v", log, norm, gn, gerr, got, wn, werr, want)
		}
	}
	for k := range 3 {
		check(DefaultNorm[k], DefaultLog[k])
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		log := uint8(5 + r.IntN(MaxFSELog-4))
		size := 1 << log
		norm := make([]int16, 1+r.IntN(53))
		left := size
		for i := range norm {
			if left == 0 {
				break
			}
			// Skewed counts: some symbols take most of the table, as in
			// real distributions; runs of 0 between them.
			switch r.IntN(4) {
			case 0:
			case 1:
				norm[i] = int16(1 + r.IntN(left))
			default:
				norm[i] = int16(1 + r.IntN(min(left, 9)))
			}
			left -= int(norm[i])
		}
		norm[len(norm)-1] += int16(left)
		switch r.IntN(10) {
		case 0: // one short
			norm[r.IntN(len(norm))]--
		case 1: // one over
			norm[r.IntN(len(norm))]++
		}
		check(norm, log)
	}
}
