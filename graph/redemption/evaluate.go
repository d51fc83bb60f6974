package redemption

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/sessionlock"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/catalog"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption/stacking"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
)

// evaluation is one validation or redemption request being worked out:
// the vouchers it names, their checks, and the stacked calculation.
type evaluation struct {
	req        *redemptionRequest
	customer   *ent.Customer // nil: no customer, or (validation) one not stored yet
	trackingID *string
	now        time.Time
	// sessionKey is the caller's own session: its locks do not count
	// against it.
	sessionKey string
	states     []*redeemableState
	order      *discount.Order
	rules      discount.Rules
	outcomes   []discount.Outcome
	valid      bool

	// customerRead: the voucher look-up also read the customer a
	// validation names; readCustomer is it (nil: no such customer).
	customerRead bool
	readCustomer *ent.Customer
	// readCustomerVersion is readCustomer's row version (redeemGuarded).
	readCustomerVersion string
	// customerPlan is a guarded redemption's customer upsert, written in
	// its statement (evaluate_customer.go).
	customerPlan *customerpkg.UpsertPlan
	// webhooksKnownAbsent: the voucher look-up found no active webhook in
	// the project (see eventContext).
	webhooksKnownAbsent bool

	segments       []string
	segmentsLoaded bool
	// tiers is the project's tier snapshot a qualification reads its
	// tiers from (nil: SQL; graph/redemption/tiersnapshot).
	tiers *tiersnapshot.TierSnapshot
	// storedOrder is the existing order the request names (nil: a new one).
	storedOrder *ent.Order
	// cart is what the catalogue knows of the request's lines, index-aligned
	// with them (nil: no redeemable has rules; cart_rules.go).
	cart []catalog.CartLine
	// countErr is the first error of a rule count read (rule_counts.go).
	countErr error
}

// evalMode says what the caller does with an evaluation.
type evalMode int

const (
	// readOnly: a validation; nothing is locked or written.
	readOnly evalMode = iota
	// lockVouchers: a validation taking a session lock; the vouchers are
	// locked so the lock is taken on the state that was checked.
	lockVouchers
	// redeem: a redemption; the vouchers are locked and the customer is
	// created or updated.
	redeem
	// redeemGuarded: a redemption written in one statement
	// (statement.go): nothing is locked, the vouchers are read
	// with their row versions, and the writes happen only if the rows are
	// still those versions. A customer named by source_id is read with
	// the vouchers and its upsert joins the write (planCustomer).
	redeemGuarded
)

// evaluate checks every redeemable and runs the stacked calculation. The
// vouchers are locked in modes lockVouchers and redeem (see loadVouchers).
func evaluate(ctx context.Context, req *redemptionRequest, mode evalMode) (*evaluation, error) {
	lock := mode == lockVouchers || mode == redeem
	rules, err := stacking.ProjectRules(ctx)
	if err != nil {
		return nil, err
	}
	if len(req.redeemables) > rules.RedeemablesLimit {
		return nil, apperr.InvalidPayload("Property .redeemables must NOT have more than %d items (the project's redeemables_limit)", rules.RedeemablesLimit)
	}
	e := &evaluation{req: req, now: clock.Now(), rules: rules}
	if req.session != nil && req.session.Key != nil {
		e.sessionKey = *req.session.Key
	}
	if err := e.expandStack(ctx); err != nil { // tiers.go
		return nil, err
	}
	// A redemption creates or updates its customer first; a validation
	// reads it with the vouchers (customerToRead), in the same statement.
	upsert := mode == redeem
	if upsert {
		if err := e.loadCustomer(ctx, true); err != nil {
			return nil, err
		}
	}
	if err := e.loadStoredOrder(ctx, upsert); err != nil {
		return nil, err
	}
	if err := e.loadVouchers(ctx, lock, mode == redeemGuarded, e.customerToRead(upsert)); err != nil {
		return nil, err
	}
	if err := e.loadTiers(ctx, lock); err != nil { // tiers.go
		return nil, err
	}
	switch {
	case mode == redeemGuarded:
		if err := e.planCustomer(ctx); err != nil {
			return nil, err
		}
	case !upsert:
		if err := e.loadCustomer(ctx, false); err != nil {
			return nil, err
		}
	}
	if err := e.loadRules(ctx); err != nil {
		return nil, err
	}
	if err := e.loadCart(ctx); err != nil { // cart_rules.go
		return nil, err
	}
	if err := e.loadUnitPrices(ctx); err != nil { // unit_prices.go
		return nil, err
	}
	if err := e.loadCategories(ctx); err != nil { // categories.go
		return nil, err
	}
	// The starting order: rules check it before Stack applies discounts to it.
	order, err := e.startOrder()
	if err != nil {
		return nil, err
	}
	e.order = order
	for _, s := range e.states {
		if err := e.checkRedeemable(ctx, s); err != nil {
			return nil, err
		}
	}
	if err := e.loadBudgets(ctx, mode == redeem, e.states); err != nil { // unit_budgets.go
		return nil, err
	}
	cands := make([]discount.Candidate, len(e.states))
	for i, s := range e.states {
		cands[i] = e.candidateOf(s) // formulas.go
	}
	e.outcomes, e.valid = discount.Stack(e.order, e.rules, cands)
	return e, nil
}

