//go:build !unix

package safefile

const (
	noFollow = 0
	nonBlock = 0
)

func isLinkErr(error) bool { return false }
