package page

import (
	"context"
	"sync"
	"time"

	"github.com/promoengine/promoengine/ent/schema/viewer"
)

// AtCapFor is how long a project's whole list, once counted at the cap,
// is taken to be still at it without counting again (ProjectTotal).
const AtCapFor = 5 * time.Second

// atCap remembers the project lists this process counted at the cap:
// (project, table) → until when the cap is taken for granted.
var atCap = struct {
	sync.Mutex
	until map[totalKey]time.Time
}{until: map[totalKey]time.Time{}}

type totalKey struct{ project, table string }

// ProjectTotal is the capped total of a project's whole list (every row of
// table in the viewer's project, no filter): count's answer, which must be
// capped at limit, except that a list this process counted at the cap in
// the last AtCapFor is answered limit without counting. A capped count
// reads limit+1 index entries on every page of a big project (about half
// a millisecond of PostgreSQL per page at 10,000); a list at the cap stays
// there as rows are added, and leaves it only when rows are deleted, which
// ForgetProjectTotals records for this process (another process's deletes
// show within AtCapFor). Nothing is remembered below the cap, so a small
// list's total is always counted.
func ProjectTotal(ctx context.Context, table string, limit int, count func(context.Context) (int, error)) (int, error) {
	v, ok := viewer.FromContext(ctx)
	if !ok || v.ProjectID == "" {
		return count(ctx)
	}
	key := totalKey{v.ProjectID, table}
	now := time.Now()
	atCap.Lock()
	until, hit := atCap.until[key]
	atCap.Unlock()
	if hit && now.Before(until) {
		return limit, nil
	}
	n, err := count(ctx)
	if err != nil {
		return 0, err
	}
	atCap.Lock()
	defer atCap.Unlock()
	if n < limit {
		delete(atCap.until, key)
		return n, nil
	}
	if len(atCap.until) >= 4096 { // drop what has expired before growing
		for k, u := range atCap.until {
			if !now.Before(u) {
				delete(atCap.until, k)
			}
		}
	}
	atCap.until[key] = now.Add(AtCapFor)
	return n, nil
}

// ForgetProjectTotals drops what ProjectTotal remembers of the viewer's
// project's lists of tables: called where rows of them are deleted, so
// that this process counts them again on the next page.
func ForgetProjectTotals(ctx context.Context, tables ...string) {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return
	}
	atCap.Lock()
	defer atCap.Unlock()
	for _, t := range tables {
		delete(atCap.until, totalKey{v.ProjectID, t})
	}
}

// ForgetAllProjectTotals drops everything ProjectTotal remembers (tests
// that count the same big project's lists page after page).
func ForgetAllProjectTotals() {
	atCap.Lock()
	defer atCap.Unlock()
	clear(atCap.until)
}

// PageTotal is a v1 page's total: what the page itself proves when it is
// shorter than limit and holds rows (offset + its rows, counting nothing:
// a short list's page 1, a voucher's redemptions), else count's answer.
// count must be the count of the same filter the page read.
func PageTotal(ctx context.Context, offset, limit, rows int, count func(context.Context) (int, error)) (int, error) {
	if rows < limit && (rows > 0 || offset == 0) {
		return offset + rows, nil
	}
	return count(ctx)
}
