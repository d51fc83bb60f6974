package rest

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	jobrun "github.com/promoengine/promoengine/graph/job"
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

// asyncAction serves GET /v1/async-actions/{id}.
func (h voucherHandlers) asyncAction(c *gin.Context) {
	job, err := h.root.Query().AsyncAction(c.Request.Context(), c.Param("id"))
	if err != nil {
		renderError(c, err)
		return
	}
	c.PureJSON(http.StatusOK, asyncActionJSON(job))
}

// asyncActionBody is the real service's async action object.
type asyncActionBody struct {
	ID             string         `json:"id"`
	Type           string         `json:"type"`
	Status         string         `json:"status"`
	Result         map[string]any `json:"result"`
	CreatedAt      timestamp      `json:"created_at"`
	UpdatedAt      *timestamp     `json:"updated_at"`
	RequestID      *string        `json:"request_id"`
	ProcessingTime *int64         `json:"processing_time"`
	Progress       int            `json:"progress"`
	Object         string         `json:"object"`
}

func asyncActionJSON(j *ent.AsyncAction) asyncActionBody {
	var processing *int64
	if j.StartedAt != nil && j.FinishedAt != nil {
		ms := j.FinishedAt.Sub(*j.StartedAt).Milliseconds()
		processing = &ms
	}
	return asyncActionBody{
		ID: j.ID, Type: asyncActionType(j.Type), Status: j.Status.String(), Result: j.Result,
		CreatedAt: timestamp(j.CreatedAt), UpdatedAt: optionalTime(j.UpdatedAt),
		RequestID: j.RequestID, ProcessingTime: processing, Progress: jobrun.Progress(j),
		Object: "async_action",
	}
}
