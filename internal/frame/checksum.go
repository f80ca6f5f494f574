package frame

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/blosc2go/blosc2"
)

// Checksums: per-chunk CRC-32C values, kept where C-Blosc2 looks at
// nothing of them (doc/checksums.md in the module):
//
//   - a vlmetalayer named ChecksumsName whose value (a Blosc2 chunk, as
//     every vlmetalayer) decompresses to the record:
//     "B2CK", version 1, algorithm 1 (CRC-32C, Castagnoli), 2 zero bytes,
//     nchunks uint64, nbytes int64, chunksize int32, typesize int32,
//     blocksize int32, 4 zero bytes, then nchunks uint32 values, all
//     little-endian. Value i is the CRC-32C of chunk i's bytes as stored
//     (its cbytes from the chunk header, in the chunks section or its
//     sparse-frame file), or, for a chunk the index records without
//     storing it, of its 8-byte little-endian index entry. The sizes are
//     the frame header's (after patching);
//   - the trailer's fingerprint, C-Blosc2's fixext16 that it writes as
//     type 0 and never reads: type 1 (32-bit) and the CRC-32C of the
//     record, big-endian, in the last 4 of its 16 bytes.
//
// The fingerprint tells a current record from a stale one: a writer that
// does not know the record (C-Blosc2 appending to the frame) keeps the
// vlmetalayer but writes fingerprint type 0.

// ChecksumsName is the vlmetalayer holding the checksum record.
const ChecksumsName = "b2go.crc32c"

const (
	checksumsMagic   = "B2CK"
	checksumsVersion = 1
	algCRC32C        = 1
	checksumsHead    = 40
	// FingerprintCRC32 is the trailer fingerprint type of a 32-bit value.
	FingerprintCRC32 = 1
	// MaxChecksummedChunks bounds the record (4 bytes a chunk) so that it
	// fits one chunk; frames with more chunks are written without it.
	MaxChecksummedChunks = 1 << 26
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ChunkCRC is the checksum of a stored chunk's bytes, given in one piece
// or in several, in order.
func ChunkCRC(pieces ...[]byte) uint32 {
	var crc uint32
	for _, b := range pieces {
		crc = updateCRC(crc, b)
	}
	return crc
}

// updateCRC is crc32.Update with the Castagnoli table: the fold kernel
// (crc_amd64.s) takes whole 128-byte blocks of long inputs, hash/crc32
// the rest.
func updateCRC(crc uint32, b []byte) uint32 {
	if foldCRC && len(b) >= foldMin {
		var n int
		crc, n = updateFold(crc, b)
		b = b[n:]
	}
	return crc32.Update(crc, castagnoli, b)
}

// crcShift is the CRC-32C state c (bit-reflected, without inversions)
// carried over n zero bytes: c·x^(8n) mod P, as zlib's crc32_combine
// computes it, in O(log n) steps.
func crcShift(c uint32, n uint32) uint32 {
	// x^(8n) = product of x^(2^k) over the bits k of 8n.
	p := uint32(1) << 31 // x^0
	for k, m := 3, n; m > 0; k, m = k+1, m>>1 {
		if m&1 != 0 {
			p = mulModP(x2k[k], p)
		}
	}
	return mulModP(p, c)
}

// mulModP multiplies a and b modulo CRC-32C's polynomial, bit-reflected.
func mulModP(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
		}
		if b&1 != 0 {
			b = b>>1 ^ 0x82F63B78
		} else {
			b >>= 1
		}
	}
	return p
}

// x2k[k] is x^(2^k) mod P, bit-reflected.
var x2k = func() (t [36]uint32) {
	t[0] = 1 << 30 // x^1
	for k := 1; k < len(t); k++ {
		t[k] = mulModP(t[k-1], t[k-1])
	}
	return t
}()

// sumPiece is how much is read at a time when a checksum is computed
// while reading: the piece is summed while it is in the cache, which
// costs a third of summing a 4 MiB chunk after it is read whole.
const sumPiece = 128 << 10

// ReadAppendSum is ReadAppend computing the checksum of what it reads, a
// piece at a time.
func ReadAppendSum(dst []byte, ra io.ReaderAt, off, n, size int64, what string) ([]byte, uint32, error) {
	if off < 0 || n < 0 || off > size || n > size-off {
		return dst, 0, fmt.Errorf("%w: %s: %d bytes at offset %d, input has %d", blosc2.ErrTruncated, what, n, off, size)
	}
	l := len(dst)
	dst = growBy(dst, int(n))
	var crc uint32
	for p := int64(0); p < n; p += sumPiece {
		piece := dst[l+int(p) : l+int(min(n, p+sumPiece))]
		if k, err := ra.ReadAt(piece, off+p); k < len(piece) {
			if err == nil || errors.Is(err, io.EOF) {
				err = fmt.Errorf("%w: %s: %d bytes at offset %d: %v", blosc2.ErrTruncated, what, n, off, err)
			}
			return dst[:l], 0, err
		}
		crc = updateCRC(crc, piece)
	}
	return dst, crc, nil
}

