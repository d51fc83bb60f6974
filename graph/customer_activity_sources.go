package graph

import (
	"context"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/voucher"
)

// customerActivitySource is one kind of record that shows as customer activities.
type customerActivitySource struct {
	name string
	// prefixes are the ID prefixes of its activities (starting_after_id).
	prefixes []string
	// campaignScoped sources have a campaign and honour the campaign filters.
	campaignScoped bool
	count          func(ctx context.Context, f activityFilter) (int, error)
	page           func(ctx context.Context, f activityFilter, n int) ([]*CustomerActivity, error)
	find           func(ctx context.Context, f activityFilter, id string) (time.Time, bool, error)
}

// customerActivitySources are the sources of cust's activities.
func customerActivitySources(cust *ent.Customer) []customerActivitySource {
	return []customerActivitySource{customerCreatedSource(cust), publicationSource(), redemptionSource(),
		customEventSource(), segmentEntrySource(), referralSource()}
}

// found turns a lookup's result into find's answer.
func found(at time.Time, err error) (time.Time, bool, error) {
	if ent.IsNotFound(err) {
		return time.Time{}, false, nil
	}
	return at, err == nil, err
}

// customerCreatedSource: customer.created, the customer's own row.
func customerCreatedSource(cust *ent.Customer) customerActivitySource {
	act := &CustomerActivity{ID: cust.ID, Type: "customer.created", CreatedAt: cust.CreatedAt,
		Data: map[string]any{"customer": map[string]any{"id": cust.ID, "source_id": cust.SourceID, "name": cust.Name,
			"email": cust.Email, "object": "customer"}}}
	inWindow := func(f activityFilter) bool {
		return (f.from == nil || !act.CreatedAt.Before(*f.from)) && (f.to == nil || !act.CreatedAt.After(*f.to))
	}
	return customerActivitySource{
		name: "customer", prefixes: []string{pulid.PrefixCustomer},
		count: func(_ context.Context, f activityFilter) (int, error) {
			if inWindow(f) {
				return 1, nil
			}
			return 0, nil
		},
		page: func(_ context.Context, f activityFilter, _ int) ([]*CustomerActivity, error) {
			if !inWindow(f) || !f.isAfter(act) {
				return nil, nil
			}
			return []*CustomerActivity{act}, nil
		},
		find: func(_ context.Context, _ activityFilter, id string) (time.Time, bool, error) {
			return act.CreatedAt, id == cust.ID, nil
		},
	}
}

// publicationSource: customer.publication.succeeded (failed publications
// are not stored), filtered by the campaign the request named.
func publicationSource() customerActivitySource {
	query := func(ctx context.Context, f activityFilter) (*ent.PublicationQuery, error) {
		c, err := client(ctx)
		if err != nil {
			return nil, err
		}
		q := c.Publication.Query().Where(publication.CustomerID(f.customerID))
		if f.campaignScoped { // the campaign the request named, or the campaign of a code it gave
			vouchers := []predicate.Voucher{}
			if f.campaignID != nil {
				vouchers = append(vouchers, voucher.CampaignID(*f.campaignID))
			}
			if f.campaignType != nil {
				vouchers = append(vouchers, voucher.HasCampaignWith(campaign.CampaignTypeEQ(*f.campaignType)))
			}
			q.Where(publication.Or(f.campaign(publication.FieldCampaignID), publication.HasVouchersWith(vouchers...)))
		}
		return q, nil
	}
	return customerActivitySource{
		name: "publication", prefixes: []string{pulid.PrefixPublish}, campaignScoped: true,
		count: func(ctx context.Context, f activityFilter) (int, error) {
			q, err := query(ctx, f)
			if err != nil {
				return 0, err
			}
			return q.Where(f.window(publication.FieldCreatedAt)).Count(ctx)
		},
		page: func(ctx context.Context, f activityFilter, n int) ([]*CustomerActivity, error) {
			q, err := query(ctx, f)
			if err != nil {
				return nil, err
			}
			pubs, err := q.Where(f.window(publication.FieldCreatedAt), f.after(publication.FieldCreatedAt, publication.FieldID)).
				Order(f.order(publication.FieldCreatedAt, publication.FieldID)).Limit(n).
				WithVouchers(func(q *ent.VoucherQuery) { q.Select(voucher.FieldCode, voucher.FieldCampaignID) }).All(ctx)
			out := make([]*CustomerActivity, len(pubs))
			for i, p := range pubs {
				codes := make([]map[string]any, len(p.Edges.Vouchers))
				for j, v := range p.Edges.Vouchers {
					codes[j] = map[string]any{"id": v.ID, "code": v.Code, "campaign_id": v.CampaignID, "object": "voucher"}
				}
				out[i] = &CustomerActivity{ID: p.ID, Type: "customer.publication." + publicationOutcome(p.Result), CreatedAt: p.CreatedAt,
					Data: map[string]any{"publication": map[string]any{"id": p.ID, "channel": p.Channel, "source_id": p.SourceID,
						"tracking_id": p.TrackingID, "campaign_id": p.CampaignID, "metadata": orEmptyMap(p.Metadata),
						"vouchers": codes, "result": p.Result, "object": "publication"}}}
			}
			return out, err
		},
		find: func(ctx context.Context, f activityFilter, id string) (time.Time, bool, error) {
			q, err := query(ctx, f)
			if err != nil {
				return time.Time{}, false, err
			}
			p, err := q.Where(publication.ID(id)).Only(ctx)
			if err != nil {
				return found(time.Time{}, err)
			}
			return found(p.CreatedAt, nil)
		},
	}
}

