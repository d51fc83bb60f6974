package rest

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph/customer"
)

// activities serves GET /v1/customers/{customerId}/activities: limit
// (1-100, 10), order (created_at or -created_at), starting_after (a time),
// starting_after_id, campaign_type, campaign_id, start_date, end_date.
func (h customerHandlers) activities(c *gin.Context) {
	var in customer.CustomerActivityListInput
	var err error
	if in.Limit, err = queryInt(c, "limit"); err != nil {
		renderError(c, err)
		return
	}
	var campaignType *string
	queryStrings(c, map[string]**string{"order": &in.Order, "starting_after_id": &in.StartingAfterID,
		"campaign_id": &in.CampaignID, "campaign_type": &campaignType})
	if campaignType != nil {
		t := campaign.CampaignType(*campaignType)
		in.CampaignType = &t
	}
	if err := queryTimes(c, map[string]**time.Time{"starting_after": &in.StartingAfter,
		"start_date": &in.StartDate, "end_date": &in.EndDate}); err != nil {
		renderError(c, err)
		return
	}
	res, err := h.root.Query().CustomerActivityList(c.Request.Context(), c.Param("customerId"), &in)
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]gin.H, len(res.Data))
	for i, a := range res.Data {
		out[i] = gin.H{"id": a.ID, "type": a.Type, "data": a.Data, "created_at": timestamp(a.CreatedAt),
			"group_id": a.GroupID}
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": out, "total": res.Total, "has_more": res.HasMore})
}
