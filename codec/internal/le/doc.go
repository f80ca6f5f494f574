// Package le loads and stores little-endian words, and indexes hash
// tables, for the encoders' hot loops (codec's LZ4, zenc's match finders
// and entropy coders): without a bounds check where the machine allows
// it, checked under the purego and noasm tags, which CI tests too.
package le
