//go:build !(amd64 || arm64) || !gc || purego || noasm

package blosc2

// Without assembly only the portable kernels exist.

var archISAs = []isa{isaGeneric}

func archKernels(isa) kernelSet { return genericKernels }
