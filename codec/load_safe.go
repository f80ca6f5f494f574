//go:build !(386 || amd64 || arm64) || !gc || purego || noasm

package codec

import "encoding/binary"

// load64 and load32 read the little-endian word at b[i:]; see load_unsafe.go.
func load64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }

func load32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i:]) }
