//go:build !amd64 || !gc || purego || noasm

package zdec

// Accelerated reports whether the sequences are decoded and executed in
// assembly: not here.
func Accelerated() bool { return false }

// executeFast leaves every sequence to execute's loop where there is no
// assembly.
func executeFast(c *execContext) int { return 0 }

// decodeFast leaves every sequence to the sequences loop where there is
// no assembly.
func decodeFast(c *decodeContext) int { return 0 }

// hasSSSE3 is executeFast's choice of kernel on amd64; tests set it.
var hasSSSE3 bool

// decodeExecute leaves every sequence to the two passes where there is
// no assembly.
func decodeExecute(dc *decodeContext, ec *execContext) (executed, decoded int) { return 0, 0 }
