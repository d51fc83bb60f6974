package customer

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/consent"
	"github.com/promoengine/promoengine/ent/customerconsent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ConsentChanges are a customer's consent grants and withdrawals
// (PUT /v1/customers/{idOrSourceId}/consents, its client form and
// updateCustomerConsents). Unsubscribed withdraws every consent the
// customer gave that Grant does not name.
type ConsentChanges struct {
	Grant        []string `json:"grant"`
	Revoke       []string `json:"revoke"`
	Unsubscribed bool     `json:"unsubscribed"`
}

// ConsentChangesFromBody reads the legacy body {"cnst_…": true|false,
// "unsubscribed": true}: every value must be a boolean (400 otherwise).
func ConsentChangesFromBody(body map[string]any) (ConsentChanges, error) {
	var out ConsentChanges
	keys := make([]string, 0, len(body))
	for k := range body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, ok := body[k].(bool)
		if !ok {
			return ConsentChanges{}, apperr.InvalidPayload("Property .%s must be a boolean", k)
		}
		switch {
		case k == "unsubscribed":
			out.Unsubscribed = v
		case v:
			out.Grant = append(out.Grant, k)
		default:
			out.Revoke = append(out.Revoke, k)
		}
	}
	return out, nil
}

// consentGiven and consentRevoked are the activity types of a change (the
// real service's event names).
const (
	consentGiven   = "customer.consents.given"
	consentRevoked = "customer.consents.revoked"
)

// UpdateCustomerConsents applies changes to the customer's consents and
// records each actual change (a grant of a consent not given yet, a
// withdrawal of one given) as an activity. An unknown consent id is a 404
// (resource_type consent) and nothing is written.
func UpdateCustomerConsents(ctx context.Context, idOrSourceID string, in ConsentChanges) (*ent.Customer, error) {
	if err := checkConsentChanges(in); err != nil {
		return nil, err
	}
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
	given, err := c.CustomerConsent.Query().Where(customerconsent.CustomerID(cust.ID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the customer's consents: %w", err)
	}
	had := map[string]bool{}
	for _, g := range given {
		had[g.ConsentID] = true
	}
	named := slices.Concat(in.Grant, in.Revoke)
	consents, err := c.Consent.Query().Where(consent.IDIn(slices.Concat(named, grantedIDs(given))...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading consents: %w", err)
	}
	names := map[string]string{}
	for _, k := range consents {
		names[k.ID] = k.Name
	}
	for _, id := range named {
		if _, ok := names[id]; !ok {
			return nil, apperr.NotFound(consentResource, id)
		}
	}
	grant, revoke := consentMoves(in, had)
	if err := writeConsentMoves(ctx, c, cust.ID, grant, revoke, names); err != nil {
		return nil, err
	}
	return cust, nil
}

// checkConsentChanges refuses an empty id and an id both granted and revoked.
func checkConsentChanges(in ConsentChanges) error {
	for _, id := range slices.Concat(in.Grant, in.Revoke) {
		if strings.TrimSpace(id) == "" {
			return apperr.InvalidPayload("A consent id must not be empty")
		}
	}
	for _, id := range in.Grant {
		if slices.Contains(in.Revoke, id) {
			return apperr.InvalidPayload("Consent %s is both given and withdrawn", id)
		}
	}
	return nil
}

// consentMoves are the consents to grant (not given yet) and to withdraw
// (given now), each sorted and once.
func consentMoves(in ConsentChanges, had map[string]bool) (grant, revoke []string) {
	for _, id := range in.Grant {
		if !had[id] && !slices.Contains(grant, id) {
			grant = append(grant, id)
		}
	}
	withdraw := in.Revoke
	if in.Unsubscribed {
		for id := range had {
			if !slices.Contains(in.Grant, id) {
				withdraw = append(withdraw, id)
			}
		}
	}
	for _, id := range withdraw {
		if had[id] && !slices.Contains(revoke, id) {
			revoke = append(revoke, id)
		}
	}
	slices.Sort(grant)
	slices.Sort(revoke)
	return grant, revoke
}

// writeConsentMoves stores the grants and withdrawals and a change record
// for each.
func writeConsentMoves(ctx context.Context, c *ent.Client, customerID string, grant, revoke []string, names map[string]string) error {
	if len(revoke) > 0 {
		_, err := c.CustomerConsent.Delete().Where(customerconsent.CustomerID(customerID), customerconsent.ConsentIDIn(revoke...)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("withdrawing consents: %w", err)
		}
	}
	if len(grant) > 0 {
		rows := make([]*ent.CustomerConsentCreate, len(grant))
		for i, id := range grant {
			rows[i] = c.CustomerConsent.Create().SetCustomerID(customerID).SetConsentID(id)
		}
		if err := c.CustomerConsent.CreateBulk(rows...).Exec(ctx); err != nil {
			return fmt.Errorf("granting consents: %w", err)
		}
	}
	changes := make([]*ent.ConsentChangeCreate, 0, len(grant)+len(revoke))
	for _, id := range revoke {
		changes = append(changes, c.ConsentChange.Create().SetCustomerID(customerID).SetConsentID(id).
			SetConsentName(names[id]).SetGranted(false))
	}
	for _, id := range grant {
		changes = append(changes, c.ConsentChange.Create().SetCustomerID(customerID).SetConsentID(id).
			SetConsentName(names[id]).SetGranted(true))
	}
	if len(changes) == 0 {
		return nil
	}
	if err := c.ConsentChange.CreateBulk(changes...).Exec(ctx); err != nil {
		return fmt.Errorf("recording consent changes: %w", err)
	}
	return nil
}

// grantedIDs are the consent ids of grants.
func grantedIDs(given []*ent.CustomerConsent) []string {
	ids := make([]string, len(given))
	for i, g := range given {
		ids[i] = g.ConsentID
	}
	return ids
}

// CustomerConsents serves Customer.consents: the consents the customer
// has given, oldest consent first.
func CustomerConsents(ctx context.Context, cust *ent.Customer) ([]*ent.Consent, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	given, err := c.CustomerConsent.Query().Where(customerconsent.CustomerID(cust.ID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the customer's grants: %w", err)
	}
	out, err := c.Consent.Query().Where(consent.IDIn(grantedIDs(given)...)).Order(consent.ByID()).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the customer's consents: %w", err)
	}
	return out, nil
}
