// Package referrals serves the holders of referral codes (the 6
// operations of the real service's referrals API:
// /v1/referrals[/{campaignId}]/members/{memberId}/holders, SDK
// referrals.*) through the graph's resolvers (graph/referral).
//
// It is an area out of the flat rest package: it imports the shared kit
// rest/internal/httpkit, never rest (graph/internal/layering).
package referrals

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/referral"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Register mounts the holders' routes on v1, each behind auth (the v1
// keys or a bearer token), twice: with the referral campaign and without
// it (the member's code names it). root is the router's resolver.
func Register(v1 *gin.RouterGroup, auth gin.HandlerFunc, root *graph.Resolver) {
	q, m := root.Query(), root.Mutation()
	for _, prefix := range []string{"/referrals/:campaignId/members/:memberId", "/referrals/members/:memberId"} {
		// {holders:[customer…], metadata?} → {holders:[…]}.
		v1.POST(prefix+"/holders", auth, httpkit.Write(httpkit.Decoded(
			func(c *gin.Context, ctx context.Context, in referral.HoldersInput) ([]*referral.Holder, error) {
				return m.AddReferralHolders(ctx, campaignParam(c), c.Param("memberId"), in)
			}), func(hs []*referral.Holder) gin.H { return gin.H{"holders": holdersJSON(hs)} }))
		v1.GET(prefix+"/holders", auth, httpkit.Read(listOp(q.ReferralHolders), holderList))
		// 204 (a referee only).
		v1.DELETE(prefix+"/holders/:holderId", auth, httpkit.NoContent(httpkit.Bound(func(c *gin.Context, ctx context.Context) (string, error) {
			return m.RemoveReferralHolder(ctx, campaignParam(c), c.Param("memberId"), c.Param("holderId"))
		})))
	}
}

// holderBody is the real service's redeemable_holder object.
type holderBody struct {
	ID               string            `json:"id"`
	CreatedAt        httpkit.Timestamp `json:"created_at"`
	RedeemableID     string            `json:"redeemable_id"`
	RedeemableObject string            `json:"redeemable_object"`
	CustomerID       string            `json:"customer_id"`
	HolderRole       string            `json:"holder_role"`
	CampaignID       string            `json:"campaign_id"`
	CampaignType     string            `json:"campaign_type"`
	VoucherType      string            `json:"voucher_type"`
	Metadata         map[string]any    `json:"metadata,omitempty"`
	Object           string            `json:"object"`
}

func holdersJSON(hs []*referral.Holder) []holderBody {
	out := make([]holderBody, len(hs))
	for i, h := range hs {
		out[i] = holderBody{ID: h.ID, CreatedAt: httpkit.Timestamp(h.CreatedAt), RedeemableID: h.VoucherID, RedeemableObject: "voucher",
			CustomerID: h.CustomerID, HolderRole: h.HolderRole, CampaignID: h.CampaignID, CampaignType: "REFERRAL_PROGRAM",
			VoucherType: h.VoucherType, Metadata: h.Metadata, Object: "redeemable_holder"}
	}
	return out
}

// holderList renders a page of holders: the v1 list with has_more.
func holderList(res *referral.HolderList) gin.H {
	return gin.H{"object": "list", "data_ref": "data", "data": holdersJSON(res.Data), "total": res.Total, "has_more": res.HasMore}
}

// campaignParam is the optional {campaignId} of the twin routes.
func campaignParam(c *gin.Context) *string {
	if id := c.Param("campaignId"); id != "" {
		return &id
	}
	return nil
}

// listOp reads GET …/holders' query (limit, order, starting_after_id,
// filters[holder_role][conditions][$is]) for fn.
func listOp(fn func(context.Context, *string, string, *referral.HolderListInput) (*referral.HolderList, error)) httpkit.Op[*referral.HolderList] {
	return func(c *gin.Context) (httpkit.Call[*referral.HolderList], error) {
		limit, err := httpkit.QueryInt(c, "limit")
		if err != nil {
			return nil, err
		}
		in := &referral.HolderListInput{Limit: limit}
		httpkit.QueryStrings(c, map[string]**string{"order": &in.Order, "starting_after_id": &in.StartingAfterID,
			"filters[holder_role][conditions][$is]": &in.HolderRole})
		campaign, member := campaignParam(c), c.Param("memberId")
		return func(ctx context.Context) (*referral.HolderList, error) { return fn(ctx, campaign, member, in) }, nil
	}
}
