//go:build !amd64 || !gc || purego || noasm

package zdec

// executeFast leaves every sequence to execute's loop where there is no
// assembly.
func executeFast(c *execContext) int { return 0 }

// decodeFast leaves every sequence to the sequences loop where there is
// no assembly.
func decodeFast(c *decodeContext) int { return 0 }
