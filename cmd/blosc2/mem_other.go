//go:build !linux

package main

// physicalMemory is the machine's RAM in bytes, 0 if unknown: this command
// reads it on Linux only.
func physicalMemory() int64 { return 0 }
