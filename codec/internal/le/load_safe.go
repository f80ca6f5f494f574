//go:build !(386 || amd64 || arm64) || !gc || purego || noasm

package le

import "encoding/binary"

// Load64 and Load32 read the little-endian word at b[i:]; see load_unsafe.go.
func Load64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }

func Load32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i:]) }

// Store64 writes v little-endian at b[i:]; see load_unsafe.go.
func Store64(b []byte, i int, v uint64) { binary.LittleEndian.PutUint64(b[i:], v) }

// Get and Set read and write t[i]; see load_unsafe.go.
func Get(t []uint32, i uint32) uint32 { return t[i] }

func Set(t []uint32, i uint32, v uint32) { t[i] = v }
