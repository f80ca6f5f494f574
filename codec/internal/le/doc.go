// Package le loads and stores little-endian words for the encoders' hot loops
// (codec's LZ4, zenc's match finders): without a bounds check where the
// machine allows it, checked under the purego and noasm tags, which CI
// tests too.
package le
