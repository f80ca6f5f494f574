package blosc2

import "github.com/blosc2go/blosc2/internal/errs"

// Sentinel errors. Every error returned by this module wraps one of them
// (test with errors.Is) and adds what is wrong and where.
var (
	// ErrHeader reports a header whose fields are invalid or contradict
	// each other (a chunk header, a frame header or trailer).
	ErrHeader = errs.ErrHeader
	// ErrCorrupt reports compressed data that does not decode consistently
	// with its header: a bad stream, a block start out of range, a codec
	// failure.
	ErrCorrupt = errs.ErrCorrupt
	// ErrTruncated reports input that ends before what its header declares.
	ErrTruncated = errs.ErrTruncated
	// ErrUnsupported reports a valid feature this package does not
	// implement, such as a codec or filter id nobody registered.
	ErrUnsupported = errs.ErrUnsupported
	// ErrInvalidOption reports a parameter outside its range.
	ErrInvalidOption = errs.ErrInvalidOption
	// ErrTooLarge reports input whose declared sizes exceed a limit: the
	// format's own, or one the caller set (DParams.MaxMemory).
	ErrTooLarge = errs.ErrTooLarge
	// ErrClosed reports the use of a closed reader or writer.
	ErrClosed = errs.ErrClosed
	// ErrChecksum reports stored data whose checksum does not match: the
	// frame was damaged after it was written.
	ErrChecksum = errs.ErrChecksum
)
