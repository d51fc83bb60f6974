package catalog

import (
	"context"
	"strings"
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/product"
	"github.com/promoengine/promoengine/ent/sku"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ListInput is the query of REST GET /v1/products and
// GET /v1/products/{productId}/skus, and the GraphQL CatalogListInput.
type ListInput struct {
	// Limit is the page size, 1-100 (default 10).
	Limit *int `json:"limit"`
	// Page is the 1-based page number, 1-100 (default 1).
	Page *int `json:"page"`
	// Order is created_at, updated_at, name or source_id (sku for SKUs);
	// a leading - sorts descending. Default -created_at (newest first).
	Order *string `json:"order"`
	// StartDate and EndDate keep what was created in [start, end].
	StartDate *time.Time `json:"start_date"`
	EndDate   *time.Time `json:"end_date"`
	// EmbedSkus fills ProductList.Skus (REST's product objects carry
	// their SKUs); not part of GraphQL, where Product.skus pages them.
	EmbedSkus bool `json:"-"`
}

// ProductList is a page of products and how many match in all; Skus has
// each listed product's SKUs when the input asked for them.
type ProductList struct {
	Total int            `json:"total"`
	Data  []*ent.Product `json:"data"`
	Skus  map[string]*SkuList
}

// SkuList is a page of SKUs and how many match in all.
type SkuList struct {
	Total int        `json:"total"`
	Data  []*ent.Sku `json:"data"`
}

// MaxEmbeddedSkus is how many SKUs a product object of REST carries (the
// oldest first; total counts them all); all of them are listed by
// GET /v1/products/{id}/skus.
const MaxEmbeddedSkus = 100

// bounds checks limit (1-100, default 10) and page (1-100, default 1),
// the catalogue lists' documented ranges, and returns limit and offset.
func (in *ListInput) bounds() (limit, offset int, err error) {
	var p *int
	if in.Page != nil && *in.Page != 100 { // page.Offset stops at 99
		p = in.Page
	}
	if limit, offset, err = page.Offset(in.Limit, p); err != nil {
		return 0, 0, err
	}
	if in.Page != nil && *in.Page == 100 {
		offset = 99 * limit
	}
	return limit, offset, nil
}

// order reads the list order: the column and whether it is descending.
func (in *ListInput) order(columns map[string]string) (string, bool, error) {
	name, desc := "created_at", true
	if in.Order != nil && *in.Order != "" {
		name, desc = strings.TrimPrefix(*in.Order, "-"), strings.HasPrefix(*in.Order, "-")
	}
	column, ok := columns[name]
	if !ok {
		return "", false, apperr.InvalidQueryParams("Query parameter order must be one of created_at, updated_at, %s (with - for descending)", strings.Join(extraOrders(columns), ", "))
	}
	return column, desc, nil
}

// extraOrders names the orders of a list beyond the two dates.
func extraOrders(columns map[string]string) []string {
	var out []string
	for _, n := range []string{"name", "source_id", "sku"} {
		if _, ok := columns[n]; ok {
			out = append(out, n)
		}
	}
	return out
}

// orderTerms sorts by the column, then by id for a stable page.
func orderTerms[T ~func(*sql.Selector)](column string, desc bool) []T {
	dir := sql.OrderAsc()
	if desc {
		dir = sql.OrderDesc()
	}
	opts := []sql.OrderTermOption{dir}
	if column != "created_at" {
		opts = append(opts, sql.OrderNullsLast())
	}
	return []T{sql.OrderByField(column, opts...).ToFunc(), sql.OrderByField("id", dir).ToFunc()}
}

// ListProducts serves REST GET /v1/products and productList.
func ListProducts(ctx context.Context, in *ListInput) (*ProductList, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, offset, err := in.bounds()
	if err != nil {
		return nil, err
	}
	column, desc, err := in.order(map[string]string{"created_at": product.FieldCreatedAt,
		"updated_at": product.FieldUpdatedAt, "name": product.FieldName, "source_id": product.FieldSourceID})
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Product.Query()
	if in.StartDate != nil {
		q.Where(product.CreatedAtGTE(*in.StartDate))
	}
	if in.EndDate != nil {
		q.Where(product.CreatedAtLTE(*in.EndDate))
	}
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, wrap("counting products", err)
	}
	data, err := q.Order(orderTerms[product.OrderOption](column, desc)...).Offset(offset).Limit(limit).All(ctx)
	if err != nil {
		return nil, wrap("listing products", err)
	}
	out := &ProductList{Total: total, Data: data}
	if in.EmbedSkus {
		if out.Skus, err = skusOf(ctx, c, data); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ListSkus serves REST GET /v1/products/{productId}/skus and skuList:
// the SKUs of a product (id or source_id; 404 product when unknown).
func ListSkus(ctx context.Context, productRef string, in *ListInput) (*SkuList, error) {
	p, err := Product(ctx, productRef)
	if err != nil {
		return nil, err
	}
	return ProductSkus(ctx, p, in)
}

// ProductSkus pages the SKUs of a product (Product.skus in GraphQL; REST
// embeds the first MaxEmbeddedSkus in a product object).
func ProductSkus(ctx context.Context, p *ent.Product, in *ListInput) (*SkuList, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, offset, err := in.bounds()
	if err != nil {
		return nil, err
	}
	column, desc, err := in.order(map[string]string{"created_at": sku.FieldCreatedAt,
		"updated_at": sku.FieldUpdatedAt, "sku": sku.FieldSku, "source_id": sku.FieldSourceID})
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Sku.Query().Where(skuOfProduct(p.ID))
	if in.StartDate != nil {
		q.Where(sku.CreatedAtGTE(*in.StartDate))
	}
	if in.EndDate != nil {
		q.Where(sku.CreatedAtLTE(*in.EndDate))
	}
	total, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
	if err != nil {
		return nil, wrap("counting SKUs", err)
	}
	data, err := q.Order(orderTerms[sku.OrderOption](column, desc)...).Offset(offset).Limit(limit).All(ctx)
	if err != nil {
		return nil, wrap("listing SKUs", err)
	}
	return &SkuList{Total: total, Data: data}, nil
}

// skusOf reads the SKUs of a page of products in one query and keeps the
// first MaxEmbeddedSkus of each, oldest first.
func skusOf(ctx context.Context, c *ent.Client, products []*ent.Product) (map[string]*SkuList, error) {
	out := make(map[string]*SkuList, len(products))
	ids := make([]string, len(products))
	for i, p := range products {
		ids[i] = p.ID
		out[p.ID] = &SkuList{Data: []*ent.Sku{}}
	}
	if len(ids) == 0 {
		return out, nil
	}
	all, err := c.Sku.Query().Where(sku.ProductIDIn(ids...)).Order(orderTerms[sku.OrderOption](sku.FieldCreatedAt, false)...).All(ctx)
	if err != nil {
		return nil, wrap("listing the products' SKUs", err)
	}
	for _, s := range all {
		l := out[s.ProductID]
		l.Total++
		if len(l.Data) < MaxEmbeddedSkus {
			l.Data = append(l.Data, s)
		}
	}
	return out, nil
}

// Products lists the caller's products as a Relay connection.
func Products(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.ProductOrder, where *ent.ProductWhereInput) (*ent.ProductConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.Product.Query().Paginate(ctx, after, first, before, last,
		ent.WithProductOrder(orderBy), ent.WithProductFilter(where.Filter))
}

// Skus lists the caller's SKUs as a Relay connection.
func Skus(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.SkuOrder, where *ent.SkuWhereInput) (*ent.SkuConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.Sku.Query().Paginate(ctx, after, first, before, last,
		ent.WithSkuOrder(orderBy), ent.WithSkuFilter(where.Filter))
}

// SkuAttributes is a SKU's attributes as GraphQL's Map.
func SkuAttributes(s *ent.Sku) map[string]any {
	out := make(map[string]any, len(s.Attributes))
	for k, v := range s.Attributes {
		out[k] = v
	}
	return out
}
