package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// setting declares one configuration value once: its environment
// variable, its flag (none for a variable without one), the default shown
// to operators, one line of help, and how it binds to a flag set. The
// tables built from settings (dbConfig.settings, serveConfig.settings,
// allSettings) are the only declaration of the configuration: the flags,
// the environment list of `promoengine help` and the flag help of
// `serve --help` come from them, and a test holds the README's
// configuration table to them.
type setting struct {
	Env, Flag, Default, Help string
	// bind registers the flag, its default read from the environment; an
	// environment value that does not parse is an error naming the
	// variable. Nil for a variable without a flag.
	bind func(fs *flag.FlagSet, getenv func(string) string) error
}

// flagHelp is the flag's usage line: the help and the variable.
func (s setting) flagHelp() string { return s.Help + " (env " + s.Env + ")" }

// stringSetting is a text setting; def "" shows as "unset".
func stringSetting(dst *string, env, name, def, help string) setting {
	s := setting{Env: env, Flag: name, Default: def, Help: help}
	s.bind = func(fs *flag.FlagSet, getenv func(string) string) error {
		fs.StringVar(dst, name, envOr(getenv, env, def), s.flagHelp())
		return nil
	}
	return s
}

// intSetting is a whole-number setting.
func intSetting(dst *int, env, name string, def int, help string) setting {
	s := setting{Env: env, Flag: name, Default: strconv.Itoa(def), Help: help}
	s.bind = func(fs *flag.FlagSet, getenv func(string) string) error {
		v, err := envInt(getenv, env, def)
		if err != nil {
			return err
		}
		fs.IntVar(dst, name, v, s.flagHelp())
		return nil
	}
	return s
}

// durationSetting is a duration setting (Go syntax: 5s, 1m30s).
func durationSetting(dst *time.Duration, env, name string, def time.Duration, help string) setting {
	s := setting{Env: env, Flag: name, Default: def.String(), Help: help}
	s.bind = func(fs *flag.FlagSet, getenv func(string) string) error {
		v, err := envDuration(getenv, env, def)
		if err != nil {
			return err
		}
		fs.DurationVar(dst, name, v, s.flagHelp())
		return nil
	}
	return s
}

// boolSetting is a true/false setting.
func boolSetting(dst *bool, env, name string, def bool, help string) setting {
	s := setting{Env: env, Flag: name, Default: strconv.FormatBool(def), Help: help}
	s.bind = func(fs *flag.FlagSet, getenv func(string) string) error {
		v, err := envBool(getenv, env, def)
		if err != nil {
			return err
		}
		fs.BoolVar(dst, name, v, s.flagHelp())
		return nil
	}
	return s
}

// envOnly is a variable without a flag (secrets that should not appear in
// a process list, or settings read by a library).
func envOnly(env, def, help string) setting { return setting{Env: env, Default: def, Help: help} }

// bindSettings registers the flags of settings on fs.
func bindSettings(fs *flag.FlagSet, getenv func(string) string, settings []setting) error {
	for _, s := range settings {
		if s.bind == nil {
			continue
		}
		if err := s.bind(fs, getenv); err != nil {
			return err
		}
	}
	return nil
}

// bootstrapSettings are read by serve on an empty database only.
func bootstrapSettings() []setting {
	return []setting{
		envOnly("PROMO_BOOTSTRAP_APP_ID", "", "on an empty database, the default project's application key id (generated when unset)"),
		envOnly("PROMO_BOOTSTRAP_APP_TOKEN", "", "… and its token (generated when unset; not printed when set)"),
		envOnly("PROMO_BOOTSTRAP_MANAGEMENT_ID", "", "on an empty database, the management key id (generated when unset)"),
		envOnly("PROMO_BOOTSTRAP_MANAGEMENT_TOKEN", "", "… and its token (generated when unset; not printed when set)"),
	}
}

// allSettings is every configuration variable, in the README's order.
func allSettings() []setting {
	var c serveConfig
	return append(append(c.settings(), bootstrapSettings()...), tracingSettings()...)
}

// writeEnvironment prints the environment list of `promoengine help`.
func writeEnvironment(w io.Writer, settings []setting) {
	fmt.Fprintln(w, "Environment (each with its flag; serve --help shows them with their current values):")
	for _, s := range settings {
		flagName := "(no flag)"
		if s.Flag != "" {
			flagName = "--" + s.Flag
		}
		def := s.Default
		if def == "" {
			def = "unset"
		}
		fmt.Fprintf(w, "  %-32s %s, default %s\n", s.Env, flagName, def)
		fmt.Fprintf(w, "      %s\n", strings.ReplaceAll(s.Help, "\n", "\n      "))
	}
}
