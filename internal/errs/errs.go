// Package errs holds the sentinel errors shared by every package of the
// module, so that an error raised deep in a codec matches the exported
// sentinel of the root package with errors.Is.
package errs

import "errors"

// The sentinels; the root package re-exports each under the same name.
var (
	ErrHeader        = errors.New("blosc2: invalid header")
	ErrCorrupt       = errors.New("blosc2: corrupt data")
	ErrTruncated     = errors.New("blosc2: truncated input")
	ErrUnsupported   = errors.New("blosc2: unsupported feature")
	ErrInvalidOption = errors.New("blosc2: invalid option")
	ErrTooLarge      = errors.New("blosc2: size exceeds limit")
	ErrClosed        = errors.New("blosc2: use of closed object")
	ErrChecksum      = errors.New("blosc2: checksum mismatch")
)

// BadInput are the sentinels an error about bad input wraps: every one but
// ErrClosed, which is about the caller's use of a closed object. The fuzz
// and hostile-input tests of every package check errors against it.
var BadInput = []error{ErrHeader, ErrCorrupt, ErrTruncated, ErrUnsupported, ErrInvalidOption, ErrTooLarge, ErrChecksum}

// IsBadInput reports whether err wraps one of BadInput.
func IsBadInput(err error) bool {
	for _, s := range BadInput {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
