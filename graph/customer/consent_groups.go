package customer

import (
	"context"
	"fmt"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/consent"
	"github.com/promoengine/promoengine/graph/apperr"
)

// ConsentGroupInput defines a consent group (createConsentGroup,
// updateConsentGroup: on an update a nil member leaves the stored value).
// Consents are ids of the project's consents, each once.
type ConsentGroupInput struct {
	Name        *string  `json:"name"`
	Description *string  `json:"description"`
	Consents    []string `json:"consents"`
}

// CreateConsentGroup serves createConsentGroup: the project's 101st group
// is refused.
func CreateConsentGroup(ctx context.Context, in ConsentGroupInput) (*ent.ConsentGroup, error) {
	if in.Name == nil {
		return nil, apperr.InvalidPayload("Property .name is required")
	}
	if err := checkConsentText(in.Name, in.Description, nil); err != nil {
		return nil, err
	}
	c, err := lockConsents(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkGroupConsents(ctx, c, in.Consents); err != nil {
		return nil, err
	}
	n, err := c.ConsentGroup.Query().Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting consent groups: %w", err)
	}
	if n >= MaxConsents {
		return nil, tooManyConsents("consent_groups")
	}
	create := c.ConsentGroup.Create().SetName(strings.TrimSpace(*in.Name)).SetConsents(orEmpty(in.Consents))
	if in.Description != nil {
		create.SetDescription(*in.Description)
	}
	out, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating consent group: %w", err)
	}
	return out, nil
}

// UpdateConsentGroup serves updateConsentGroup.
func UpdateConsentGroup(ctx context.Context, id string, in ConsentGroupInput) (*ent.ConsentGroup, error) {
	if err := checkConsentText(in.Name, in.Description, nil); err != nil {
		return nil, err
	}
	c, err := lockConsents(ctx)
	if err != nil {
		return nil, err
	}
	if in.Consents != nil {
		if err := checkGroupConsents(ctx, c, in.Consents); err != nil {
			return nil, err
		}
	}
	upd := c.ConsentGroup.UpdateOneID(id)
	if in.Name != nil {
		upd.SetName(strings.TrimSpace(*in.Name))
	}
	if in.Description != nil {
		upd.SetDescription(*in.Description)
	}
	if in.Consents != nil {
		upd.SetConsents(in.Consents)
	}
	out, err := upd.Save(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound(consentGroupResource, id)
	}
	if err != nil {
		return nil, fmt.Errorf("updating consent group: %w", err)
	}
	return out, nil
}

// DeleteConsentGroup serves deleteConsentGroup (its consents stay).
func DeleteConsentGroup(ctx context.Context, id string) (string, error) {
	c, err := lockConsents(ctx)
	if err != nil {
		return "", err
	}
	err = c.ConsentGroup.DeleteOneID(id).Exec(ctx)
	if ent.IsNotFound(err) {
		return "", apperr.NotFound(consentGroupResource, id)
	}
	if err != nil {
		return "", fmt.Errorf("deleting consent group: %w", err)
	}
	return id, nil
}

// checkGroupConsents refuses a repeated id (400) and an id that is not
// one of the project's consents (404).
func checkGroupConsents(ctx context.Context, c *ent.Client, ids []string) error {
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			return apperr.InvalidPayload("Property .consents lists %q twice", id)
		}
		seen[id] = true
	}
	if len(ids) > MaxConsents {
		return apperr.InvalidPayload("Property .consents may list at most %d consents", MaxConsents)
	}
	found, err := c.Consent.Query().Where(consent.IDIn(ids...)).IDs(ctx)
	if err != nil {
		return fmt.Errorf("reading consents: %w", err)
	}
	have := map[string]bool{}
	for _, id := range found {
		have[id] = true
	}
	for _, id := range ids {
		if !have[id] {
			return apperr.NotFound(consentResource, id)
		}
	}
	return nil
}

// orEmpty is ids, or an empty list for nil.
func orEmpty(ids []string) []string {
	if ids == nil {
		return []string{}
	}
	return ids
}
