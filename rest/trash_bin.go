package rest

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/bin"
)

// trashBinHandlers serve the trash bin (docs/trash-bin.md): GET
// /v1/trash-bin and DELETE /v1/trash-bin/{binEntryId}.
type trashBinHandlers struct{ root *graph.Resolver }

// registerTrashBin mounts the routes.
func registerTrashBin(v1 *gin.RouterGroup, auth gin.HandlerFunc, h trashBinHandlers) {
	v1.GET("/trash-bin", auth, h.list)
	v1.DELETE("/trash-bin/:binEntryId", auth, h.delete)
	v1.POST("/trash-bin/:binEntryId/restore", auth, h.restore)
}

// list serves GET /v1/trash-bin?limit&order&starting_after_id&filters[…].
func (h trashBinHandlers) list(c *gin.Context) {
	in := &bin.ListInput{}
	var err error
	if in.Limit, err = queryInt(c, "limit"); err != nil {
		renderError(c, err)
		return
	}
	queryStrings(c, map[string]**string{"order": &in.Order, "starting_after_id": &in.StartingAfterID})
	conds, or, err := conditionFilters(c.Request.URL.Query())
	if err != nil {
		renderError(c, err)
		return
	}
	in.Or = or
	for _, f := range conds {
		in.Filters = append(in.Filters, bin.Filter{Field: f.Field, Op: f.Op, Values: f.Values})
	}
	list, err := h.root.Query().BinEntries(c.Request.Context(), in)
	if err != nil {
		renderError(c, err)
		return
	}
	data := make([]gin.H, len(list.Data))
	for i, e := range list.Data {
		data[i] = binEntryJSON(e)
	}
	body := gin.H{"object": "list", "data_ref": "data", "data": data, "total": list.Total, "has_more": list.HasMore}
	if list.HasMore && len(list.Data) > 0 {
		body["more_starting_after"] = list.Data[len(list.Data)-1].ID
	}
	c.PureJSON(http.StatusOK, body)
}

// delete serves DELETE /v1/trash-bin/{binEntryId}: 204, the entry gone for
// good (another project's entry: 404).
func (h trashBinHandlers) delete(c *gin.Context) {
	if _, err := inTx(c, func(ctx context.Context) (string, error) {
		return h.root.Mutation().DeleteBinEntry(ctx, c.Param("binEntryId"))
	}); err != nil {
		renderError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// restore serves POST /v1/trash-bin/{binEntryId}/restore (our extension,
// docs/trash-bin.md): 200 with the entry that was restored, which is gone;
// 202 with the entry and the async_action_id of the job that restores a
// large campaign's vouchers.
func (h trashBinHandlers) restore(c *gin.Context) {
	e, err := inTx(c, func(ctx context.Context) (*bin.Entry, error) {
		return h.root.Mutation().RestoreBinEntry(ctx, c.Param("binEntryId"))
	})
	if err != nil {
		renderError(c, err)
		return
	}
	if e.AsyncActionID != nil {
		body := binEntryJSON(e)
		body["async_action_id"] = *e.AsyncActionID
		c.PureJSON(http.StatusAccepted, body)
		return
	}
	c.PureJSON(http.StatusOK, binEntryJSON(e))
}

// binEntryJSON is a bin entry in the documented TrashBinItem shape.
func binEntryJSON(e *bin.Entry) gin.H {
	return gin.H{"id": e.ID, "created_at": timestamp(e.CreatedAt), "deleted_by_user_id": e.DeletedByUserID,
		"resource_id": e.ResourceID, "resource_type": e.ResourceType, "resource_name": e.ResourceName,
		"resource_parent_id": e.ResourceParentID, "object": e.ResourceType}
}
