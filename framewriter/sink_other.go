//go:build !unix

package framewriter

import "os"

// appendOnly reports whether f was opened for appending; without fcntl it
// cannot tell, and Windows has no O_APPEND descriptor flag of this kind
// that Go exposes, so files are taken as seekable.
func appendOnly(*os.File) bool { return false }
