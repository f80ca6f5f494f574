//go:build race

// Package race tells the race detector about memory that assembly reads and
// writes: the detector instruments Go code only, so without these calls a
// race on a buffer handed to an assembly kernel goes unseen. Without the
// race build tag every function is an empty, inlined no-op.
package race

import (
	"runtime"
	"unsafe"
)

// Enabled reports whether the race detector is on.
const Enabled = true

// ReadSlice records a read of every byte of s.
func ReadSlice(s []byte) {
	if len(s) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(unsafe.SliceData(s)), len(s))
	}
}

// WriteSlice records a write of every byte of s.
func WriteSlice(s []byte) {
	if len(s) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(unsafe.SliceData(s)), len(s))
	}
}
