package loyaltyv2

import (
	"context"
	"math"
	"strings"

	"entgo.io/contrib/entgql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/incentive"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// The August document's benefits (/v2/loyalties/benefits): the incentives'
// rows and use cases under their new spelling — id lben_ (either prefix
// accepted), object "benefit", activities laben_/vl.benefit.*, and stock as
// an optional object {type: UNLIMITED|LIMITED, limited:{quantity}}. An
// unlimited stock is stored as 2147483647, the June document's largest
// stock, so the June spelling shows it as that number.

// unlimitedStock is the stock an UNLIMITED benefit is stored with.
const unlimitedStock = math.MaxInt32

// benefitStock is the August stock object.
type benefitStock struct {
	Type    *string `json:"type"`
	Limited *struct {
		Quantity *int64 `json:"quantity"`
	} `json:"limited"`
}

// quantity converts a stock object to the stored stock (nil: unchanged,
// or UNLIMITED on create).
func (s *benefitStock) quantity() (*int64, error) {
	if s == nil {
		return nil, nil
	}
	n := int64(unlimitedStock)
	switch {
	case s.Type == nil:
		return nil, apperr.InvalidPayload("Property .stock must have required property 'type'")
	case *s.Type == "UNLIMITED":
		if s.Limited != nil {
			return nil, apperr.InvalidPayload("Property .stock.limited is allowed only when type is LIMITED")
		}
	case *s.Type == "LIMITED":
		if s.Limited == nil || s.Limited.Quantity == nil {
			return nil, apperr.InvalidPayload("Property .stock.limited.quantity is required when type is LIMITED")
		}
		n = *s.Limited.Quantity
		if n < 0 || n >= unlimitedStock {
			return nil, apperr.InvalidPayload("Property .stock.limited.quantity must be between 0 and 2147483646, got %d", n)
		}
	default:
		return nil, apperr.InvalidPayload("Property .stock.type must be UNLIMITED or LIMITED, got %q", *s.Type)
	}
	return &n, nil
}

// BenefitCreate is the body of POST /v2/loyalties/benefits.
type BenefitCreate struct {
	Name               *string                       `json:"name"`
	Type               *incentive.Type               `json:"type"`
	Status             *incentive.Status             `json:"status"`
	Stock              *benefitStock                 `json:"stock"`
	Points             *jsonfield.IncentivePoints    `json:"points"`
	PointsProportional *jsonfield.PointsProportional `json:"points_proportional"`
	Material           *jsonfield.MaterialDetail     `json:"material"`
	Digital            *jsonfield.DigitalDetail      `json:"digital"`
}

// BenefitUpdate is the body of PUT /v2/loyalties/benefits/{benefitId}.
type BenefitUpdate struct {
	Name               *string                       `json:"name"`
	Stock              *benefitStock                 `json:"stock"`
	Points             *jsonfield.IncentivePoints    `json:"points"`
	PointsProportional *jsonfield.PointsProportional `json:"points_proportional"`
	Material           *jsonfield.MaterialDetail     `json:"material"`
	Digital            *jsonfield.DigitalDetail      `json:"digital"`
}

// benefitStockBody is the stock object of a benefit response.
type benefitStockBody struct {
	Type    string          `json:"type"`
	Limited *map[string]int `json:"limited,omitempty"`
}

// benefitBody is an incentive in the August shape.
type benefitBody struct {
	ID                 string                        `json:"id"`
	Name               string                        `json:"name"`
	Type               string                        `json:"type"`
	Status             string                        `json:"status"`
	Stock              *benefitStockBody             `json:"stock,omitempty"`
	Points             *jsonfield.IncentivePoints    `json:"points,omitempty"`
	PointsProportional *jsonfield.PointsProportional `json:"points_proportional,omitempty"`
	Material           *benefitMaterialBody          `json:"material,omitempty"`
	Digital            *jsonfield.DigitalDetail      `json:"digital,omitempty"`
	CreatedAt          httpkit.Timestamp             `json:"created_at"`
	UpdatedAt          *httpkit.Timestamp            `json:"updated_at"`
	Object             string                        `json:"object"`
}

// benefitMaterialBody is BenefitMaterial: type PRODUCT with product, or
// SKU with sku; the other member left out (the document: "must be omitted
// or null").
type benefitMaterialBody struct {
	Type    string            `json:"type"`
	Product *jsonfield.IDRef  `json:"product,omitempty"`
	SKU     *jsonfield.SKURef `json:"sku,omitempty"`
}

// benefitMaterialJSON renders a stored material detail (exactly one of
// product and sku, checked on write) in the August shape.
func benefitMaterialJSON(m *jsonfield.MaterialDetail) *benefitMaterialBody {
	switch {
	case m == nil:
		return nil
	case m.SKU != nil:
		return &benefitMaterialBody{Type: "SKU", SKU: m.SKU}
	}
	return &benefitMaterialBody{Type: "PRODUCT", Product: m.Product}
}

func benefitJSON(i *ent.Incentive) benefitBody {
	b := benefitBody{ID: loyaltybase.BenefitID(i.ID), Name: i.Name, Type: string(i.Type), Status: string(i.Status),
		Points: i.Points, PointsProportional: i.PointsProportional, Material: benefitMaterialJSON(i.Material), Digital: i.Digital,
		CreatedAt: httpkit.Timestamp(i.CreatedAt), UpdatedAt: httpkit.OptionalTime(i.UpdatedAt), Object: "benefit"}
	if i.Stock < unlimitedStock {
		b.Stock = &benefitStockBody{Type: "LIMITED", Limited: &map[string]int{"quantity": i.Stock}}
	}
	return b
}

// createBenefit converts the August body and creates the incentive.
func createBenefit(root *graph.Resolver) func(context.Context, BenefitCreate) (*ent.Incentive, error) {
	return func(ctx context.Context, in BenefitCreate) (*ent.Incentive, error) {
		stock, err := in.Stock.quantity()
		if err != nil {
			return nil, err
		}
		if stock == nil {
			n := int64(unlimitedStock)
			stock = &n
		}
		return root.Mutation().CreateIncentive(ctx, loyaltybase.CreateIncentiveInput{Name: in.Name, Type: in.Type,
			Status: in.Status, Stock: stock, Points: in.Points, PointsProportional: in.PointsProportional,
			Material: in.Material, Digital: in.Digital})
	}
}

// updateBenefit converts the August body and updates the incentive.
func updateBenefit(root *graph.Resolver) func(context.Context, string, BenefitUpdate) (*ent.Incentive, error) {
	return func(ctx context.Context, id string, in BenefitUpdate) (*ent.Incentive, error) {
		stock, err := in.Stock.quantity()
		if err != nil {
			return nil, err
		}
		return root.Mutation().UpdateIncentive(ctx, id, loyaltybase.UpdateIncentiveInput{Name: in.Name, Stock: stock,
			Points: in.Points, PointsProportional: in.PointsProportional, Material: in.Material, Digital: in.Digital})
	}
}

// registerIncentiveSpellings adds the incentive routes the first handlers
// lacked (DELETE, activities) and every benefits route, on the same use
// cases.
func registerIncentiveSpellings(v2 *gin.RouterGroup, root *graph.Resolver) {
	m, q := root.Mutation(), root.Query()
	v2.DELETE("/incentives/:id", httpkit.Write(httpkit.ByParam("id", m.DeleteIncentive), incentiveJSON))
	v2.GET("/incentives/:id/activities", activityList("lcrsainc_", "id", false))

	v2.POST("/benefits", httpkit.Write(httpkit.WithBody(createBenefit(root)), benefitJSON))
	v2.GET("/benefits", listV2("lcrsben_", "benefits", incentivePage(root, benefitJSON)))
	v2.GET("/benefits/:benefitId", httpkit.Read(httpkit.ByParam("benefitId", q.Incentive), benefitJSON))
	v2.PUT("/benefits/:benefitId", httpkit.Write(httpkit.WithParamAndBody("benefitId", updateBenefit(root)), benefitJSON))
	v2.DELETE("/benefits/:benefitId", httpkit.Write(httpkit.ByParam("benefitId", m.DeleteIncentive), benefitJSON))
	v2.POST("/benefits/:benefitId/activate", httpkit.Write(httpkit.ByParam("benefitId", m.ActivateIncentive), benefitJSON))
	v2.POST("/benefits/:benefitId/draft", httpkit.Write(httpkit.ByParam("benefitId", m.DraftIncentive), benefitJSON))
	v2.GET("/benefits/:benefitId/activities", activityList("lcrsaben_", "benefitId", true))
}

// activityList serves GET …/{id}/activities of a program, card definition,
// earning rule, incentive or tier structure; benefits renames the
// incentive's activities to the August spelling.
func activityList(cursor, param string, benefits bool) gin.HandlerFunc {
	return keysetList(cursor, "activities", func(c *gin.Context, p loyaltybase.PageInput) ([]map[string]any, func(map[string]any) string, bool, error) {
		page, err := loyaltybase.LoyaltyActivities(c.Request.Context(), c.Param(param), p)
		if err != nil {
			return nil, nil, false, err
		}
		out := make([]map[string]any, len(page.Data))
		for i, a := range page.Data {
			out[i] = loyaltyActivityJSON(a, benefits)
		}
		return out, func(b map[string]any) string { return storedActivityID(b["id"].(string)) }, page.HasMore, nil
	})
}

// loyaltyActivityJSON renders an activity: {id, type, <resource>_id, data,
// created_at, group_id, source, object: <resource>_activity}.
func loyaltyActivityJSON(a *ent.LoyaltyActivity, benefits bool) map[string]any {
	kind, id, typ, data := a.ResourceType, a.ResourceID, a.Type, a.Data
	if snapshot, ok := data[kind].(map[string]any); ok {
		data = map[string]any{kind: activitySnapshot(kind, snapshot)}
	}
	if benefits && kind == "incentive" {
		kind, id, typ = "benefit", loyaltybase.BenefitID(id), strings.Replace(typ, "vl.incentive.", "vl.benefit.", 1)
		snapshot := map[string]any{}
		if inc, ok := data["incentive"].(map[string]any); ok {
			snapshot = benefitSnapshot(inc)
			snapshot["id"], snapshot["object"] = id, "benefit"
		}
		data = map[string]any{"benefit": snapshot}
	}
	activityID := a.ID
	if benefits {
		activityID = loyaltybase.BenefitID(a.ID)
	}
	return map[string]any{"id": activityID, "type": typ, kind + "_id": id, "data": httpkit.OrEmpty(data),
		"created_at": httpkit.Timestamp(a.CreatedAt), "group_id": a.GroupID, "source": a.Source, "object": kind + "_activity"}
}

// storedActivityID undoes the August spelling of an activity id.
func storedActivityID(id string) string {
	if rest, ok := strings.CutPrefix(id, "laben_"); ok {
		return "lainc_" + rest
	}
	return id
}

// incentivePage reads a page of incentives rendered by render (the June or
// the August shape).
func incentivePage[B any](root *graph.Resolver, render func(*ent.Incentive) B) fetchPage[B] {
	return func(c *gin.Context, after *entgql.Cursor[string], limit int, dir entgql.OrderDirection) ([]B, entgql.PageInfo[string], error) {
		conn, err := root.Query().Incentives(c.Request.Context(), after, &limit, nil, nil,
			&ent.IncentiveOrder{Field: ent.IncentiveOrderFieldCreatedAt, Direction: dir}, nil)
		if err != nil {
			return nil, entgql.PageInfo[string]{}, err
		}
		return nodes(conn.Edges, func(e *ent.IncentiveEdge) *ent.Incentive { return e.Node }, render), conn.PageInfo, nil
	}
}
