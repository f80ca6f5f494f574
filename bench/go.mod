module github.com/blosc2go/blosc2/bench

go 1.25

require (
	github.com/blosc2go/blosc2 v0.0.0
	github.com/klauspost/compress v1.20.3
	github.com/klauspost/pgzip v1.3.0
	github.com/pierrec/lz4/v4 v4.1.33
)

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/blosc2go/blosc2 => ../
