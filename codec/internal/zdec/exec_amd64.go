//go:build gc && !purego && !noasm

package zdec

// executeFast executes c's sequences in order while each is valid and
// leaves its literals' reads 16 bytes and its output's writes 16 bytes
// from their buffers' ends: the literals and matches in 16-byte words
// (8-byte ones for offsets under 16, offsets under 8 spread first as
// copyMatch does). It advances c.out and c.litPos and returns how many
// it executed; execute's loop, its twin, does the rest and reports
// what is invalid. SSE2 only, which every amd64 machine has.
//
//go:noescape
func executeFast(c *execContext) int
