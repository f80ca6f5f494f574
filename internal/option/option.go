// Package option applies functional options, the one option style of the
// module's packages: NewWriter(w, ...WriterOption), NewReader(r,
// ...ReaderOption), each option a func that validates its argument and
// fails the constructor.
package option

// Apply runs opts on o in order and returns the first error.
func Apply[O any, F ~func(*O) error](o *O, opts []F) error {
	for _, f := range opts {
		if err := f(o); err != nil {
			return err
		}
	}
	return nil
}
