package customer

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/consent"
	"github.com/promoengine/promoengine/ent/consentgroup"
	"github.com/promoengine/promoengine/ent/customerconsent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A project's consents and consent groups: the legacy consents calls of
// SDK 2.9 (REST GET /v1/consents and /client/v1/consents only list them;
// GraphQL defines them; docs/customers.md "Consents").

// MaxConsents bounds a project's consents and, apart, its consent groups,
// so the unpaged list stays small.
const MaxConsents = 100

// consentResource names consents in errors; consentGroupResource groups.
const (
	consentResource      = "consent"
	consentGroupResource = "consent_group"
)

// ConsentInput defines a consent (createConsent, updateConsent: on an
// update a nil member leaves the stored value).
type ConsentInput struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Category    *string `json:"category"`
}

// ConsentList is the answer of GET /v1/consents: every group and consent
// of the project, oldest first.
type ConsentList struct {
	Groups   []*ent.ConsentGroup `json:"groups"`
	Consents []*ent.Consent      `json:"consents"`
}

// ListConsents serves GET /v1/consents, GET /client/v1/consents and consents.
func ListConsents(ctx context.Context) (*ConsentList, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	groups, err := c.ConsentGroup.Query().Order(consentgroup.ByID()).Limit(MaxConsents).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing consent groups: %w", err)
	}
	consents, err := c.Consent.Query().Order(consent.ByID()).Limit(MaxConsents).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing consents: %w", err)
	}
	return &ConsentList{Groups: groups, Consents: consents}, nil
}

// CreateConsent serves createConsent: the project's 101st consent is refused.
func CreateConsent(ctx context.Context, in ConsentInput) (*ent.Consent, error) {
	if in.Name == nil {
		return nil, apperr.InvalidPayload("Property .name is required")
	}
	if err := checkConsentText(in.Name, in.Description, in.Category); err != nil {
		return nil, err
	}
	c, err := lockConsents(ctx)
	if err != nil {
		return nil, err
	}
	n, err := c.Consent.Query().Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting consents: %w", err)
	}
	if n >= MaxConsents {
		return nil, tooManyConsents("consents")
	}
	create := c.Consent.Create().SetName(strings.TrimSpace(*in.Name))
	if in.Description != nil {
		create.SetDescription(*in.Description)
	}
	if in.Category != nil {
		create.SetCategory(*in.Category)
	}
	out, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating consent: %w", err)
	}
	return out, nil
}

// UpdateConsent serves updateConsent.
func UpdateConsent(ctx context.Context, id string, in ConsentInput) (*ent.Consent, error) {
	if err := checkConsentText(in.Name, in.Description, in.Category); err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	upd := c.Consent.UpdateOneID(id)
	if in.Name != nil {
		upd.SetName(strings.TrimSpace(*in.Name))
	}
	if in.Description != nil {
		upd.SetDescription(*in.Description)
	}
	if in.Category != nil {
		upd.SetCategory(*in.Category)
	}
	out, err := upd.Save(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound(consentResource, id)
	}
	if err != nil {
		return nil, fmt.Errorf("updating consent: %w", err)
	}
	return out, nil
}

// DeleteConsent serves deleteConsent: the consent leaves every group and
// every customer who gave it (their recorded changes stay as activities).
func DeleteConsent(ctx context.Context, id string) (string, error) {
	c, err := lockConsents(ctx)
	if err != nil {
		return "", err
	}
	if _, err := c.Consent.Get(ctx, id); ent.IsNotFound(err) {
		return "", apperr.NotFound(consentResource, id)
	} else if err != nil {
		return "", fmt.Errorf("reading consent: %w", err)
	}
	groups, err := c.ConsentGroup.Query().All(ctx)
	if err != nil {
		return "", fmt.Errorf("reading consent groups: %w", err)
	}
	for _, g := range groups {
		if kept := withoutID(g.Consents, id); len(kept) != len(g.Consents) {
			if err := c.ConsentGroup.UpdateOne(g).SetConsents(kept).Exec(ctx); err != nil {
				return "", fmt.Errorf("removing the consent from group %s: %w", g.ID, err)
			}
		}
	}
	if _, err := c.CustomerConsent.Delete().Where(customerconsent.ConsentID(id)).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting the consent's grants: %w", err)
	}
	if err := c.Consent.DeleteOneID(id).Exec(ctx); err != nil {
		return "", fmt.Errorf("deleting consent: %w", err)
	}
	return id, nil
}

// lockConsents serialises the writes of a project's consent definitions
// (the count bound must see concurrent creates on PostgreSQL).
func lockConsents(ctx context.Context) (*ent.Client, error) {
	v, _ := viewer.FromContext(ctx)
	if err := store.LockKey(ctx, "consents:"+v.ProjectID); err != nil {
		return nil, err
	}
	return store.Client(ctx)
}

// tooManyConsents refuses the 101st consent or group.
func tooManyConsents(what string) error {
	return apperr.New(http.StatusBadRequest, "too_many_"+what, "Too many "+strings.ReplaceAll(what, "_", " "),
		fmt.Sprintf("A project may have at most %d %s", MaxConsents, strings.ReplaceAll(what, "_", " ")))
}

// checkConsentText refuses an empty name and texts over their bounds.
func checkConsentText(name, description, category *string) error {
	if name != nil && (strings.TrimSpace(*name) == "" || utf8.RuneCountInString(*name) > 200) {
		return apperr.InvalidPayload("Property .name must be a non-empty string of at most 200 characters")
	}
	if description != nil && utf8.RuneCountInString(*description) > 1000 {
		return apperr.InvalidPayload("Property .description must be at most 1000 characters")
	}
	if category != nil && utf8.RuneCountInString(*category) > 200 {
		return apperr.InvalidPayload("Property .category must be at most 200 characters")
	}
	return nil
}

// withoutID is ids without id.
func withoutID(ids []string, id string) []string {
	out := make([]string, 0, len(ids))
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}
