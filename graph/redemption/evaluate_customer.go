package redemption

// The customer an evaluation reads (or upserts) and the one a validation
// checks rules against (evaluate.go runs the evaluation).

import (
	"context"
	"errors"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/graph/apperr"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// customerToRead is the customer a validation names, for the voucher
// look-up to read along (nil for a redemption, or without a customer).
func (e *evaluation) customerToRead(upsert bool) *customerRef {
	in := e.req.customer
	switch {
	case upsert || in == nil:
		return nil
	case in.ID != nil:
		return &customerRef{byID: true, value: *in.ID}
	case in.SourceID != nil:
		return &customerRef{value: *in.SourceID}
	}
	return nil
}

// loadCustomer finds the request's customer. A redemption creates or
// updates it (by source_id, like every other write); a validation only
// looks it up — the voucher look-up has read it when it found a voucher —
// and an unknown source_id is then just a tracking id.
func (e *evaluation) loadCustomer(ctx context.Context, upsert bool) error {
	in := e.req.customer
	if in == nil {
		e.trackingID = trackingIDFor(e.req.trackingID, nil)
		return nil
	}
	if upsert {
		cust, err := customerpkg.ResolveCustomer(ctx, in)
		if err != nil {
			return err
		}
		e.customer = cust
	} else if in.ID != nil || in.SourceID != nil {
		cust, err := e.validationCustomer(ctx)
		switch {
		case ent.IsNotFound(err) && in.ID != nil:
			return apperr.NotFound("customer", *in.ID)
		case ent.IsNotFound(err):
		case err != nil:
			return fmt.Errorf("looking up customer: %w", err)
		default:
			e.customer = cust
		}
	}
	sourceID := in.SourceID
	if e.customer != nil && e.customer.SourceID != nil {
		sourceID = e.customer.SourceID
	}
	e.trackingID = trackingIDFor(e.req.trackingID, sourceID)
	return nil
}

// errCustomerNotRead: a guarded redemption's look-up found no voucher row
// to carry its customer; the transactional path answers it.
var errCustomerNotRead = errors.New("redemption: the customer was not read with the vouchers")

// planCustomer is loadCustomer for a guarded redemption (redeemGuarded):
// the customer named by source_id was read with the vouchers and their
// versions, and the upsert ResolveCustomer would run is worked out from
// that read (customerpkg.PlanUpsertBySourceID) and written in the
// redemption's statement, guarded by the row's version or, for a new
// customer, by the (project, source_id) unique index. Rules and the
// stored rows see the customer as the upsert leaves it. An error sends
// the request down the transactional path, which answers it.
func (e *evaluation) planCustomer(ctx context.Context) error {
	in := e.req.customer
	if in == nil {
		e.trackingID = trackingIDFor(e.req.trackingID, nil)
		return nil
	}
	if !e.customerRead {
		return errCustomerNotRead
	}
	plan, err := customerpkg.PlanUpsertBySourceID(ctx, in, e.readCustomer, e.readCustomerVersion)
	if err != nil {
		return err
	}
	e.customer, e.customerPlan = plan.Customer, plan
	e.trackingID = trackingIDFor(e.req.trackingID, plan.Customer.SourceID)
	return nil
}

// validationCustomer is the customer a validation names, as the voucher
// look-up read it, or read now when the look-up had no voucher row to
// carry it. ent's not-found error passes through.
func (e *evaluation) validationCustomer(ctx context.Context) (*ent.Customer, error) {
	if e.customerRead {
		if e.readCustomer == nil {
			return nil, &ent.NotFoundError{}
		}
		return e.readCustomer, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	in := e.req.customer
	q := c.Customer.Query()
	if in.ID != nil {
		q = q.Where(customer.ID(*in.ID))
	} else {
		q = q.Where(customer.SourceID(*in.SourceID))
	}
	return q.Only(ctx)
}
