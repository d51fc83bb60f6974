package rest

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// activities serves GET /v1/customers/{customerId}/activities (the older
// form: a total beside has_more): limit (1-100, 10), order (created_at or
// -created_at), starting_after (a time), starting_after_id, campaign_type,
// campaign_id, start_date, end_date.
func (h customerHandlers) activities(c *gin.Context) {
	res, ok := h.listActivities(c, true)
	if !ok {
		return
	}
	out := make([]gin.H, len(res.Data))
	for i, a := range res.Data {
		out[i] = gin.H{"id": a.ID, "type": a.Type, "data": a.Data, "created_at": timestamp(a.CreatedAt),
			"group_id": a.GroupID}
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "data", "data": out, "total": res.Total, "has_more": res.HasMore})
}

// activity serves GET /v1/customers/{customerId}/activity (the current
// form): the parameters of activities plus type and category; each
// activity's data holds the event's objects under data and the channel
// under event_source; a cursor (more_starting_after) instead of a total.
func (h customerHandlers) activity(c *gin.Context) {
	res, ok := h.listActivities(c, false)
	if !ok {
		return
	}
	out := make([]gin.H, len(res.Data))
	for i, a := range res.Data {
		channel := a.Channel
		if channel == "" {
			channel = "API"
		}
		item := gin.H{"id": a.ID, "type": a.Type, "created_at": timestamp(a.CreatedAt),
			"data": gin.H{"data": a.Data, "event_source": gin.H{"channel": channel}}}
		if a.GroupID != nil {
			item["group_id"] = *a.GroupID
		}
		out[i] = item
	}
	body := gin.H{"object": "list", "data_ref": "data", "data": out, "has_more": res.HasMore}
	if res.HasMore && len(res.Data) > 0 {
		body["more_starting_after"] = res.Data[len(res.Data)-1].ID
	}
	c.PureJSON(http.StatusOK, body)
}

// listActivities reads the activities query and lists them (counting them
// when the form shows a total); on a bad query it renders the error and
// reports false.
func (h customerHandlers) listActivities(c *gin.Context, total bool) (*customer.CustomerActivityList, bool) {
	in := customer.CustomerActivityListInput{WithoutTotal: !total}
	var err error
	if err = httpkit.NotSupported(c.Request.URL.Query(), "the activity list", "product_id"); err != nil {
		renderError(c, err)
		return nil, false
	}
	if in.Limit, err = queryInt(c, "limit"); err != nil {
		renderError(c, err)
		return nil, false
	}
	var campaignType *string
	queryStrings(c, map[string]**string{"order": &in.Order, "starting_after_id": &in.StartingAfterID,
		"campaign_id": &in.CampaignID, "campaign_type": &campaignType, "type": &in.Type, "category": &in.Category})
	if campaignType != nil {
		t := campaign.CampaignType(*campaignType)
		in.CampaignType = &t
	}
	if err := queryTimes(c, map[string]**time.Time{"starting_after": &in.StartingAfter,
		"start_date": &in.StartDate, "end_date": &in.EndDate}); err != nil {
		renderError(c, err)
		return nil, false
	}
	res, err := h.root.Query().CustomerActivityList(c.Request.Context(), c.Param("customerId"), &in)
	if err != nil {
		renderError(c, err)
		return nil, false
	}
	return res, true
}
