package clock

import "time"

// Layout is the API's timestamp format: UTC, milliseconds
// (2022-09-30T16:30:32.924Z).
const Layout = "2006-01-02T15:04:05.000Z"

// Format renders a stored time as the API does.
func Format(t time.Time) string { return t.UTC().Format(Layout) }

// Now is the clock of stored timestamps: UTC at millisecond precision,
// so a value reads back exactly as it was written on SQLite and PostgreSQL.
func Now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }
