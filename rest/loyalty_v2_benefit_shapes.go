package rest

import (
	"encoding/json"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// The August document's benefit shapes (loyalties-v2-benefits.json):
// material without the null member of product/sku, and an activity's
// benefit snapshot rendered as GET answers a benefit.

// benefitMaterialBody is a material detail with only the member it has.
type benefitMaterialBody struct {
	Type    *string           `json:"type,omitempty"`
	Product *jsonfield.IDRef  `json:"product,omitempty"`
	SKU     *jsonfield.SKURef `json:"sku,omitempty"`
}

func benefitMaterial(m *jsonfield.MaterialDetail) *benefitMaterialBody {
	if m == nil {
		return nil
	}
	return &benefitMaterialBody{Type: m.Type, Product: m.Product, SKU: m.SKU}
}

// benefitSnapshot renders an incentive activity's stored snapshot as a
// benefit (stock as {type, limited}, material without nulls); a snapshot
// that does not read back is kept as stored.
func benefitSnapshot(stored map[string]any) map[string]any {
	var inc ent.Incentive
	raw, err := json.Marshal(stored)
	if err != nil || json.Unmarshal(raw, &inc) != nil {
		return stored
	}
	out := map[string]any{}
	if raw, err := json.Marshal(benefitJSON(&inc)); err == nil && json.Unmarshal(raw, &out) == nil {
		return out
	}
	return stored
}
