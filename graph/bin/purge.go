package bin

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// Retention is how long a bin entry is kept before the purge deletes it
// for good (the real service's bin keeps deleted resources 30 days).
const Retention = 30 * 24 * time.Hour

// PurgeEvery is how often each worker runs the purge.
const PurgeEvery = time.Hour

// Purge deletes every project's bin entries older than Retention at now
// and reports how many went, but not one whose restore job runs. One
// DELETE (the database cascades to a campaign entry's voucher records):
// safe for several workers at once, cheap when nothing is due (created_at
// index). Its ctx carries the
// ent client (the job worker's sweep context).
func Purge(ctx context.Context, now time.Time) (int, error) {
	c := ent.FromContext(ctx)
	if c == nil {
		return 0, fmt.Errorf("purging the bin: no ent client in context")
	}
	n, err := c.BinEntry.Delete().Where(binentry.CreatedAtLT(now.Add(-Retention)),
		binentry.StateNEQ(binentry.StateRESTORING)).Exec(viewer.NewSystemContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("purging the bin: %w", err)
	}
	return n, nil
}
