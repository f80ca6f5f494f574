//go:build !unix

package traps

import (
	"errors"
	"os"
)

func mkfifo(path string) error {
	return &os.PathError{Op: "mkfifo", Path: path, Err: errors.ErrUnsupported}
}
