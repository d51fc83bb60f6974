package loyaltyv1

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	exportpkg "github.com/promoengine/promoengine/graph/export"
	"github.com/promoengine/promoengine/graph/loyaltyv1"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
	"github.com/promoengine/promoengine/rest/vouchers"
)

// program is the path's campaign, or nil on the routes without one.
func program(c *gin.Context) *string {
	if id := c.Param("campaignId"); id != "" {
		return &id
	}
	return nil
}

// addMember serves POST /v1/loyalties/{campaignId}/members: customer may
// be an id or source_id string, or an object upserted as in publications.
func (h loyaltyV1Handlers) addMember(c *gin.Context) {
	var req struct {
		Customer json.RawMessage `json:"customer"`
		Voucher  *string         `json:"voucher"`
		Channel  *string         `json:"channel"`
		SourceID *string         `json:"source_id"`
		Metadata map[string]any  `json:"metadata"`
	}
	if err := httpkit.DecodeBody(c, &req); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	in := loyaltyv1.AddMemberInput{Voucher: req.Voucher, Channel: req.Channel, SourceID: req.SourceID, Metadata: req.Metadata}
	if httpkit.Present(req.Customer) {
		in.Customer = &customer.CustomerInput{}
		var id string
		if err := httpkit.DecodeStringOr(req.Customer, "customer", &id, in.Customer); err != nil {
			httpkit.RenderError(c, err)
			return
		}
		if id != "" {
			in.Customer.ID = &id
		}
	}
	// The publication runs its own transaction (graph/publication).
	card, err := h.root.Mutation().AddLoyaltyV1Member(c.Request.Context(), c.Param("campaignId"), in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.render.Voucher(c, card))
}

// listMembers serves GET /v1/loyalties/{campaignId}/members.
func (h loyaltyV1Handlers) listMembers(c *gin.Context) {
	limit, page, err := httpkit.LimitAndPage(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	in := loyaltyv1.MemberListInput{Limit: limit, Page: page, IDs: append(httpkit.QueryList(c, "ids"), httpkit.QueryList(c, "ids[]")...)}
	httpkit.QueryStrings(c, map[string]**string{"customer": &in.Customer, "code": &in.Code, "order": &in.Order})
	if err := httpkit.QueryTimes(c, map[string]**time.Time{"created_at[before]": &in.CreatedBefore, "created_at[after]": &in.CreatedAfter,
		"updated_at[before]": &in.UpdatedBefore, "updated_at[after]": &in.UpdatedAfter}); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	res, err := h.root.Query().LoyaltyV1MemberList(c.Request.Context(), c.Param("campaignId"), &in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out := make([]any, len(res.Data))
	for i, v := range res.Data {
		out[i] = h.render.Voucher(c, v)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "vouchers", "vouchers": out, "total": res.Total})
}

// getMember serves GET /v1/loyalties[/{campaignId}]/members/{memberId}.
func (h loyaltyV1Handlers) getMember(c *gin.Context) {
	card, err := h.root.Query().LoyaltyV1Member(c.Request.Context(), program(c), c.Param("memberId"))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.render.Voucher(c, card))
}

// balance serves POST /v1/loyalties[/{campaignId}]/members/{memberId}/balance.
func (h loyaltyV1Handlers) balance(c *gin.Context) {
	var in loyaltyv1.BalanceInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	// No transaction here: an addition the one statement takes
	// (loyaltyv1/credit_statement.go) commits alone, so the card's row is
	// locked for that statement only, not until a COMMIT one round trip
	// later; every other move opens its own transaction (AdjustBalance).
	out, err := h.root.Mutation().AdjustLoyaltyV1MemberBalance(c.Request.Context(), program(c), c.Param("memberId"), in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, out)
}

// transfer serves POST /v1/loyalties/{campaignId}/members/{memberId}/transfers:
// the body is an array of transfers to this member's card.
func (h loyaltyV1Handlers) transfer(c *gin.Context) {
	var in []*loyaltyv1.TransferInput
	if err := httpkit.DecodeBody(c, &in); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	card, err := httpkit.InTx(c, func(ctx context.Context) (*ent.Voucher, error) {
		return h.root.Mutation().TransferLoyaltyV1Points(ctx, c.Param("campaignId"), c.Param("memberId"), in)
	})
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, h.render.Voucher(c, card))
}

// memberTransactions serves GET …/members/{memberId}/transactions.
func (h loyaltyV1Handlers) memberTransactions(c *gin.Context) {
	in, err := transactionListQuery(c)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	res, err := h.root.Query().LoyaltyV1MemberTransactions(c.Request.Context(), program(c), c.Param("memberId"), in)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	vouchers.RenderTransactions(c, res)
}

// exportMemberTransactions serves POST …/members/{memberId}/transactions/export
// (the body is optional).
func (h loyaltyV1Handlers) exportMemberTransactions(c *gin.Context) {
	h.render.Export(c, func(ctx context.Context, p *exportpkg.ExportParametersInput) (*ent.Export, error) {
		return h.root.Mutation().ExportLoyaltyV1MemberTransactions(ctx, program(c), c.Param("memberId"), p)
	})
}

// memberActivity serves GET …/members/{memberId}/activity: the cursor list.
func (h loyaltyV1Handlers) memberActivity(c *gin.Context) {
	res, ok := h.activityPage(c, false)
	if !ok {
		return
	}
	body := gin.H{"object": "list", "data_ref": "data", "data": activitiesJSON(res), "has_more": res.HasMore}
	if res.HasMore && len(res.Data) > 0 {
		body["more_starting_after"] = res.Data[len(res.Data)-1].ID
	}
	c.PureJSON(http.StatusOK, body)
}

// memberActivities serves the deprecated GET …/members/{memberId}/activities
// (SDK getMemberActivities): the same activities under data_ref activities.
func (h loyaltyV1Handlers) memberActivities(c *gin.Context) {
	res, ok := h.activityPage(c, true)
	if !ok {
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "activities", "activities": activitiesJSON(res), "total": res.Total})
}

// activityPage lists a member's activities (counting them when the form
// shows a total); on a bad query it renders the error and reports false.
func (h loyaltyV1Handlers) activityPage(c *gin.Context, total bool) (*customer.CustomerActivityList, bool) {
	limit, err := httpkit.QueryInt(c, "limit")
	if err != nil {
		httpkit.RenderError(c, err)
		return nil, false
	}
	in := loyaltyv1.ActivityListInput{Limit: limit, WithoutTotal: !total}
	httpkit.QueryStrings(c, map[string]**string{"order": &in.Order, "starting_after_id": &in.StartingAfterID})
	if in.Order != nil && *in.Order != "created_at" && *in.Order != "-created_at" {
		httpkit.RenderError(c, apperr.InvalidQueryParams("Query parameter order must be created_at or -created_at"))
		return nil, false
	}
	res, err := h.root.Query().LoyaltyV1MemberActivity(c.Request.Context(), program(c), c.Param("memberId"), &in)
	if err != nil {
		httpkit.RenderError(c, err)
		return nil, false
	}
	return res, true
}

func activitiesJSON(res *customer.CustomerActivityList) []gin.H {
	out := make([]gin.H, len(res.Data))
	for i, a := range res.Data {
		out[i] = gin.H{"id": a.ID, "type": a.Type, "data": a.Data, "created_at": httpkit.Timestamp(a.CreatedAt), "group_id": a.GroupID}
	}
	return out
}
