package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/blosc2go/blosc2"
	"github.com/blosc2go/blosc2/codec"
	"github.com/blosc2go/blosc2/framereader"
	"github.com/blosc2go/blosc2/framewriter"
	"github.com/blosc2go/blosc2/internal/frame"
)

// metaList is the repeatable --meta NAME=HEX flag.
type metaList []struct {
	name    string
	content []byte
}

func (m *metaList) String() string {
	var s []string
	for _, x := range *m {
		s = append(s, x.name+"="+hex.EncodeToString(x.content))
	}
	return strings.Join(s, ",")
}

func (m *metaList) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("--meta wants NAME=HEX, got %q", s)
	}
	b, err := hex.DecodeString(val)
	if err != nil {
		return fmt.Errorf("--meta %s: content is not hex: %v", name, err)
	}
	*m = append(*m, struct {
		name    string
		content []byte
	}{name, b})
	return nil
}

// vlmetaList is the repeatable --vlmeta NAME=VALUE flag.
type vlmetaList [][2]string

func (m *vlmetaList) String() string {
	var s []string
	for _, x := range *m {
		s = append(s, x[0]+"="+x[1])
	}
	return strings.Join(s, ",")
}

func (m *vlmetaList) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("--vlmeta wants NAME=VALUE, got %q", s)
	}
	*m = append(*m, [2]string{name, val})
	return nil
}

// writeFrame compresses r into w in chunks of chunksize bytes.
func writeFrame(w *framewriter.Writer, r io.Reader, chunksize int, vlmetas vlmetaList) error {
	buf := make([]byte, chunksize)
	for {
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			if werr := w.WriteChunk(buf[:n]); werr != nil {
				return werr
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return err
		}
	}
	for _, v := range vlmetas {
		if err := w.SetVLMetalayer(v[0], []byte(v[1])); err != nil {
			return err
		}
	}
	return w.Close()
}

// compressSparse is compress --format sframe: a directory of chunk files.
// (Contiguous frames go through the stream package: compressStream.)
func compressSparse(r io.Reader, out string, p blosc2.CParams, chunksize int, metas metaList, vlmetas vlmetaList, noChecksum bool) error {
	if chunksize < 1 || chunksize > blosc2.MaxBufferSize {
		return fmt.Errorf("--chunksize %d outside 1-%d", chunksize, blosc2.MaxBufferSize)
	}
	opts := []framewriter.WriterOption{framewriter.WithCParams(p)}
	if noChecksum {
		opts = append(opts, framewriter.WithoutChecksums())
	}
	for _, m := range metas {
		opts = append(opts, framewriter.WithMetalayer(m.name, m.content))
	}
	w, err := framewriter.CreateSparse(out, opts...)
	if err != nil {
		return err
	}
	if err := writeFrame(w, r, chunksize, vlmetas); err != nil {
		w.Close()
		return err
	}
	return nil
}

// chunkRow is one line of the chunk table of info.
type chunkRow struct {
	Index     int    `json:"index"`
	Entry     int64  `json:"entry"`
	Special   string `json:"special,omitempty"`
	Nbytes    int    `json:"nbytes"`
	Cbytes    int    `json:"cbytes"`
	Start     int64  `json:"start"`
	Codec     string `json:"codec"`
	BlockSize int    `json:"blocksize"`
	Flags     uint8  `json:"flags"`
	Kind      string `json:"kind,omitempty"`
	// Choice is what the chunk was compressed with, as its header says:
	// codec, filters and typesize (blosc2.Header.Choice).
	Choice string `json:"choice"`
	Error  string `json:"error,omitempty"`
}

type metaRow struct {
	Name  string `json:"name"`
	Hex   string `json:"hex"`
	Value any    `json:"value,omitempty"`
	Error string `json:"error,omitempty"`
}

