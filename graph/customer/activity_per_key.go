package customer

import (
	"context"
	"time"
)

// perKey completes src as the union of one source per key that keys
// returns for the request (the cards a customer holds): each part reads
// its own page off its own index in list order, and ListActivities merges
// them with the other sources' pages. The cost is the number of keys times
// a page, whatever the size of each part.
func perKey(src customerActivitySource, keys func(context.Context, activityFilter) ([]string, error),
	part func(key string) customerActivitySource) customerActivitySource {
	parts := func(ctx context.Context, f activityFilter) ([]customerActivitySource, error) {
		ks, err := keys(ctx, f)
		if err != nil {
			return nil, err
		}
		out := make([]customerActivitySource, len(ks))
		for i, k := range ks {
			out[i] = part(k)
		}
		return out, nil
	}
	src.count = func(ctx context.Context, f activityFilter, atMost int) (int, error) {
		ps, err := parts(ctx, f)
		total := 0
		for _, p := range ps {
			if err != nil || total >= atMost {
				break
			}
			var n int
			n, err = p.count(ctx, f, atMost-total)
			total += n
		}
		return total, err
	}
	src.page = func(ctx context.Context, f activityFilter, n int) ([]*CustomerActivity, error) {
		ps, err := parts(ctx, f)
		var out []*CustomerActivity
		for _, p := range ps {
			if err != nil {
				break
			}
			var rows []*CustomerActivity
			rows, err = p.page(ctx, f, n)
			out = append(out, rows...)
		}
		return out, err
	}
	src.find = func(ctx context.Context, f activityFilter, id string) (time.Time, bool, error) {
		ps, err := parts(ctx, f)
		if err != nil {
			return time.Time{}, false, err
		}
		for _, p := range ps {
			if at, ok, err := p.find(ctx, f, id); err != nil || ok {
				return at, ok, err
			}
		}
		return time.Time{}, false, nil
	}
	return src
}
