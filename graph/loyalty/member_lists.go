package loyalty

import (
	"context"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// memberRowQuery is what a member keyset list needs of an ent query
// builder (*ent.OrderPaymentQuery, *ent.RewardPurchaseQuery, …): Q is the
// builder itself, T its row, P its predicate, O its order option.
type memberRowQuery[T any, P ~func(*sql.Selector), O ~func(*sql.Selector), Q any] interface {
	Where(...P) Q
	Order(...O) Q
	Limit(int) Q
	Only(context.Context) (T, error)
	All(context.Context) ([]T, error)
}

// MemberKeyset is one of a member's rows of a kind, for memberRows.
type MemberKeyset[T any, P ~func(*sql.Selector), O ~func(*sql.Selector), Q memberRowQuery[T, P, O, Q]] struct {
	// query starts a query of the kind.
	Query func(*ent.Client) Q
	// byID selects the row with an id (the cursor's row).
	ByID func(string) P
	// scope selects the member's rows (and any filter of the list).
	Scope []P
	// createdAt is a row's creation time (the keyset's first column).
	CreatedAt func(T) time.Time
}

// MemberRows reads one keyset page (keyset.go) of a member's rows: 404
// for an unknown program or member, then the rows of k.scope after the
// page's cursor row, in the page's order.
func MemberRows[T any, P ~func(*sql.Selector), O ~func(*sql.Selector), Q memberRowQuery[T, P, O, Q]](
	ctx context.Context, programID, memberID string, p loyaltybase.PageInput, k MemberKeyset[T, P, O, Q]) ([]T, bool, error) {
	if _, err := loyaltybase.Member(ctx, programID, memberID); err != nil {
		return nil, false, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, false, err
	}
	return loyaltybase.KeysetPage(p, func(after string) (time.Time, error) {
		r, err := k.Query(c).Where(append([]P{k.ByID(after)}, k.Scope...)...).Only(ctx)
		if err != nil {
			return time.Time{}, err
		}
		return k.CreatedAt(r), nil
	}, func(keys []P, order []O, n int) ([]T, error) {
		return k.Query(c).Where(k.Scope...).Where(keys...).Order(order...).Limit(n).All(ctx)
	})
}
