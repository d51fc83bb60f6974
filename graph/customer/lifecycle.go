package customer

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/card"
	"github.com/promoengine/promoengine/ent/consentchange"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/customerconsent"
	"github.com/promoengine/promoengine/ent/customereventcount"
	"github.com/promoengine/promoengine/ent/customevent"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/publication"
	"github.com/promoengine/promoengine/ent/segmentmember"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// UpdateCustomer changes the profile of the customer named by id or
// source_id (REST PUT /v1/customers/{customerId}): only the properties
// given change; id and source_id in the input are ignored. Segments are
// re-evaluated as after any profile change.
func UpdateCustomer(ctx context.Context, idOrSourceID string, in CustomerInput) (*ent.Customer, error) {
	in.ID, in.SourceID = nil, nil
	if err := ValidateCustomer(&in); err != nil {
		return nil, err
	}
	cust, err := ByIDOrSourceID(ctx, idOrSourceID)
	if err != nil {
		return nil, err
	}
	if cust, err = updateProfile(ctx, cust, &in); err != nil {
		return nil, err
	}
	if err := RefreshSegments(ctx, cust); err != nil {
		return nil, err
	}
	return ByIDOrSourceID(ctx, cust.ID)
}

// CustomerDeletion counts what deleting a customer removed.
type CustomerDeletion struct {
	CustomerID         string `json:"customer_id"`
	Events             int    `json:"events"`
	Segments           int    `json:"segments"`
	Publications       int    `json:"publications"`
	LoyaltyMemberships int    `json:"loyalty_memberships"`
}

// DeleteCustomer deletes a customer and the records that are only theirs:
// custom events and their counts, segment memberships, publications (the
// published codes stay used and keep no holder), and loyalty memberships
// (their cards stay, without a holder). Redemptions stay in the history
// without the customer (the foreign key sets it null), so codes' redeemed
// counts remain right. There is no bin: deletion is permanent.
func DeleteCustomer(ctx context.Context, idOrSourceID string) (*CustomerDeletion, error) {
	cust, err := ByIDOrSourceID(ctx, idOrSourceID)
	if err != nil {
		return nil, err
	}
	if err := store.LockKey(ctx, "customer:"+cust.ID); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	out := &CustomerDeletion{CustomerID: cust.ID}
	if err := emitCustomer(ctx, webhook.EventCustomerDeleted, cust); err != nil {
		return nil, err
	}
	memberIDs, err := c.LoyaltyMember.Query().Where(loyaltymember.CustomerID(cust.ID)).IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("looking up loyalty memberships: %w", err)
	}
	steps := []struct {
		what  string
		count *int
		run   func() (int, error)
	}{
		{"events", &out.Events, func() (int, error) { return c.CustomEvent.Delete().Where(customevent.CustomerID(cust.ID)).Exec(ctx) }},
		{"event counts", nil, func() (int, error) {
			return c.CustomerEventCount.Delete().Where(customereventcount.CustomerID(cust.ID)).Exec(ctx)
		}},
		{"segment memberships", &out.Segments, func() (int, error) {
			return c.SegmentMember.Delete().Where(segmentmember.CustomerID(cust.ID)).Exec(ctx)
		}},
		{"voucher holders", nil, func() (int, error) {
			return c.Voucher.Update().Where(voucher.HolderID(cust.ID)).ClearHolderID().Save(ctx)
		}},
		{"publications", &out.Publications, func() (int, error) {
			return c.Publication.Delete().Where(publication.CustomerID(cust.ID)).Exec(ctx)
		}},
		{"loyalty cards' holders", nil, func() (int, error) {
			return c.Card.Update().Where(card.MemberIDIn(memberIDs...)).ClearMemberID().Save(ctx)
		}},
		{"loyalty memberships", &out.LoyaltyMemberships, func() (int, error) {
			return c.LoyaltyMember.Delete().Where(loyaltymember.IDIn(memberIDs...)).Exec(ctx)
		}},
		{"consents", nil, func() (int, error) {
			return c.CustomerConsent.Delete().Where(customerconsent.CustomerID(cust.ID)).Exec(ctx)
		}},
		{"consent changes", nil, func() (int, error) {
			return c.ConsentChange.Delete().Where(consentchange.CustomerID(cust.ID)).Exec(ctx)
		}},
		{"customer", nil, func() (int, error) { return 1, c.Customer.DeleteOne(cust).Exec(ctx) }},
	}
	for _, s := range steps {
		n, err := s.run()
		if err != nil {
			return nil, fmt.Errorf("deleting the customer's %s: %w", s.what, err)
		}
		if s.count != nil {
			*s.count = n
		}
	}
	page.ForgetProjectTotals(ctx, customer.Table, publication.Table) // counted again on the next page
	return out, nil
}