// EntryCRC is the checksum of an index-only chunk: of its index entry.
func EntryCRC(e int64) uint32 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(e))
	return ChunkCRC(b[:])
}

// Checksums is a decoded checksum record.
type Checksums struct {
	Nbytes                         int64
	ChunkSize, TypeSize, BlockSize int32
	CRCs                           []uint32
}

// Append encodes the record.
func (c *Checksums) Append(dst []byte) []byte {
	dst = append(dst, checksumsMagic...)
	dst = append(dst, checksumsVersion, algCRC32C, 0, 0)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(c.CRCs)))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(c.Nbytes))
	for _, v := range []int32{c.ChunkSize, c.TypeSize, c.BlockSize, 0} {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(v))
	}
	for _, v := range c.CRCs {
		dst = binary.LittleEndian.AppendUint32(dst, v)
	}
	return dst
}

// Entry encodes the record as the vlmetalayer that holds it (compressed
// as a vlmetalayer value must be) and the fingerprint that vouches for it.
func (c *Checksums) Entry() (VLMeta, Fingerprint, error) {
	rec := c.Append(nil)
	p := blosc2.DefaultCParams()
	p.TypeSize, p.Level = 4, 1
	chunk, err := blosc2.Compress(nil, rec, &p)
	if err != nil {
		return VLMeta{}, Fingerprint{}, err
	}
	return VLMeta{Name: ChecksumsName, Chunk: chunk}, RecordFingerprint(rec), nil
}

// ParseChecksums decodes a record.
func ParseChecksums(b []byte) (*Checksums, error) {
	if len(b) < checksumsHead || string(b[:4]) != checksumsMagic {
		return nil, fmt.Errorf("%w: vlmetalayer %q is not a checksum record", blosc2.ErrChecksum, ChecksumsName)
	}
	if b[4] != checksumsVersion || b[5] != algCRC32C {
		return nil, fmt.Errorf("%w: checksum record version %d, algorithm %d (this reader knows 1, 1)", blosc2.ErrUnsupported, b[4], b[5])
	}
	n := binary.LittleEndian.Uint64(b[8:])
	if n != uint64(len(b)-checksumsHead)/4 || (len(b)-checksumsHead)%4 != 0 {
		return nil, fmt.Errorf("%w: checksum record of %d bytes claims %d chunks", blosc2.ErrChecksum, len(b), n)
	}
	c := &Checksums{
		Nbytes:    int64(binary.LittleEndian.Uint64(b[16:])),
		ChunkSize: int32(binary.LittleEndian.Uint32(b[24:])),
		TypeSize:  int32(binary.LittleEndian.Uint32(b[28:])),
		BlockSize: int32(binary.LittleEndian.Uint32(b[32:])),
		CRCs:      make([]uint32, n),
	}
	for i := range c.CRCs {
		c.CRCs[i] = binary.LittleEndian.Uint32(b[checksumsHead+4*i:])
	}
	return c, nil
}

// Fingerprint is the trailer's last field: a type and 16 bytes.
type Fingerprint struct {
	Type  int8
	Value [16]byte
}

// RecordFingerprint is the fingerprint that vouches for a record.
func RecordFingerprint(record []byte) Fingerprint {
	fp := Fingerprint{Type: FingerprintCRC32}
	binary.BigEndian.PutUint32(fp.Value[12:], ChunkCRC(record))
	return fp
}

// TrailerFingerprint reads the fingerprint at the end of t, a whole trailer.
func TrailerFingerprint(t []byte) Fingerprint {
	var fp Fingerprint
	if len(t) >= 17 {
		fp.Type = int8(t[len(t)-17])
		copy(fp.Value[:], t[len(t)-16:])
	}
	return fp
}

// ChecksumState says what a frame's checksums are.
type ChecksumState uint8

// The states of a frame's checksums.
const (
	ChecksumsNone  ChecksumState = iota // no record: a frame C-Blosc2 (or WithoutChecksums) wrote
	ChecksumsValid                      // a record the fingerprint vouches for: verified
	ChecksumsStale                      // a record another writer kept without updating: ignored
)

func (s ChecksumState) String() string {
	return [...]string{"none", "crc32c", "stale (the frame was changed by a writer that does not update them)"}[s]
}