// loadVouchers finds each redeemable's voucher (by code, or ID) with its
// campaign and whether it has rules (lookupVouchers: one statement). When
// lock is set, the rows are locked by that same query (FOR UPDATE, in ID
// order, so that concurrent requests naming the same vouchers in any order
// cannot deadlock; SQLite runs one writer at a time), and every later check
// reads the locked state. version reads the rows' versions instead
// (redeemGuarded).
func (e *evaluation) loadVouchers(ctx context.Context, lock, version bool, cust *customerRef) error {
	codes := make([]string, 0, len(e.req.redeemables))
	for _, r := range e.req.redeemables {
		if redeemableObject(r) == "voucher" {
			codes = append(codes, r.ID)
		}
	}
	var res lookupResult
	if len(codes) > 0 { // only tiers: the customer is read on its own (loadCustomer)
		var err error
		if res, err = lookupVouchers(ctx, codes, lock, version, cust, e.now); err != nil {
			return err
		}
	}
	found := res.vouchers
	e.customerRead, e.readCustomer, e.readCustomerVersion = res.customerRead, res.customer, res.customerVersion
	byCode, byID := map[string]*ent.Voucher{}, map[string]*ent.Voucher{}
	read := map[string]*lookedUpVoucher{}
	e.webhooksKnownAbsent = len(found) > 0
	for i, f := range found {
		e.webhooksKnownAbsent = e.webhooksKnownAbsent && !f.webhooks
		byCode[f.voucher.Code], byID[f.voucher.ID] = f.voucher, f.voucher
		read[f.voucher.ID] = &found[i]
	}
	e.states = make([]*redeemableState, len(e.req.redeemables))
	var ids []string
	for i, r := range e.req.redeemables {
		if redeemableObject(r) != "voucher" {
			e.states[i] = &redeemableState{input: r}
			continue
		}
		v := byCode[r.ID]
		if v == nil {
			v = byID[r.ID]
		}
		e.states[i] = &redeemableState{input: r, voucher: v}
		if v != nil {
			f := read[v.ID]
			e.states[i].hasRules, e.states[i].version = f.hasRules, f.version
			if f.readAlong {
				e.states[i].read = f
			}
		}
		if v != nil {
			if slices.Contains(ids, v.ID) {
				// The same voucher by its code and by its ID.
				return apperr.New(http.StatusBadRequest, "duplicated_redeemables", "Duplicated redeemables detected",
					"Duplicated redeemables detected in one redemption: "+v.Code)
			}
			ids = append(ids, v.ID)
		}
	}
	return nil
}

// heldAmounts is what other sessions' unexpired locks hold on a voucher.
type heldAmounts struct{ units, credits, points int64 }

// heldOn is heldByOthers for s: as the guarded look-up read it along,
// when it did (that request has no session of its own).
func (e *evaluation) heldOn(ctx context.Context, s *redeemableState) (heldAmounts, error) {
	if s.read != nil && s.read.heldRead && e.sessionKey == "" {
		return s.read.held, nil
	}
	return e.heldByOthers(ctx, s.voucher)
}

// heldByOthers sums the unexpired locks of other sessions on v. Vouchers
// with nothing to run out of (unlimited discount codes) skip the query.
func (e *evaluation) heldByOthers(ctx context.Context, v *ent.Voucher) (heldAmounts, error) {
	var h heldAmounts
	if v.RedemptionQuantity == nil && v.Type == "DISCOUNT_VOUCHER" {
		return h, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return h, err
	}
	q := c.SessionLock.Query().Where(sessionlock.VoucherID(v.ID), sessionlock.ExpiresAtGT(e.now))
	if e.sessionKey != "" {
		q = q.Where(sessionlock.KeyNEQ(e.sessionKey))
	}
	locks, err := q.All(ctx)
	if err != nil {
		return h, fmt.Errorf("reading session locks: %w", err)
	}
	for _, l := range locks {
		h.units++
		h.credits += l.Credits
		h.points += l.Points
	}
	return h, nil
}
