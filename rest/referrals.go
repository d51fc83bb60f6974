package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/referral"
)

// referralHandlers serve the referral codes' holders (the 6 operations of
// the real service's referrals API) through the GraphQL resolvers of
// graph/schema/referrals.graphqls.
type referralHandlers struct{ root *graph.Resolver }

// registerReferrals mounts /v1/referrals[/{campaignId}]/members/{memberId}/holders.
func registerReferrals(v1 *gin.RouterGroup, auth gin.HandlerFunc, h referralHandlers) {
	for _, prefix := range []string{"/referrals/:campaignId/members/:memberId", "/referrals/members/:memberId"} {
		v1.POST(prefix+"/holders", auth, h.add)
		v1.GET(prefix+"/holders", auth, h.list)
		v1.DELETE(prefix+"/holders/:holderId", auth, h.remove)
	}
}

// holderBody is the real service's redeemable_holder object.
type holderBody struct {
	ID               string         `json:"id"`
	CreatedAt        timestamp      `json:"created_at"`
	RedeemableID     string         `json:"redeemable_id"`
	RedeemableObject string         `json:"redeemable_object"`
	CustomerID       string         `json:"customer_id"`
	HolderRole       string         `json:"holder_role"`
	CampaignID       string         `json:"campaign_id"`
	CampaignType     string         `json:"campaign_type"`
	VoucherType      string         `json:"voucher_type"`
	Metadata         map[string]any `json:"metadata,omitempty"`
	Object           string         `json:"object"`
}

func holdersJSON(hs []*referral.Holder) []holderBody {
	out := make([]holderBody, len(hs))
	for i, h := range hs {
		out[i] = holderBody{ID: h.ID, CreatedAt: timestamp(h.CreatedAt), RedeemableID: h.VoucherID, RedeemableObject: "voucher",
			CustomerID: h.CustomerID, HolderRole: h.HolderRole, CampaignID: h.CampaignID, CampaignType: "REFERRAL_PROGRAM",
			VoucherType: h.VoucherType, Metadata: h.Metadata, Object: "redeemable_holder"}
	}
	return out
}

// optionalCampaignParam is the optional {campaignId} of the twin routes.
func optionalCampaignParam(c *gin.Context) *string {
	if id := c.Param("campaignId"); id != "" {
		return &id
	}
	return nil
}

// add serves POST …/holders: {holders:[customer…], metadata?} → {holders:[…]}.
func (h referralHandlers) add(c *gin.Context) {
	var in referral.HoldersInput
	if err := decodeBody(c, &in); err != nil {
		renderError(c, err)
		return
	}
	hs, err := inTx(c, func(ctx context.Context) ([]*referral.Holder, error) {
		return h.root.Mutation().AddReferralHolders(ctx, optionalCampaignParam(c), c.Param("memberId"), in)
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"holders": holdersJSON(hs)})
}

// list serves GET …/holders (limit, order, starting_after_id,
// filters[holder_role][conditions][$is]).
func (h referralHandlers) list(c *gin.Context) {
	limit, err := queryInt(c, "limit")
	if err != nil {
		renderError(c, err)
		return
	}
	in := &referral.HolderListInput{Limit: limit}
	queryStrings(c, map[string]**string{"order": &in.Order, "starting_after_id": &in.StartingAfterID,
		"filters[holder_role][conditions][$is]": &in.HolderRole})
	res, err := h.root.Query().ReferralHolders(c.Request.Context(), optionalCampaignParam(c), c.Param("memberId"), in)
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": holdersJSON(res.Data),
		"total": res.Total, "has_more": res.HasMore})
}

// remove serves DELETE …/holders/{holderId}: 204 (a referee only).
func (h referralHandlers) remove(c *gin.Context) {
	_, err := inTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().RemoveReferralHolder(ctx, optionalCampaignParam(c), c.Param("memberId"), c.Param("holderId"))
	})
	if err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