func publicationOutcome(result string) string {
	if result == "SUCCESS" {
		return "succeeded"
	}
	return "failed"
}

// redemptionSource: customer.redemption.succeeded|failed and
// customer.redemption.rollback.succeeded|failed, one per voucher (the parent
// entry of a stacked request is not an activity of its own).
func redemptionSource() customerActivitySource {
	query := func(ctx context.Context, f activityFilter) (*ent.RedemptionQuery, error) {
		c, err := client(ctx)
		if err != nil {
			return nil, err
		}
		return c.Redemption.Query().Where(redemption.CustomerID(f.customerID), redemption.RelatedObjectTypeNEQ("redemption"),
			f.campaign(redemption.FieldCampaignID)), nil
	}
	return customerActivitySource{
		name: "redemption", campaignScoped: true,
		prefixes: []string{pulid.PrefixRedemption, pulid.PrefixRedemptionFailed, pulid.PrefixRollback, pulid.PrefixRollbackFailed},
		count: func(ctx context.Context, f activityFilter) (int, error) {
			q, err := query(ctx, f)
			if err != nil {
				return 0, err
			}
			return q.Where(f.window(redemption.FieldCreatedAt)).Count(ctx)
		},
		page: func(ctx context.Context, f activityFilter, n int) ([]*CustomerActivity, error) {
			q, err := query(ctx, f)
			if err != nil {
				return nil, err
			}
			rows, err := q.Where(f.window(redemption.FieldCreatedAt), f.after(redemption.FieldCreatedAt, redemption.FieldID)).
				Order(f.order(redemption.FieldCreatedAt, redemption.FieldID)).Limit(n).All(ctx)
			out := make([]*CustomerActivity, len(rows))
			for i, r := range rows {
				out[i] = redemptionActivity(r)
			}
			return out, err
		},
		find: func(ctx context.Context, f activityFilter, id string) (time.Time, bool, error) {
			q, err := query(ctx, f)
			if err != nil {
				return time.Time{}, false, err
			}
			r, err := q.Where(redemption.ID(id)).Only(ctx)
			if err != nil {
				return found(time.Time{}, err)
			}
			return found(r.CreatedAt, nil)
		},
	}
}

func redemptionActivity(r *ent.Redemption) *CustomerActivity {
	kind, key := "customer.redemption.", "redemption"
	if r.Object == redemption.ObjectRedemptionRollback {
		kind, key = "customer.redemption.rollback.", "redemption_rollback"
	}
	outcome := "succeeded"
	if r.Result == redemption.ResultFAILURE {
		outcome = "failed"
	}
	entry := map[string]any{"id": r.ID, "object": r.Object.String(), "result": r.Result.String(), "status": r.Status.String(),
		"voucher": map[string]any{"id": r.VoucherID, "code": r.VoucherCode, "object": "voucher"}, "campaign_id": r.CampaignID,
		"amount": r.Amount, "applied_discount_amount": r.AppliedDiscount, "order_id": r.OrderID, "tracking_id": r.TrackingID,
		"metadata": orEmptyMap(r.Metadata)}
	if r.FailureCode != nil {
		entry["failure_code"], entry["failure_message"] = r.FailureCode, r.FailureMessage
	}
	if r.RolledBackID != nil {
		entry["redemption"], entry["reason"] = r.RolledBackID, r.Reason
	}
	return &CustomerActivity{ID: r.ID, Type: kind + outcome, CreatedAt: r.CreatedAt, Data: map[string]any{key: entry}}
}
