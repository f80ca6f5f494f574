//go:build !unix

package main

import "os"

// setMeta gives the output f (at path) the mode and modification time of
// the input src; platforms outside unix have no owner to keep.
func setMeta(f *os.File, path string, src os.FileInfo, dir bool) error {
	if src == nil {
		return nil
	}
	if !dir {
		if err := f.Chmod(src.Mode().Perm()); err != nil {
			return err
		}
	}
	return os.Chtimes(path, src.ModTime(), src.ModTime())
}
