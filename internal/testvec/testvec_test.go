package testvec

import "testing"

// The generators must reproduce every input the manifest records a digest
// for: they are C-Blosc2's b2ref generators, and the encoder tests rely on them.
func TestGenerateMatchesManifest(t *testing.T) {
	n := 0
	for _, v := range Load(t) {
		if v.Params.Data == nil || v.Params.InputSHA256 == "" {
			continue
		}
		in, err := Generate(v.Params.Data)
		if err != nil {
			t.Errorf("%s: %v", v.File, err)
			continue
		}
		if len(in) != v.Params.InputLen || SHA256(in) != v.Params.InputSHA256 {
			t.Errorf("%s: generated %d bytes sha %s, manifest says %d %s", v.File, len(in), SHA256(in), v.Params.InputLen, v.Params.InputSHA256)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("only %d vectors have generated inputs", n)
	}
}
