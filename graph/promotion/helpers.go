package promotion

import (
	"time"
)

// utc is a stored time: UTC at millisecond precision.
func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC().Truncate(time.Millisecond)
	return &u
}
