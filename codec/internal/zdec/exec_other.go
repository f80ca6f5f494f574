//go:build !amd64 || !gc || purego || noasm

package zdec

// executeFast leaves every sequence to execute's loop where there is no
// assembly.
func executeFast(c *execContext) int { return 0 }
