// Package fuzz (internal: it exports nothing) holds the fuzz targets that cross package boundaries: the
// stream Reader over arbitrary bytes (frame parsing, index, chunks, all at
// once) and the stream round trip under random options. Targets for one
// package's decoder sit next to that package's code.
//
//	go test -fuzz FuzzChunkReader ./internal/fuzz
package fuzz
