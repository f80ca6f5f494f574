package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/framereader"
)

type chunkInfo struct {
	Kind      string   `json:"kind"`
	Version   uint8    `json:"version"`
	Flags     uint8    `json:"flags"`
	Codec     string   `json:"codec"`
	TypeSize  int      `json:"typesize"`
	Nbytes    int      `json:"nbytes"`
	Cbytes    int      `json:"cbytes"`
	BlockSize int      `json:"blocksize"`
	NBlocks   int      `json:"nblocks"`
	Split     bool     `json:"split"`
	Memcpyed  bool     `json:"memcpyed"`
	Special   string   `json:"special"`
	VLBlocks  bool     `json:"vlblocks"`
	Dict      bool     `json:"dict"`
	Filters   []string `json:"filters"`
}

func cmdInfo(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	maxRows := fs.Int("max-chunks", 100, "chunk table rows to print (0: all; JSON always lists all)")
	var mem memoryCap
	mem.register(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("info takes one file")
	}
	defer mem.limitHeap()()
	switch f, err := framereader.DetectFile(pos[0]); {
	case err != nil:
		return err
	case f == framereader.Unknown:
		return fmt.Errorf("%s: not a Blosc2 chunk, frame, sparse frame directory, beta frame or packed super-chunk", pos[0])
	case f != framereader.Chunk:
		if f == framereader.Contiguous || f == framereader.Sparse {
			ok, err := infoB2nd(pos[0], *asJSON, stdout, mem.dparams(1))
			if err != nil || (ok && *asJSON) {
				return err
			}
		}
		return infoFrame(pos[0], *asJSON, *maxRows, stdout, mem.dparams(1))
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		return err
	}
	h, err := blosc2.ParseHeader(data)
	if err != nil {
		return err
	}
	ci := chunkInfo{
		Kind: "chunk", Version: h.Version, Flags: h.Flags, Codec: h.CodecName(),
		TypeSize: h.TypeSize, Nbytes: h.Nbytes, Cbytes: h.Cbytes, BlockSize: h.BlockSize,
		NBlocks: h.NBlocks(), Split: h.Split(), Memcpyed: h.Memcpyed(), Special: h.Special().String(),
		VLBlocks: h.VLBlocks(), Dict: h.UseDict(),
	}
	for i, f := range h.Filters {
		if f.ID != blosc2.NoFilter {
			ci.Filters = append(ci.Filters, fmt.Sprintf("%d:%s", i, filterString(f)))
		}
	}
	if *asJSON {
		return writeJSON(stdout, ci)
	}
	fmt.Fprintf(stdout, "chunk: version %d, codec %s, typesize %d\n", ci.Version, ci.Codec, ci.TypeSize)
	fmt.Fprintf(stdout, "  nbytes %d, cbytes %d (ratio %.2f)\n", ci.Nbytes, ci.Cbytes, ratioOf(int64(ci.Nbytes), int64(ci.Cbytes)))
	fmt.Fprintf(stdout, "  blocksize %d, %d blocks, split %v, memcpyed %v, special %s, vlblocks %v, dict %v\n",
		ci.BlockSize, ci.NBlocks, ci.Split, ci.Memcpyed, ci.Special, ci.VLBlocks, ci.Dict)
	fmt.Fprintf(stdout, "  filters %v\n", ci.Filters)
	return nil
}
