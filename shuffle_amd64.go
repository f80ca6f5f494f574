//go:build gc && !purego && !noasm

package blosc2

// Assembly kernels are not wired yet: the portable ones stand in.

var archISAs = []isa{isaGeneric}

func archKernels(isa) kernelSet { return genericKernels }
