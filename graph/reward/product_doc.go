package reward

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/clock"
)

// productDoc is the product a MATERIAL reward's redemption shows, with
// the members the documents require of a product (ProductWithoutSkus:
// id, source_id, name, price, attributes, metadata, object; an empty list
// or object where it has none).
func productDoc(p *ent.Product) map[string]any {
	attributes := p.Attributes
	if attributes == nil {
		attributes = []string{}
	}
	metadata := p.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	out := map[string]any{"id": p.ID, "source_id": p.SourceID, "name": p.Name, "price": p.Price,
		"attributes": attributes, "metadata": metadata, "image_url": p.ImageURL,
		"created_at": clock.Format(p.CreatedAt), "updated_at": nil, "object": "product"}
	if p.UpdatedAt != nil {
		out["updated_at"] = clock.Format(*p.UpdatedAt)
	}
	return out
}
