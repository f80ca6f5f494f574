//go:build unix

package safefile

import (
	"errors"
	"syscall"
)

const (
	noFollow = syscall.O_NOFOLLOW
	nonBlock = syscall.O_NONBLOCK // a FIFO opens at once, then is refused
)

// isLinkErr reports the error O_NOFOLLOW gives for a symbolic link.
func isLinkErr(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}
