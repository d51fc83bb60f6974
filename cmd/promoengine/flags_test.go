package main

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestFlagParsing: every subcommand prints its usage and succeeds on
// --help, and refuses an unknown flag with errUsage, before it opens the
// database.
func TestFlagParsing(t *testing.T) {
	for _, cmd := range [][]string{
		{"serve"}, {"project", "create"}, {"project", "features"},
		{"migrate"}, {"migrate", "status"}, {"key", "list"}, {"user", "add"},
	} {
		name := strings.Join(cmd, " ")
		t.Run(name, func(t *testing.T) {
			var out, errOut syncBuffer
			args := append(append([]string{}, cmd...), "--help")
			if err := run(context.Background(), args, env(nil), &out, &errOut); err != nil {
				t.Errorf("%s --help: %v", name, err)
			}
			if !strings.Contains(errOut.String(), "-database-url") {
				t.Errorf("%s --help lacks the flags:\n%s", name, errOut.String())
			}
			args = append(append([]string{}, cmd...), "--no-such-flag")
			if err := run(context.Background(), args, env(nil), &out, &errOut); !errors.Is(err, errUsage) {
				t.Errorf("%s --no-such-flag: %v, want errUsage", name, err)
			}
		})
	}
}