type frameInfo struct {
	Kind         string   `json:"kind"`
	Version      int      `json:"version"`
	GeneralFlags uint8    `json:"general_flags"`
	HeaderLen    int      `json:"header_len"`
	FrameLen     int64    `json:"frame_len"`
	Nbytes       int64    `json:"nbytes"`
	Cbytes       int64    `json:"cbytes"`
	TypeSize     int      `json:"typesize"`
	BlockSize    int      `json:"blocksize"`
	ChunkSize    int      `json:"chunksize"`
	Codec        string   `json:"codec"`
	CodecMeta    uint8    `json:"codec_meta"`
	Clevel       int      `json:"clevel"`
	SplitMode    int      `json:"splitmode"`
	UseDict      bool     `json:"use_dict"`
	Filters      []string `json:"filters"`
	TComp        int      `json:"tcomp"`
	TDecomp      int      `json:"tdecomp"`
	HasVLMeta    bool     `json:"has_vlmetalayers"`
	Unpatched    bool     `json:"unpatched"`
	Checksums    string   `json:"checksums"` // crc32c, none, or stale
	NChunks      int      `json:"nchunks"`
	// Chunks is written row by row (writeFrameJSON), never held whole: a
	// frame of a few bytes can record hundreds of millions of chunks.
	Chunks       []chunkRow `json:"chunks,omitempty"`
	Metalayers   []metaRow  `json:"metalayers"`
	VLMetalayers []metaRow  `json:"vlmetalayers"`
}

// printable returns a JSON-friendly value for metadata: the msgpack value
// when the bytes are one, else the text when they are UTF-8.
func printable(b []byte) any {
	if v, err := frame.DecodeMsgpack(b); err == nil && len(b) > 0 {
		return jsonable(v)
	}
	if utf8.Valid(b) {
		return string(b)
	}
	return nil
}

