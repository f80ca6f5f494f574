package stream

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/blosc2go/blosc2"
)

// TestWriterOptionsFailInNewWriter: a metalayer the frame cannot hold
// fails NewWriter, not Close.
func TestWriterOptionsFailInNewWriter(t *testing.T) {
	long := strings.Repeat("m", 40)
	for name, opts := range map[string][]WriterOption{
		"long name":       {WithMetalayer(long, nil)},
		"empty name":      {WithMetalayer("", nil)},
		"duplicate":       {WithMetalayer("a", nil), WithMetalayer("a", []byte{1})},
		"long vlmeta":     {WithVLMetalayer(long, nil)},
		"empty vlmeta":    {WithVLMetalayer("", nil)},
		"bad split mode":  {WithSplitMode(blosc2.SplitForward + 1)},
		"dict on bloscLZ": {WithCodec(blosc2.BloscLZ), WithFilters(), WithDict(true)},
	} {
		if _, err := NewWriter(io.Discard, opts...); !errors.Is(err, blosc2.ErrInvalidOption) {
			t.Errorf("%s: NewWriter returned %v, want ErrInvalidOption", name, err)
		}
	}
}
