package customer

import (
	"context"
	"fmt"
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/dialect"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// clientCaller reports whether the request comes through the client-side
// API (/client/v1). Such a caller names a customer by source_id and proves
// nothing, so it may create a customer with a profile but never change the
// profile of one that exists (the profile given is then ignored; rules and
// Segments see the stored one).
func clientCaller(ctx context.Context) bool {
	v, ok := viewer.FromContext(ctx)
	return ok && v.Client
}

// ResolveCustomer finds or creates the customer a request names, and
// applies the profile fields it carries (except for a client-side caller,
// see clientCaller): by id (404 when unknown; source_id
// is then ignored), else by source_id (created when new, in one upsert
// statement, so concurrent requests for a new customer agree on one row),
// else a new customer.
func ResolveCustomer(ctx context.Context, in *CustomerInput) (*ent.Customer, error) {
	if err := ValidateCustomer(in); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case in.ID != nil:
		cust, err := c.Customer.Get(ctx, *in.ID)
		if ent.IsNotFound(err) {
			return nil, apperr.NotFound("customer", *in.ID)
		}
		if err != nil {
			return nil, fmt.Errorf("looking up customer: %w", err)
		}
		return updateProfile(ctx, cust, in)
	case in.SourceID != nil:
		return upsertBySourceID(ctx, c, in)
	}
	return createCustomer(ctx, in)
}

// upsertBySourceID inserts the customer or, when its source_id exists,
// updates the given profile fields of the existing one.
func upsertBySourceID(ctx context.Context, c *ent.Client, in *CustomerInput) (*ent.Customer, error) {
	if entdb.DialectFromContext(ctx) == dialect.SQLite {
		if cust, done, err := readOrInsertBySourceID(ctx, c, in); err != nil || done {
			return cust, err
		}
	}
	newID := customer.DefaultID() // the id returned tells an insert from an update
	id, err := newCustomer(c, in).SetID(newID).
		OnConflictColumns(customer.FieldProjectID, customer.FieldSourceID).
		Update(func(u *ent.CustomerUpsert) {
			if !HasProfile(in) || clientCaller(ctx) {
				u.SetSourceID(*in.SourceID) // a no-op update, so the id is returned
				return
			}
			setProfile(u, in)
			u.SetUpdatedAt(time.Now().UTC().Truncate(time.Millisecond))
		}).
		ID(ctx)
	if err != nil {
		return nil, fmt.Errorf("saving customer: %w", err)
	}
	cust, err := c.Customer.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("reading customer: %w", err)
	}
	if id == newID {
		return cust, emitCustomer(ctx, webhook.EventCustomerCreated, cust)
	}
	return cust, nil
}

// readOrInsertBySourceID is upsertBySourceID on SQLite: a read by
// source_id, then the profile update or a plain insert. A write
// transaction on SQLite runs alone (BEGIN IMMEDIATE, one writer), so
// nothing can insert the source_id between the two; the insert returns the
// entity as written, where the upsert needs RETURNING and a re-read (a
// fifth of a publication's work on SQLite). Outside a transaction another
// writer may win: done is false and the caller upserts.
func readOrInsertBySourceID(ctx context.Context, c *ent.Client, in *CustomerInput) (_ *ent.Customer, done bool, _ error) {
	cust, err := c.Customer.Query().Where(customer.SourceID(*in.SourceID)).Only(ctx)
	if err == nil {
		cust, err = updateProfile(ctx, cust, in)
		return cust, true, err
	}
	if !ent.IsNotFound(err) {
		return nil, false, fmt.Errorf("looking up customer: %w", err)
	}
	cust, err = newCustomer(c, in).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("saving customer: %w", err)
	}
	return cust, true, emitCustomer(ctx, webhook.EventCustomerCreated, cust)
}

// newCustomer is the insert of the customer in (no id: the default).
func newCustomer(c *ent.Client, in *CustomerInput) *ent.CustomerCreate {
	metadata := in.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	create := c.Customer.Create().
		SetNillableSourceID(in.SourceID).SetNillableName(in.Name).SetNillableDescription(in.Description).
		SetNillableEmail(in.Email).SetNillablePhone(in.Phone).SetNillableBirthday(birthday(in)).
		SetMetadata(metadata)
	if in.Address != nil {
		create.SetAddress(in.Address)
	}
	return create
}

// UpsertCustomer serves POST /v1/customers and the upsertCustomer mutation:
// create, or update the customer whose source_id (or id) is given.
func UpsertCustomer(ctx context.Context, in CustomerInput) (*ent.Customer, error) {
	cust, err := ResolveCustomer(ctx, &in)
	if err != nil {
		return nil, err
	}
	if err := RefreshSegments(ctx, cust); err != nil {
		return nil, err
	}
	return cust, nil
}

// RefreshSegments re-evaluates the customer's auto-update segments after a
// profile change, under the customer's lock (as events take it), and hands
// entered segments to the loyalty hook.
func RefreshSegments(ctx context.Context, cust *ent.Customer) error {
	if err := store.LockKey(ctx, "customer:"+cust.ID); err != nil {
		return err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	if cust, err = c.Customer.Get(ctx, cust.ID); err != nil { // as of the lock
		return fmt.Errorf("reading customer: %w", err)
	}
	entered, err := ReevaluateSegments(ctx, cust)
	if err != nil {
		return err
	}
	if len(entered) > 0 {
		return Earning.SegmentsEntered(ctx, cust, entered)
	}
	return nil
}

// ByIDOrSourceID finds a customer by ID or, failing that, by source_id.
func ByIDOrSourceID(ctx context.Context, idOrSourceID string) (*ent.Customer, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	found, err := c.Customer.Query().Where(customer.Or(customer.ID(idOrSourceID), customer.SourceID(idOrSourceID))).Limit(2).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("looking up customer: %w", err)
	}
	return store.PreferExact(found, func(c *ent.Customer) bool { return c.ID == idOrSourceID }, "customer", idOrSourceID)
}

// Connection lists the caller's customers as a Relay connection.
func Connection(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy []*ent.CustomerOrder, where *ent.CustomerWhereInput) (*ent.CustomerConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	q := c.Customer.Query()
	opts := []ent.CustomerPaginateOption{ent.WithCustomerOrder(orderBy), ent.WithCustomerFilter(where.Filter)}
	if where == nil {
		// The project's customers: totalCount off (project_id, created_at,
		// id), an index-only walk, as GET /v1/customers counts; unordered,
		// PostgreSQL scanned the table when the project is most of it.
		all := q.Clone()
		opts = append(opts, ent.WithCustomerTotalCount(func(ctx context.Context) (int, error) {
			return page.ProjectTotal(ctx, customer.Table, ent.TotalCountCap, func(ctx context.Context) (int, error) {
				return all.Clone().Where(page.CountInIndexOrder(true, customer.FieldCreatedAt, customer.FieldID)).
					CountAtMost(ctx, ent.TotalCountCap)
			})
		}))
	}
	return q.Paginate(ctx, after, first, before, last, opts...)
}