// jsonable turns msgpack values into what encoding/json can print.
func jsonable(v any) any {
	switch x := v.(type) {
	case []byte:
		return hex.EncodeToString(x)
	case []any:
		for i := range x {
			x[i] = jsonable(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = jsonable(x[k])
		}
	case map[any]any:
		m := map[string]any{}
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case framereader.Ext:
		return map[string]any{"ext": x.Type, "hex": hex.EncodeToString(x.Data)}
	case float32:
		return float64(x)
	}
	return v
}

// unreadable counts the chunks info could not read, keeping the first
// error: info describes them in their rows and goes on, then exits with
// that error, as zstd -l does for a damaged file.
type unreadable struct {
	n     int
	first error
}

func (u *unreadable) add(err error) {
	if err != nil {
		if u.n == 0 {
			u.first = err
		}
		u.n++
	}
}

// err is nil when every chunk could be read.
func (u *unreadable) err() error {
	if u.n == 0 {
		return nil
	}
	return fmt.Errorf("%d of the chunks described could not be read; the first: %w", u.n, u.first)
}

// chunkRowOf describes chunk i of r; err is what made part of it unknown.
func chunkRowOf(r *framereader.Reader, i int) (row chunkRow, err error) {
	ci, err := r.ChunkInfo(i)
	row = chunkRow{Index: i, Entry: ci.Entry, Nbytes: ci.Nbytes, Cbytes: ci.Cbytes, Start: ci.Start,
		Codec: ci.Header.CodecName(), BlockSize: ci.Header.BlockSize, Flags: ci.Header.Flags,
		Choice: ci.Header.Choice()}
	if ci.Special != blosc2.SpecialNone {
		row.Special = ci.Special.String()
		row.Choice = "special-" + row.Special
	}
	switch {
	case ci.Header.Special() != blosc2.SpecialNone:
		row.Kind = "special-" + ci.Header.Special().String()
	case ci.Header.Memcpyed():
		row.Kind = "memcpyed"
	case ci.Header.VLBlocks():
		row.Kind = "vlblocks"
	}
	if err != nil {
		row.Error = err.Error()
	}
	return row, err
}

// describeFrame describes r's header and metalayers; its chunks are
// described as they are printed (chunkRowOf).
func describeFrame(r *framereader.Reader) frameInfo {
	in := r.Info()
	fi := frameInfo{
		Kind: in.Format.String(), Version: in.Version, GeneralFlags: in.GeneralFlags, HeaderLen: in.HeaderLen,
		FrameLen: in.FrameLen, Nbytes: in.Nbytes, Cbytes: in.Cbytes, TypeSize: in.TypeSize, BlockSize: in.BlockSize,
		ChunkSize: in.ChunkSize, Codec: codec.Name(in.Codec), CodecMeta: in.CodecMeta, Clevel: in.Clevel,
		SplitMode: int(in.SplitMode), UseDict: in.UseDict, TComp: in.TComp, TDecomp: in.TDecomp,
		HasVLMeta: in.HasVLMeta, Unpatched: in.Unpatched, Checksums: r.Checksums(), NChunks: r.NumChunks(),
		Metalayers: []metaRow{}, VLMetalayers: []metaRow{},
	}
	for i, f := range in.Filters {
		if f.ID != blosc2.NoFilter {
			fi.Filters = append(fi.Filters, fmt.Sprintf("%d:%s", i, filterString(f)))
		}
	}
	for _, m := range r.Metalayers() {
		fi.Metalayers = append(fi.Metalayers, metaRow{Name: m.Name, Hex: hex.EncodeToString(m.Content), Value: printable(m.Content)})
	}
	for _, name := range r.VLMetalayerNames() {
		row := metaRow{Name: name}
		b, err := r.VLMetalayer(name)
		if err != nil {
			row.Error = err.Error()
		} else {
			row.Hex = hex.EncodeToString(b)
			row.Value = printable(b)
		}
		fi.VLMetalayers = append(fi.VLMetalayers, row)
	}
	return fi
}

// multiInfo is what info shows for a file holding several frames.
type multiInfo struct {
	NFrames int         `json:"nframes"`
	FileLen int64       `json:"file_len"`
	Nbytes  int64       `json:"nbytes"`
	Cbytes  int64       `json:"cbytes"`
	NChunks int         `json:"nchunks"`
	Frames  []frameInfo `json:"frames,omitempty"` // written frame by frame (infoFrame)
}

// openFrames opens every frame of the file at path: the frames of a
// concatenation, or the one frame of a sparse directory or an older
// format. close releases the file.
func openFrames(path string, dp blosc2.DParams) (frames []*framereader.Reader, size int64, close func(), err error) {
	if f, err := framereader.DetectFile(path); err != nil || f != framereader.Contiguous {
		r, err := framereader.Open(path, frameOptions(dp)...)
		if err != nil {
			return nil, 0, nil, err
		}
		return []*framereader.Reader{r}, 0, func() { r.Close() }, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, nil, err
	}
	st, err := f.Stat()
	if err == nil {
		frames, err = framereader.NewReaders(f, st.Size(), frameOptions(dp)...)
	}
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	return frames, st.Size(), func() { f.Close() }, nil
}

// infoFrame prints what info shows for a frame, or for each frame of a
// concatenation and their totals.
func infoFrame(path string, asJSON bool, maxRows int, stdout io.Writer, dp blosc2.DParams) error {
	frames, size, done, err := openFrames(path, dp)
	if err != nil {
		return err
	}
	defer done()
	bw := bufio.NewWriter(stdout)
	var bad unreadable
	if len(frames) == 1 {
		if err := printFrame(frames[0], describeFrame(frames[0]), asJSON, maxRows, bw, &bad); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		return bad.err()
	}
	mi := multiInfo{NFrames: len(frames), FileLen: size}
	fis := make([]frameInfo, len(frames))
	for i, r := range frames {
		fis[i] = describeFrame(r)
		mi.Nbytes += fis[i].Nbytes
		mi.Cbytes += fis[i].Cbytes
		mi.NChunks += fis[i].NChunks
	}
	if asJSON {
		if err := writeJSONOpen(bw, mi, "frames"); err != nil {
			return err
		}
		bw.WriteString("\n")
		for i, r := range frames {
			if i > 0 {
				bw.WriteString(",\n")
			}
			if err := writeFrameJSON(bw, r, fis[i], &bad); err != nil {
				return err
			}
		}
		bw.WriteString("\n  ]\n}\n")
		if err := bw.Flush(); err != nil {
			return err
		}
		return bad.err()
	}
	fmt.Fprintf(bw, "%d concatenated frames (read as one stream; 'blosc2 join' makes one frame for C-Blosc2): nbytes %d, cbytes %d (ratio %.2f), %d chunks, file %d bytes\n",
		mi.NFrames, mi.Nbytes, mi.Cbytes, ratioOf(mi.Nbytes, mi.Cbytes), mi.NChunks, mi.FileLen)
	for i, r := range frames {
		fmt.Fprintf(bw, "\nframe %d at offset %d:\n", i, r.Offset())
		if err := printFrame(r, fis[i], false, maxRows, bw, &bad); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return bad.err()
}

// writeFrameJSON writes fi as a JSON object whose "chunks" rows are made
// and written one at a time, so that info's memory does not grow with the
// number of chunks a frame records.
func writeFrameJSON(w *bufio.Writer, r *framereader.Reader, fi frameInfo, bad *unreadable) error {
	fi.Chunks = nil
	if err := writeJSONOpen(w, fi, "chunks"); err != nil {
		return err
	}
	for i := range r.NumChunks() {
		c, err := chunkRowOf(r, i)
		bad.add(err)
		row, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n    ")
		w.Write(row)
	}
	_, err := w.WriteString("\n  ]\n}")
	return err
}

// writeJSONOpen writes the JSON object v, indented, without its closing
// brace, and opens the array member key, which the caller writes piece by
// piece and closes ("\n  ]\n}").
func writeJSONOpen(w *bufio.Writer, v any, key string) error {
	head, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	w.Write(head[:len(head)-2]) // up to the closing "\n}"
	_, err = fmt.Fprintf(w, ",\n  %q: [", key)
	return err
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// ratioOf is the compression ratio of n bytes stored in c, 0 for nothing
// stored.
func ratioOf(n, c int64) float64 {
	if c <= 0 {
		return 0
	}
	return float64(n) / float64(c)
}

// printFrame prints one frame's description: its chunks up to maxRows
// (all with 0, and always all in JSON), each described as it is printed.
func printFrame(r *framereader.Reader, fi frameInfo, asJSON bool, maxRows int, stdout *bufio.Writer, bad *unreadable) error {
	if asJSON {
		if err := writeFrameJSON(stdout, r, fi, bad); err != nil {
			return err
		}
		_, err := stdout.WriteString("\n")
		return err
	}
	ratio := ratioOf(fi.Nbytes, fi.Cbytes)
	fmt.Fprintf(stdout, "%s: format version %d (general_flags %#02x)%s\n", fi.Kind, fi.Version, fi.GeneralFlags, map[bool]string{true: ", header sizes UNPATCHED (run blosc2 repair)"}[fi.Unpatched])
	fmt.Fprintf(stdout, "  header_len %d, frame_len %d\n", fi.HeaderLen, fi.FrameLen)
	fmt.Fprintf(stdout, "  nbytes %d, cbytes %d (ratio %.2f), %d chunks, chunksize %d\n", fi.Nbytes, fi.Cbytes, ratio, fi.NChunks, fi.ChunkSize)
	meta := int(fi.CodecMeta)
	if fi.Codec == codec.Name(codec.ZFPAccuracy) {
		meta = int(int8(fi.CodecMeta)) // a signed power of ten
	}
	fmt.Fprintf(stdout, "  typesize %d, blocksize %d, codec %s (meta %d) clevel %d, splitmode %d, dict %v\n", fi.TypeSize, fi.BlockSize, fi.Codec, meta, fi.Clevel, fi.SplitMode, fi.UseDict)
	fmt.Fprintf(stdout, "  filters %v, threads %d/%d\n", fi.Filters, fi.TComp, fi.TDecomp)
	fmt.Fprintf(stdout, "  checksums %s\n", fi.Checksums)
	fmt.Fprintf(stdout, "chunks:\n  %6s %12s %10s %10s %12s %-8s %9s %-28s %s\n", "#", "entry", "nbytes", "cbytes", "start", "codec", "blocksize", "choice", "kind")
	choices := map[string]int{}
	var order []string
	listed := 0
	for i := range fi.NChunks {
		if maxRows > 0 && i >= maxRows {
			fmt.Fprintf(stdout, "  … %d more (--max-chunks 0 lists all)\n", fi.NChunks-i)
			break
		}
		c, err := chunkRowOf(r, i)
		bad.add(err)
		kind := c.Kind
		if c.Special != "" {
			kind = "index-only " + c.Special
		}
		if c.Error != "" {
			kind += " ERROR: " + c.Error
		}
		fmt.Fprintf(stdout, "  %6d %12d %10d %10d %12d %-8s %9d %-28s %s\n", c.Index, c.Entry, c.Nbytes, c.Cbytes, c.Start, c.Codec, c.BlockSize, c.Choice, kind)
		if choices[c.Choice] == 0 {
			order = append(order, c.Choice)
		}
		choices[c.Choice]++
		listed++
	}
	if listed > 0 {
		var parts []string
		for _, c := range order {
			parts = append(parts, fmt.Sprintf("%d× %s", choices[c], c))
		}
		fmt.Fprintf(stdout, "choices (of the %d chunks listed): %s\n", listed, strings.Join(parts, ", "))
	}
	printMeta := func(title string, rows []metaRow) {
		fmt.Fprintf(stdout, "%s: %d\n", title, len(rows))
		for _, m := range rows {
			v := ""
			if m.Value != nil {
				b, _ := json.Marshal(m.Value)
				v = " = " + string(b)
			}
			if m.Error != "" {
				v = " ERROR: " + m.Error
			}
			h := m.Hex
			if len(h) > 64 {
				h = h[:64] + "…"
			}
			fmt.Fprintf(stdout, "  %s (%d bytes) %s%s\n", m.Name, len(m.Hex)/2, h, v)
		}
	}
	printMeta("metalayers", fi.Metalayers)
	printMeta("vlmetalayers", fi.VLMetalayers)
	return nil
}

// cmdRepair patches the header of a frame written to a pipe.
func cmdRepair(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("repair", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the repaired frame here (default: patch FILE in place)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: blosc2 repair [-o OUT] FILE\n\nPatches the header sizes of a complete frame written to a pipe or socket, so C-Blosc2 opens it.\nWith -o, FILE may be - (standard input) and is read in one pass.")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return fmt.Errorf("repair takes one file")
	}
	if *out == "" {
		if pos[0] == "-" {
			return fmt.Errorf("repairing standard input needs -o OUT")
		}
		if err := framewriter.RepairFile(pos[0]); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s: header patched (or already complete)\n", pos[0])
		return nil
	}
	r, err := openNamed(pos[0], stdin)
	if err != nil {
		return err
	}
	defer r.Close()
	var src os.FileInfo
	if f, ok := r.(*os.File); ok {
		src, _ = f.Stat()
	}
	// -o overwrites a file (as before), never the input or a directory,
	// and leaves an existing file whole until the repaired one is complete.
	direct, err := checkOutput(*out, src, true)
	if err != nil {
		return err
	}
	f, err := createFileSink(*out, direct)
	if err != nil {
		return err
	}
	if err := framewriter.Repair(f, r); err != nil {
		f.abort()
		return err
	}
	return f.commit(src)
}

// recoverTo writes the frame recovered from the frame file in to out,
// through a temporary file renamed into place once complete: a failure
// leaves no output and never removes what was there before.
func recoverTo(out, in string) (framewriter.RecoverReport, error) {
	var rep framewriter.RecoverReport
	src, err := os.Open(in)
	if err != nil {
		return rep, err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return rep, err
	}
	direct, err := checkOutput(out, st, true)
	if err != nil {
		return rep, err
	}
	dst, err := createFileSink(out, direct)
	if err != nil {
		return rep, err
	}
	if rep, err = framewriter.Recover(dst, src, st.Size()); err != nil {
		dst.abort()
		return rep, err
	}
	return rep, dst.commit(st)
}

// cmdRecover recovers the whole chunks of a frame whose writer died.
func cmdRecover(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("recover", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the recovered frame here (default: recover FILE in place)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: blosc2 recover [-o OUT] FILE|DIR\n\nRebuilds a valid frame from a frame file whose writer died: keeps every whole chunk,\ncuts the torn tail, writes a new index, trailer and header. For a sparse frame (DIR),\nin place only: adds the chunk files the dead writer left to chunks.b2frame.")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return fmt.Errorf("recover takes one file")
	}
	var rep framewriter.RecoverReport
	isDir := false
	if st, serr := os.Stat(pos[0]); serr == nil {
		isDir = st.IsDir()
	}
	if isDir {
		if *out != "" {
			return fmt.Errorf("recover: a sparse frame (%s is a directory) is recovered in place; -o is for frame files", pos[0])
		}
		rep, err = framewriter.RecoverSparse(pos[0])
	} else if *out == "" {
		rep, err = framewriter.RecoverFile(pos[0])
	} else {
		rep, err = recoverTo(*out, pos[0])
	}
	if err != nil {
		return err
	}
	if rep.Intact {
		fmt.Fprintf(stderr, "%s: complete (%d frames, %d chunks, %d bytes); nothing to recover\n", pos[0], max(rep.Frames, 1), rep.Chunks, rep.Nbytes)
		return nil
	}
	if rep.Frames > 0 {
		fmt.Fprintf(stderr, "kept %d whole frames as they are; recovering the frame at offset %d\n", rep.Frames, rep.Offset)
	}
	fmt.Fprintf(stderr, "recovered %d chunks (%d bytes); cut %d bytes; index found %v; vlmetalayers found %v\n",
		rep.Chunks, rep.Nbytes, rep.Dropped, rep.IndexFound, rep.VLMetaFound)
	if rep.DroppedFile != "" {
		fmt.Fprintf(stderr, "the %d bytes cut are saved in %s\n", rep.Dropped, rep.DroppedFile)
	}
	if rep.LostSpecials {
		fmt.Fprintln(stderr, "warning: the writer kept some zero/NaN/uninit chunks only in its unwritten index: they are lost and later chunks moved up")
	}
	return nil
}
