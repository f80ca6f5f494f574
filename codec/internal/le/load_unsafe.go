//go:build (386 || amd64 || arm64) && gc && !purego && !noasm

package le

import "unsafe"

// Load64 and Load32 read the little-endian word at b[i:] without a bounds
// check, on the little-endian machines with fast unaligned loads. Callers
// must prove i+8 (i+4) <= len(b) and say why in a comment: the encoders'
// hot loops load at positions their loop bounds keep inside the input.
// The purego and noasm tags select the checked versions (load_safe.go).
func Load64(b []byte, i int) uint64 {
	return *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

func Load32(b []byte, i int) uint32 {
	return *(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

// Store64 writes v little-endian at b[i:] without a bounds check; callers
// must prove i+8 <= len(b), as for Load64.
func Store64(b []byte, i int, v uint64) {
	*(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i)) = v
}

// Get and Set read and write t[i] without a bounds check: for the match
// finders' hash tables, indexed by hashes masked to their length.
func Get(t []uint32, i uint32) uint32 {
	return *(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t)), uintptr(i)*4))
}

func Set(t []uint32, i uint32, v uint32) {
	*(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(t)), uintptr(i)*4)) = v
}
