//go:build gc && !purego && !noasm

package zdec

import (
	"testing"
	"unsafe"
)

// TestFusedLayout: decodeExecuteBMI2 reads its decoding fields at
// decodeContext's offsets from the start of its context.
func TestFusedLayout(t *testing.T) {
	if off := unsafe.Offsetof(fusedContext{}.dec); off != 0 {
		t.Fatalf("fusedContext.dec at offset %d, not 0", off)
	}
}
