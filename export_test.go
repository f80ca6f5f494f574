package blosc2

// Hooks for the tests of package blosc2_test.

// CodecFormat is codecFormat: the flags-byte format number of a codec.
var CodecFormat = codecFormat

// FormatSnappy is the format number of C-Blosc 1.x's Snappy.
const FormatSnappy = formatSnappy
