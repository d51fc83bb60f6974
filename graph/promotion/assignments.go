package promotion

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/category"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// TierDetails are what a tier object shows beside the tier: its rule
// assignments and its category, for a page of tiers read in two queries.
type TierDetails struct {
	Assignments map[string][]*ent.ValidationRuleAssignment
	Categories  map[string]*ent.Category
}

// DetailsOf reads the rule assignments and categories of tiers.
func DetailsOf(ctx context.Context, tiers ...*ent.PromotionTier) (*TierDetails, error) {
	out := &TierDetails{Assignments: map[string][]*ent.ValidationRuleAssignment{}, Categories: map[string]*ent.Category{}}
	if len(tiers) == 0 {
		return out, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(tiers))
	var cats []string
	for _, t := range tiers {
		ids = append(ids, t.ID)
		if t.CategoryID != nil {
			cats = append(cats, *t.CategoryID)
		}
	}
	as, err := c.ValidationRuleAssignment.Query().Where(validationruleassignment.RelatedObjectIDIn(ids...)).
		Order(ent.Asc(validationruleassignment.FieldCreatedAt), ent.Asc(validationruleassignment.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the tiers' rule assignments: %w", err)
	}
	for _, a := range as {
		out.Assignments[a.RelatedObjectID] = append(out.Assignments[a.RelatedObjectID], a)
	}
	if len(cats) > 0 {
		found, err := c.Category.Query().Where(category.IDIn(cats...)).All(ctx)
		if err != nil {
			return nil, fmt.Errorf("reading the tiers' categories: %w", err)
		}
		for _, cat := range found {
			out.Categories[cat.ID] = cat
		}
	}
	return out, nil
}
