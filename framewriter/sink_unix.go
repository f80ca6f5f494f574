//go:build unix

package framewriter

import (
	"os"

	"golang.org/x/sys/unix"
)

// appendOnly reports whether f was opened with O_APPEND (a shell's >>):
// every write then lands at the end of the file whatever the offset, so a
// header patch would be appended instead of overwriting the header.
func appendOnly(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var flags int
	var ferr error
	if err := rc.Control(func(fd uintptr) { flags, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil || ferr != nil {
		// Unknown: assume the worst, the unpatched form is valid anywhere.
		return true
	}
	return flags&unix.O_APPEND != 0
}
