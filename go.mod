module github.com/blosc2go/blosc2

go 1.25

require (
	github.com/klauspost/compress v1.20.3
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/pierrec/lz4/v4 v4.1.33
)

require golang.org/x/sys v0.41.0
