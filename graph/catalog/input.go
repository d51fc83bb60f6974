// Package catalog is the project's catalogue: products and their SKUs
// (REST /v1/products, /v1/skus; GraphQL product*, sku*). Creates are
// upserts by id or source_id, reads accept either, updates change only
// what is sent, and lists page by limit and page. The async bulk updates
// of products are job handlers (bulk.go, JobHandlers).
package catalog

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/discount"
	"github.com/promoengine/promoengine/graph/internal/shape"
)

// Limits of the catalogue's text fields (the ent schemas' limits).
const (
	maxSourceID   = 500
	maxName       = 500
	maxImageURL   = 2000
	maxCurrency   = 20
	maxAttributes = 100
	maxAttribute  = 200
)

// ProductInput is the body of REST POST /v1/products (id and source_id
// name the product to upsert) and PUT /v1/products/{productId} (id and
// source_id are ignored there: they cannot be changed), and the GraphQL
// ProductInput. A field left out (or null) is left as it is.
type ProductInput struct {
	ID         *string        `json:"id"`
	SourceID   *string        `json:"source_id"`
	Name       *string        `json:"name"`
	Price      *int64         `json:"price"`
	Attributes []string       `json:"attributes"`
	Metadata   map[string]any `json:"metadata"`
	ImageURL   *string        `json:"image_url"`
	// Nulls are the members sent as an explicit null: on an update each
	// clears its field.
	shape.Nulls
}

// SkuInput is the body of REST POST /v1/products/{productId}/skus (id and
// source_id name the SKU to upsert) and PUT …/skus/{skuId} (id and
// source_id ignored), and the GraphQL SkuInput. A field left out (or
// null) is left as it is.
type SkuInput struct {
	ID         *string           `json:"id"`
	SourceID   *string           `json:"source_id"`
	Sku        *string           `json:"sku"`
	Price      *int64            `json:"price"`
	Currency   *string           `json:"currency"`
	Attributes map[string]string `json:"attributes"`
	Metadata   map[string]any    `json:"metadata"`
	ImageURL   *string           `json:"image_url"`
	// Nulls: as ProductInput's.
	shape.Nulls
}

// hasFields reports whether the input changes anything of a product.
func (in *ProductInput) hasFields() bool {
	return in.Nulls.Any() || in.Name != nil || in.Price != nil || in.Attributes != nil || in.Metadata != nil || in.ImageURL != nil
}

// hasFields reports whether the input changes anything of a SKU.
func (in *SkuInput) hasFields() bool {
	return in.Nulls.Any() || in.Sku != nil || in.Price != nil || in.Currency != nil || in.Attributes != nil ||
		in.Metadata != nil || in.ImageURL != nil
}

// validate checks a product input's fields; prefix names the property in
// errors ("" for a body, ".[3]" in a bulk update).
func (in *ProductInput) validate(prefix string) error {
	if err := checkRef(prefix+".id", in.ID); err != nil {
		return err
	}
	if err := checkRef(prefix+".source_id", in.SourceID); err != nil {
		return err
	}
	if err := checkText(prefix+".name", in.Name, maxName); err != nil {
		return err
	}
	if err := checkPrice(prefix+".price", in.Price); err != nil {
		return err
	}
	if err := checkText(prefix+".image_url", in.ImageURL, maxImageURL); err != nil {
		return err
	}
	if len(in.Attributes) > maxAttributes {
		return apperr.InvalidPayload("Property %s.attributes must have at most %d items", prefix, maxAttributes)
	}
	for i, a := range in.Attributes {
		if strings.TrimSpace(a) == "" || utf8.RuneCountInString(a) > maxAttribute {
			return apperr.InvalidPayload("Property %s.attributes[%d] must be a non-empty string of at most %d characters", prefix, i, maxAttribute)
		}
	}
	return nil
}

// validate checks a SKU input's fields.
func (in *SkuInput) validate() error {
	if err := checkRef(".id", in.ID); err != nil {
		return err
	}
	if err := checkRef(".source_id", in.SourceID); err != nil {
		return err
	}
	if err := checkText(".sku", in.Sku, maxName); err != nil {
		return err
	}
	if err := checkPrice(".price", in.Price); err != nil {
		return err
	}
	if err := checkText(".currency", in.Currency, maxCurrency); err != nil {
		return err
	}
	if err := checkText(".image_url", in.ImageURL, maxImageURL); err != nil {
		return err
	}
	if len(in.Attributes) > maxAttributes {
		return apperr.InvalidPayload("Property .attributes must have at most %d keys", maxAttributes)
	}
	for k, v := range in.Attributes {
		if strings.TrimSpace(k) == "" || utf8.RuneCountInString(k) > maxAttribute || utf8.RuneCountInString(v) > maxName {
			return apperr.InvalidPayload("Property .attributes must map non-empty names of at most %d characters to strings of at most %d", maxAttribute, maxName)
		}
	}
	return nil
}

// SetSkuAttributes sets the attributes of a GraphQL SkuInput (a Map):
// every value must be a string, as REST's decoding demands too.
func SetSkuAttributes(in *SkuInput, data map[string]any) error {
	if data == nil {
		in.Attributes = nil
		return nil
	}
	in.Attributes = make(map[string]string, len(data))
	for k, v := range data {
		s, ok := v.(string)
		if !ok {
			return apperr.InvalidPayload("Property .attributes.%s must be a string", k)
		}
		in.Attributes[k] = s
	}
	return nil
}

// checkRef refuses an empty or overlong id or source_id.
func checkRef(property string, v *string) error {
	if v != nil && (*v == "" || utf8.RuneCountInString(*v) > maxSourceID) {
		return apperr.InvalidPayload("Property %s must be a string of 1 to %d characters", property, maxSourceID)
	}
	return nil
}

// checkText refuses an overlong string.
func checkText(property string, v *string, max int) error {
	if v != nil && utf8.RuneCountInString(*v) > max {
		return apperr.InvalidPayload("Property %s must be at most %d characters", property, max)
	}
	return nil
}

// checkPrice refuses a negative price or one beyond the amounts discount
// maths accepts (discount.MaxAmount).
func checkPrice(property string, v *int64) error {
	if v != nil && (*v < 0 || *v > discount.MaxAmount) {
		return apperr.InvalidPayload("Property %s must be an integer between 0 and %d", property, discount.MaxAmount)
	}
	return nil
}

// productNotFound and skuNotFound echo what the caller sent (an id or a
// source_id), as the real service does.
func productNotFound(ref string) error { return apperr.NotFound("product", ref) }
func skuNotFound(ref string) error     { return apperr.NotFound("sku", ref) }

// wrap adds context to a storage error.
func wrap(what string, err error) error { return fmt.Errorf("%s: %w", what, err) }
