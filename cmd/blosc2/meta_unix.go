//go:build unix

package main

import (
	"os"
	"syscall"
)

// umask is the process's file-creation mask, read once at start (reading
// it means setting it).
var umask = func() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}()

// setMeta gives the output f (at path; a directory when dir) the owner,
// group, mode and times of the input src, as gzip and zstd do. Owner and
// group are kept when permitted (as root, or a group the user is in);
// when they cannot be kept the setuid and setgid bits are dropped, so a
// copy owned by someone else never runs with the original's rights. src
// nil (standard input) gives the mode a new file gets under the umask.
func setMeta(f *os.File, path string, src os.FileInfo, dir bool) error {
	if src == nil {
		base := os.FileMode(0o666)
		if dir {
			base = 0o777
		}
		return f.Chmod(base &^ umask)
	}
	mode := src.Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)
	if src.IsDir() && !dir {
		mode &^= 0o111 // a sparse frame's directory turned into a file
	}
	if dir && !src.IsDir() {
		mode |= (mode & 0o444) >> 2 // a directory needs x wherever r is
	}
	if st, ok := src.Sys().(*syscall.Stat_t); ok {
		if err := f.Chown(int(st.Uid), int(st.Gid)); err != nil {
			// Not permitted: try the group alone, then give up on both.
			if f.Chown(-1, int(st.Gid)) != nil {
				mode &^= os.ModeSetgid
			}
			mode &^= os.ModeSetuid
		}
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	return os.Chtimes(path, atime(src), src.ModTime())
}
