package rest

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/promotion"
	"github.com/promoengine/promoengine/rest/promotions"
)

// Transitional: renderings of areas moved out of rest under the names the
// files of other owners still in rest call (rest/redemption_json.go shows
// a redemption's promotion tier), so that those files need no edit. Each
// goes when its last caller switches to the area's package
// (docs/architecture.md, "Splitting rest").

// tierBody is promotions.TierBody.
type tierBody = promotions.TierBody

// tierJSON is promotions.TierJSON.
func tierJSON(t *ent.PromotionTier, d *promotion.TierDetails) tierBody {
	return promotions.TierJSON(t, d)
}
