module github.com/blosc2go/blosc2

go 1.25

require (
	github.com/dsnet/golib v0.0.0-20171103203638-1ea166775780
	github.com/klauspost/compress v1.20.3
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/pierrec/lz4/v4 v4.1.33
	golang.org/x/sys v0.41.0
	golang.org/x/term v0.40.0
)

require github.com/google/go-cmp v0.7.0 // indirect
