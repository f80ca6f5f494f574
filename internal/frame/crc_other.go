//go:build !amd64 || !gc || purego || noasm

package frame

// Elsewhere hash/crc32 alone computes CRC-32C (with the CRC32C
// instructions on arm64).
const foldCRC = false

const foldMin = 0

func updateFold(crc uint32, p []byte) (uint32, int) { panic("frame: no CRC fold kernel") }