// LoadChecksums finds the checksum record among a frame's vlmetalayers and
// checks it against the trailer's fingerprint; check compares a record
// with the frame's header (Checksums.CheckHeader with the sizes the
// caller knows). nchunks, the frame's, bounds the record decoded.
//
// A record is ignored as stale only where C-Blosc2 rewrote the trailer:
// fingerprint type 0 with 16 zero bytes, as its frame.c writes it, and a
// record whose sizes no longer match the frame (a chunk appended,
// inserted or deleted). Otherwise the record is verified: a fingerprint
// of ours without its record or not matching it, any other type or
// value, and a record in a C-Blosc2 trailer that cannot be read, are
// ErrChecksum, because a damaged trailer must not switch verification off
// in silence. The price: a frame whose chunk C-Blosc2 replaced in place
// (same count and sizes) reads with ErrChecksum for that chunk.
func LoadChecksums(vl []VLMeta, trailer []byte, nchunks int, check func(*Checksums) error) (ChecksumState, *Checksums, error) {
	fp := TrailerFingerprint(trailer)
	var chunk []byte
	for _, m := range vl {
		if m.Name == ChecksumsName {
			chunk = m.Chunk
		}
	}
	cWrote := fp.Type == 0 && fp.Value == [16]byte{}
	switch {
	case chunk == nil && fp.Type == FingerprintCRC32:
		return ChecksumsNone, nil, fmt.Errorf("%w: the trailer's fingerprint vouches for a checksum record that is missing", blosc2.ErrChecksum)
	case fp.Type != FingerprintCRC32 && !cWrote:
		// Also without a record: a damaged vlmetalayer name and a damaged
		// fingerprint type together must not read as a frame written
		// without checksums (FuzzChecksummedDamage found that pair).
		return ChecksumsNone, nil, fmt.Errorf("%w: the trailer's fingerprint (type %d) is neither ours nor C-Blosc2's: the trailer is damaged", blosc2.ErrChecksum, fp.Type)
	case chunk == nil:
		return ChecksumsNone, nil, nil
	}
	rec, err := blosc2.Decompress(nil, chunk, &blosc2.DParams{MaxMemory: checksumsHead + 4*nchunks})
	if err != nil {
		return ChecksumsNone, nil, fmt.Errorf("%w: checksum record: %w", blosc2.ErrChecksum, err)
	}
	if !cWrote {
		if want := RecordFingerprint(rec); !bytes.Equal(want.Value[:], fp.Value[:]) {
			return ChecksumsNone, nil, fmt.Errorf("%w: the checksum record does not match the trailer's fingerprint", blosc2.ErrChecksum)
		}
	}
	c, err := ParseChecksums(rec)
	if err != nil {
		return ChecksumsNone, nil, err
	}
	if err := check(c); err != nil {
		if cWrote {
			return ChecksumsStale, nil, nil
		}
		return ChecksumsNone, nil, err
	}
	return ChecksumsValid, c, nil
}

// CheckHeader compares the sizes the record saw with a frame header's.
func (c *Checksums) CheckHeader(h *Header, nchunks int) error {
	if int64(len(c.CRCs)) != int64(nchunks) || c.Nbytes != h.Nbytes || c.ChunkSize != h.ChunkSize ||
		c.TypeSize != h.TypeSize || c.BlockSize != h.BlockSize {
		return fmt.Errorf("%w: the header says %d chunks, nbytes %d, chunksize %d, typesize %d, blocksize %d; the checksum record %d, %d, %d, %d, %d",
			blosc2.ErrChecksum, nchunks, h.Nbytes, h.ChunkSize, h.TypeSize, h.BlockSize, len(c.CRCs), c.Nbytes, c.ChunkSize, c.TypeSize, c.BlockSize)
	}
	return nil
}

// Verify checks chunk i: its stored bytes, or its index entry e when the
// index records it without storing it.
func (c *Checksums) Verify(i int, e int64, stored []byte) error {
	if e >= 0 {
		return c.VerifyCRC(i, ChunkCRC(stored))
	}
	return c.VerifyCRC(i, EntryCRC(e))
}

// VerifyCRC compares got, the checksum of chunk i as read, with the record.
func (c *Checksums) VerifyCRC(i int, got uint32) error {
	if i < 0 || i >= len(c.CRCs) {
		return fmt.Errorf("%w: chunk %d has no checksum (%d recorded)", blosc2.ErrChecksum, i, len(c.CRCs))
	}
	if got != c.CRCs[i] {
		return fmt.Errorf("%w: chunk %d: CRC-32C %08x, recorded %08x", blosc2.ErrChecksum, i, got, c.CRCs[i])
	}
	return nil
}
