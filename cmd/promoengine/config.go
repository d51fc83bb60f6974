package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"
)

// dbConfig holds the database settings every subcommand shares.
type dbConfig struct {
	DatabaseURL string
	LogLevel    string
	// AutoMigrate is PROMO_AUTO_MIGRATE: "true" applies pending migrations
	// at start, "false" refuses to start on a database behind the code,
	// "" means true on the embedded SQLite and false on PostgreSQL.
	AutoMigrate string
}

// envOr returns the environment value of key, or def when it is unset.
func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

// envInt returns the integer environment value of key, or def when it is
// unset; a value that is not a whole number is an error naming the variable.
func envInt(getenv func(string) string, key string, def int) (int, error) {
	v := getenv(key)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q is not a whole number", key, v)
	}
	return n, nil
}

// envDuration returns the duration environment value of key (Go syntax:
// 5s, 1m30s; a bare 0 is zero), or def when it is unset; any other value
// is an error naming the variable.
func envDuration(getenv func(string) string, key string, def time.Duration) (time.Duration, error) {
	v := getenv(key)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s=%q is not a duration such as 5s", key, v)
	}
	return d, nil
}

// envBool returns the boolean environment value of key (true/false, 1/0,
// t/f), or def when it is unset; any other value is an error naming the
// variable.
func envBool(getenv func(string) string, key string, def bool) (bool, error) {
	v := getenv(key)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q is not true or false", key, v)
	}
	return b, nil
}

// settings declares the shared settings (the table of settings.go).
func (c *dbConfig) settings() []setting {
	return []setting{
		stringSetting(&c.DatabaseURL, "PROMO_DATABASE_URL", "database-url", "",
			"database URL: postgres://… for PostgreSQL; unset: embedded SQLite at ./promoengine.db; sqlite://PATH or file:PATH: another SQLite file"),
		stringSetting(&c.LogLevel, "PROMO_LOG_LEVEL", "log-level", "info", "log level: debug, info, warn or error"),
		stringSetting(&c.AutoMigrate, "PROMO_AUTO_MIGRATE", "auto-migrate", "",
			"apply pending schema migrations at start: true or false; unset: true on SQLite, false on PostgreSQL, where a database behind the binary is refused (run migrate up)"),
	}
}

// bind registers the shared flags, defaulting to the environment.
func (c *dbConfig) bind(fs *flag.FlagSet, getenv func(string) string) {
	_ = bindSettings(fs, getenv, c.settings()) // text settings never fail
}

// autoMigrate resolves AutoMigrate for the opened database's dialect.
func (c *dbConfig) autoMigrate(dialect string) (bool, error) {
	def := dialect != "postgres"
	return envBool(func(string) string { return c.AutoMigrate }, "PROMO_AUTO_MIGRATE", def)
}

// logger returns a JSON slog logger at the configured level.
func (c *dbConfig) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(strings.ToUpper(c.LogLevel))); err != nil {
		return nil, fmt.Errorf("invalid log level %q: %w", c.LogLevel, err)
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})), nil
}

// redactURL hides the password of a database URL for logs.
func redactURL(u string) string {
	at := strings.LastIndex(u, "@")
	scheme := strings.Index(u, "://")
	if at < 0 || scheme < 0 {
		return u
	}
	creds := u[scheme+3 : at]
	if i := strings.IndexByte(creds, ':'); i >= 0 {
		return u[:scheme+3] + creds[:i] + ":***" + u[at:]
	}
	return u
}

// splitList splits a comma-separated setting, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
