//go:build gc && !purego && !noasm

package codec

import (
	"github.com/blosc2go/blosc2/internal/race"
	"github.com/klauspost/cpuid/v2"
)

// adlerVec: the AVX2 kernel sums 32 bytes a step, the bytes with VPSADBW
// and the weighted bytes with VPMADDUBSW, about ten times hash/adler32's
// speed.
var adlerVec = cpuid.CPU.Supports(cpuid.AVX, cpuid.AVX2)

// adler32AVX2 returns the Adler-32 of p continued from adler; len(p) is a
// multiple of 32.
//
//go:noescape
func adler32AVX2(adler uint32, p []byte) uint32

func adler32Vec(adler uint32, p []byte) uint32 {
	race.ReadSlice(p) // the detector does not see assembly read
	return adler32AVX2(adler, p)
}
