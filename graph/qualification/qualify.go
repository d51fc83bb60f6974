package qualification

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/redemption"
	"github.com/promoengine/promoengine/graph/redemption/tiersnapshot"
)

// evalChunk is how many candidates one evaluation pass checks when the
// page is newest first: a pass stops the request once the page is full.
const evalChunk = 100

// Result is the answer of a qualification (reference §5.3).
type Result struct {
	Redeemables   *Page   `json:"redeemables"`
	TrackingID    *string `json:"tracking_id,omitempty"`
	Order         any     `json:"order"`
	StackingRules any     `json:"stacking_rules"`
}

// Page is the redeemables list: total is the page's size.
type Page struct {
	Object            string           `json:"object"`
	DataRef           string           `json:"data_ref"`
	Data              []map[string]any `json:"data"`
	Total             int              `json:"total"`
	HasMore           bool             `json:"has_more"`
	MoreStartingAfter *string          `json:"more_starting_after,omitempty"`
}

// picked is a candidate that belongs to the answer.
type picked struct {
	cand     candidate
	q        *redemption.Qualified
	outcome  *redemption.QualifyOutcome // the evaluation of q
	discount int64
	entry    map[string]any // a stack's entry, rendered by its validation
}

// Qualify serves POST /v1/qualifications, its client form and the
// GraphQL qualifications: the redeemables of the scenario that fit the
// customer and the order, a page of them. Nothing is written.
func Qualify(ctx context.Context, in Input) (*Result, error) {
	r, err := in.check()
	if err != nil {
		return nil, err
	}
	sc := scenarios[r.scenario]
	if !sc.stacks && store.IsPostgres(ctx) {
		// One admission for the whole request, as a validation takes one
		// (a stack's validation takes its own).
		release, err := store.Admit(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	if sc.tiers && !sc.stacks {
		// The tiers, their rules and categories from memory while the
		// project's qualification version is unchanged (nil: SQL).
		if r.tiers, err = tiersnapshot.CurrentTierSnapshot(ctx); err != nil {
			return nil, err
		}
	}
	now := clock.Now()
	cands, truncated, err := r.candidates(ctx, sc, now)
	if err != nil {
		return nil, err
	}
	var picks []picked
	var base *redemption.QualifyOutcome
	evaluated := 0
	if sc.stacks {
		picks, err = r.qualifyStacks(ctx, cands)
		evaluated = len(cands)
	} else {
		picks, evaluated, base, err = r.qualifyEach(ctx, sc, cands)
	}
	if err != nil {
		return nil, err
	}
	if base == nil {
		// No candidate was evaluated: the request-wide part (customer,
		// order, stacking rules) and its errors come from an evaluation
		// of none.
		if base, err = redemption.Qualify(ctx, r.evalInput(nil, sc)); err != nil {
			return nil, err
		}
	}
	truncated = truncated || evaluated < len(cands)
	res := &Result{TrackingID: base.TrackingID, Order: base.Order, StackingRules: base.StackingRules}
	res.Redeemables, err = r.page(ctx, picks, truncated, cands[:evaluated])
	return res, err
}

// evalInput is the evaluation's input for some candidates.
func (r *request) evalInput(cands []candidate, sc scenario) redemption.QualifyInput {
	in := redemption.QualifyInput{Customer: r.in.Customer, Order: r.in.Order, TrackingID: r.in.TrackingID,
		Metadata: r.in.Metadata, Omit: sc.omit, Tiers: r.tiers, DeferViews: true}
	for _, c := range cands {
		object, id := c.evaluated()
		in.Candidates = append(in.Candidates, &redemption.RedeemableInput{Object: &object, ID: id})
	}
	return in
}

// candidates are the scenario's candidates that pass the filters, newest
// first, at most MaxCandidates; truncated says more were left out.
func (r *request) candidates(ctx context.Context, sc scenario, now time.Time) ([]candidate, bool, error) {
	var lists [][]candidate
	truncated := false
	add := func(l []candidate, err error, max int) error {
		if len(l) > max {
			l, truncated = l[:max], true
		}
		lists = append(lists, l)
		return err
	}
	if sc.tiers {
		l, err := tierCandidates(ctx, r.tiers, now, r.startingAfter)
		if err := add(l, err, MaxCandidates); err != nil {
			return nil, false, err
		}
	}
	if cust := r.in.Customer; sc.vouchers && cust != nil && (cust.ID != nil || cust.SourceID != nil) && !r.in.WithoutHeldVouchers {
		l, err := heldVoucherCandidates(ctx, cust.ID, cust.SourceID, now, r.startingAfter)
		if err := add(l, err, MaxCandidates); err != nil {
			return nil, false, err
		}
	}
	if sc.generic && !r.in.WithoutHeldVouchers {
		l, err := genericVoucherCandidates(ctx, now, r.startingAfter)
		if err := add(l, err, MaxCandidates); err != nil {
			return nil, false, err
		}
	}
	if sc.campaigns && r.tiers.MayHaveCodeCampaigns() { // the snapshot knows when there are none
		holder := r.in.Customer
		if r.in.WithoutHeldVouchers {
			// A page that may not list codes must not learn which
			// campaigns the customer holds a code of either: every
			// campaign is listed as if the customer held none.
			holder = nil
		}
		l, err := campaignCandidates(ctx, holder, now, r.startingAfter) // campaigns.go
		if err := add(l, err, MaxCandidates); err != nil {
			return nil, false, err
		}
	}
	if sc.stacks {
		l, err := stackCandidates(ctx, now, r.startingAfter)
		if err := add(l, err, MaxStacks); err != nil {
			return nil, false, err
		}
	}
	all := newestFirst(lists...)
	if len(all) > MaxCandidates {
		all, truncated = all[:MaxCandidates], true
	}
	if r.filter.none() {
		return all, truncated, nil
	}
	kept := all[:0:0]
	for _, c := range all {
		if r.filter.matches(c.values()) {
			kept = append(kept, c)
		}
	}
	return kept, truncated, nil
}

// qualifyEach evaluates tiers, vouchers and campaigns in passes of
// evalChunk (all at once when the page is sorted by discount) and keeps
// those the scenario keeps; it returns how many candidates it evaluated
// and the first pass's outcome (nil: none ran). A campaign without a
// representative code counts as evaluated and is not listed.
func (r *request) qualifyEach(ctx context.Context, sc scenario, cands []candidate) ([]picked, int, *redemption.QualifyOutcome, error) {
	var picks []picked
	var first *redemption.QualifyOutcome
	chunk := evalChunk
	if r.sorting != SortDefault {
		chunk = len(cands)
	}
	done := 0
	for done < len(cands) {
		if r.sorting == SortDefault && len(picks) > r.limit {
			break
		}
		pass := cands[done:min(done+chunk, len(cands))]
		batch, err := withRepresentatives(ctx, pass, clock.Now()) // campaigns.go
		if err != nil {
			return nil, 0, nil, err
		}
		done += len(pass)
		if len(batch) == 0 {
			continue
		}
		out, err := redemption.Qualify(ctx, r.evalInput(batch, sc))
		if err != nil {
			return nil, 0, nil, err
		}
		if first == nil {
			first = out
		}
		for i, q := range out.Items {
			if sc.keeps(q, out.CartItems) {
				picks = append(picks, picked{cand: batch[i], q: q, outcome: out, discount: q.Discount})
			}
		}
	}
	return picks, done, first, nil
}

// page sorts the picks, cuts the page at limit and renders it.
func (r *request) page(ctx context.Context, picks []picked, truncated bool, evaluated []candidate) (*Page, error) {
	switch r.sorting {
	case SortBestDeal:
		slices.SortStableFunc(picks, func(a, b picked) int { return cmp.Compare(b.discount, a.discount) })
	case SortLeastDeal:
		slices.SortStableFunc(picks, func(a, b picked) int { return cmp.Compare(a.discount, b.discount) })
	}
	p := &Page{Object: "list", DataRef: "data", Data: []map[string]any{}}
	more := len(picks) > r.limit
	if more {
		picks = picks[:r.limit]
	}
	p.HasMore = more || truncated
	if p.HasMore {
		// The next page starts after the last item shown (newest first)
		// or, when the page is sorted by discount or the evaluation was
		// capped, after the last candidate evaluated.
		var last time.Time
		switch {
		case more && r.sorting == SortDefault:
			last = picks[len(picks)-1].cand.createdAt
		case len(evaluated) > 0:
			last = evaluated[len(evaluated)-1].createdAt
		}
		if !last.IsZero() {
			s := clock.Format(last)
			p.MoreStartingAfter = &s
		}
	}
	for _, p := range picks {
		if p.q == nil {
			continue
		}
		// Only the page's entries are rendered.
		p.q.Render()
		if cmp := p.cand.campaign; cmp != nil {
			// The campaign's category, not its code's own.
			p.q.Categories = p.outcome.CategoriesView(cmp.Edges.AssignedCategory)
		}
	}
	if err := r.addLockedCredits(ctx, picks, clock.Now()); err != nil {
		return nil, err
	}
	data, err := r.entries(ctx, picks)
	if err != nil {
		return nil, err
	}
	p.Data, p.Total = data, len(data)
	return p, nil
}
