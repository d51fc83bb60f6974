package store

import "fmt"

// WrapErr wraps err with what was being done; nil stays nil.
func WrapErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}
