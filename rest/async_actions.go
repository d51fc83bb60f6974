package rest

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
)

// asyncActions serves GET /v1/async-actions: the newest jobs (limit 1-100,
// default 10), created before end_date when given.
func (h voucherHandlers) asyncActions(c *gin.Context) {
	limit, err := queryInt(c, "limit")
	if err != nil {
		renderError(c, err)
		return
	}
	var endDate *time.Time
	if err := queryTimes(c, map[string]**time.Time{"end_date": &endDate}); err != nil {
		renderError(c, err)
		return
	}
	jobs, err := h.root.Query().AsyncActionList(c.Request.Context(), limit, endDate)
	if err != nil {
		renderError(c, err)
		return
	}
	out := make([]asyncActionBody, len(jobs))
	for i, j := range jobs {
		out[i] = asyncActionJSON(j)
	}
	c.PureJSON(http.StatusOK, gin.H{"object": "list", "data_ref": "async_actions", "async_actions": out})
}
