package blosc2

import (
	"testing"

	"github.com/blosc2go/blosc2/codec"
)

// TestSnappyFormat: Snappy chunks carry format 2 and format 2 reads as
// Snappy (the assertions codec's snappy test made when the format numbers
// lived there).
func TestSnappyFormat(t *testing.T) {
	if f := codecFormat(codec.Snappy); f != formatSnappy {
		t.Fatalf("format of snappy = %d", f)
	}
	if id, ok := formatCodec(formatSnappy); !ok || id != codec.Snappy {
		t.Fatalf("formatCodec(formatSnappy) = %d, %v", id, ok)
	}
}
