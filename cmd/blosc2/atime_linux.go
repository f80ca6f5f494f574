package main

import (
	"os"
	"syscall"
	"time"
)

// atime is the last access time of the file src describes.
func atime(src os.FileInfo) time.Time {
	if st, ok := src.Sys().(*syscall.Stat_t); ok {
		return time.Unix(int64(st.Atim.Sec), int64(st.Atim.Nsec)) // int32 on 386
	}
	return src.ModTime()
}
