package frame

import (
	"errors"
	"fmt"
	"testing"

	"github.com/blosc2go/blosc2"
)

// TestLoadChecksumsFingerprints: a checksum record is ignored as stale
// only in a trailer C-Blosc2 rewrote (fingerprint type 0, sixteen zero
// bytes) after changing the frame's sizes; every other fingerprint that
// does not vouch for the record is ErrChecksum, so that damage to the
// trailer cannot switch verification off.
func TestLoadChecksumsFingerprints(t *testing.T) {
	sums := Checksums{Nbytes: 3000, ChunkSize: 1000, TypeSize: 8, BlockSize: 0, CRCs: []uint32{1, 2, 3}}
	m, ours, err := sums.Entry()
	if err != nil {
		t.Fatal(err)
	}
	matches := func(c *Checksums) error { return nil }
	sizesChanged := func(c *Checksums) error { return fmt.Errorf("%w: 4 chunks now", blosc2.ErrChecksum) }
	flipped := ours
	flipped.Type ^= 1
	otherValue := ours
	otherValue.Value[15] ^= 0x40
	cValue := Fingerprint{Type: 0}
	cValue.Value[3] = 1
	for _, c := range []struct {
		name  string
		fp    Fingerprint
		vl    []VLMeta
		check func(*Checksums) error
		state ChecksumState
		fails bool
	}{
		{"ours", ours, []VLMeta{m}, matches, ChecksumsValid, false},
		{"ours, sizes changed", ours, []VLMeta{m}, sizesChanged, ChecksumsNone, true},
		{"ours, record missing", ours, nil, matches, ChecksumsNone, true},
		{"ours, value damaged", otherValue, []VLMeta{m}, matches, ChecksumsNone, true},
		{"type bit flipped to 0", flipped, []VLMeta{m}, matches, ChecksumsNone, true},
		{"unknown type", Fingerprint{Type: -2, Value: ours.Value}, []VLMeta{m}, matches, ChecksumsNone, true},
		{"type 0 with a value C-Blosc2 never writes", cValue, []VLMeta{m}, matches, ChecksumsNone, true},
		{"C-Blosc2's trailer, sizes unchanged", Fingerprint{}, []VLMeta{m}, matches, ChecksumsValid, false},
		{"C-Blosc2's trailer, sizes changed", Fingerprint{}, []VLMeta{m}, sizesChanged, ChecksumsStale, false},
		{"C-Blosc2's frame", Fingerprint{}, nil, matches, ChecksumsNone, false},
	} {
		trailer := AppendTrailer(nil, c.vl, c.fp)
		state, got, err := LoadChecksums(c.vl, trailer, 3, c.check)
		if c.fails {
			if !errors.Is(err, blosc2.ErrChecksum) {
				t.Errorf("%s: %v, want ErrChecksum", c.name, err)
			}
			continue
		}
		if err != nil || state != c.state || (state == ChecksumsValid) != (got != nil) {
			t.Errorf("%s: state %v, record %v, err %v; want state %v", c.name, state, got != nil, err, c.state)
		}
	}
}
