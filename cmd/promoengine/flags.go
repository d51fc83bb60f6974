package main

import (
	"errors"
	"flag"
)

// parseFlags parses args into fs (made with flag.ContinueOnError, which
// has already printed any complaint). ok is false when the command should
// stop with err: nil after -h/--help printed the usage, errUsage for a bad
// flag.
func parseFlags(fs *flag.FlagSet, args []string) (ok bool, err error) {
	switch err := fs.Parse(args); {
	case err == nil:
		return true, nil
	case errors.Is(err, flag.ErrHelp):
		return false, nil
	default:
		return false, errUsage
	}
}
