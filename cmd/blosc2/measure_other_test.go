//go:build !linux

package main

// measureEnv and measureChild serve the hostile-input tests, which run on
// Linux only (they read ru_maxrss).
const measureEnv = "BLOSC2_TEST_MEASURE"

func measureChild([]string) int { return 125 }
