package loyaltyv2

import (
	"net/http"

	"entgo.io/contrib/entgql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Cursor prefixes of the v2 lists (the real service's shapes).
const (
	cardActivityCursor   = "lcrsacrd_"
	rewardActivityCursor = "lcrsarew_"
	cardTxCursor         = "lcrsctx_"
)

// cardActivities serves GET …/cards/{cardId}/activities: keyset pages with
// a signed, expiring cursor (see cursor.go).
func (h loyaltyHandlers) cardActivities(c *gin.Context) {
	q := queryOf(c)
	page, err := parseV2Page(q)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	filter, err := parseActivityFilters(q, schema.CardActivityTypes)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	cardID := c.Param("cardId")
	fp := fingerprint("card", c.Param("programId"), c.Param("memberId"), cardID, page.orderName(), filter.canon)
	var after *entgql.Cursor[string]
	if page.Cursor != "" {
		if after, err = openCursor(c, cardActivityCursor, page.Cursor, fp); err != nil {
			httpkit.RenderError(c, err)
			return
		}
	}
	order := &ent.CardActivityOrder{Field: ent.CardActivityOrderFieldCreatedAt, Direction: page.direction()}
	conn, err := h.root.Query().CardActivities(c.Request.Context(), c.Param("programId"), c.Param("memberId"), cardID,
		after, &page.Limit, order, filter.cardWhere())
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out := v2List[cardActivityBody]{Data: make([]cardActivityBody, 0, len(conn.Edges)), Object: "list"}
	for _, e := range conn.Edges {
		out.Data = append(out.Data, cardActivityJSON(e.Node))
	}
	if conn.PageInfo.HasNextPage && conn.PageInfo.EndCursor != nil {
		if out.Cursor, err = signCursor(c, cardActivityCursor, conn.PageInfo.EndCursor, fp); err != nil {
			httpkit.RenderError(c, err)
			return
		}
	}
	c.PureJSON(http.StatusOK, out)
}

// rewardActivities serves GET /v2/loyalties/rewards/{id}/activities.
func (h loyaltyHandlers) rewardActivities(c *gin.Context) {
	q := queryOf(c)
	page, err := parseV2Page(q)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	filter, err := parseActivityFilters(q, loyalty.RewardActivityTypes)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	rewardID := c.Param("id")
	fp := fingerprint("reward", rewardID, page.orderName(), filter.canon)
	var after *entgql.Cursor[string]
	if page.Cursor != "" {
		if after, err = openCursor(c, rewardActivityCursor, page.Cursor, fp); err != nil {
			httpkit.RenderError(c, err)
			return
		}
	}
	order := &ent.RewardActivityOrder{Field: ent.RewardActivityOrderFieldCreatedAt, Direction: page.direction()}
	conn, err := h.root.Query().RewardActivities(c.Request.Context(), rewardID, after, &page.Limit, order, filter.rewardWhere())
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out := v2List[rewardActivityBody]{Data: make([]rewardActivityBody, 0, len(conn.Edges)), Object: "list"}
	for _, e := range conn.Edges {
		out.Data = append(out.Data, rewardActivityJSON(e.Node))
	}
	if conn.PageInfo.HasNextPage && conn.PageInfo.EndCursor != nil {
		if out.Cursor, err = signCursor(c, rewardActivityCursor, conn.PageInfo.EndCursor, fp); err != nil {
			httpkit.RenderError(c, err)
			return
		}
	}
	c.PureJSON(http.StatusOK, out)
}

// cardTransactions serves GET …/cards/{cardId}/transactions.
func (h loyaltyHandlers) cardTransactions(c *gin.Context) {
	page, err := parseV2Page(queryOf(c))
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	cardID := c.Param("cardId")
	fp := fingerprint("card-tx", c.Param("programId"), c.Param("memberId"), cardID, page.orderName())
	var after *entgql.Cursor[string]
	if page.Cursor != "" {
		if after, err = openCursor(c, cardTxCursor, page.Cursor, fp); err != nil {
			httpkit.RenderError(c, err)
			return
		}
	}
	order := &ent.CardTransactionOrder{Field: ent.CardTransactionOrderFieldCreatedAt, Direction: page.direction()}
	conn, err := h.root.Query().CardTransactions(c.Request.Context(), c.Param("programId"), c.Param("memberId"), cardID,
		after, &page.Limit, order)
	if err != nil {
		httpkit.RenderError(c, err)
		return
	}
	txs := make([]*ent.CardTransaction, len(conn.Edges))
	for i, e := range conn.Edges {
		txs[i] = e.Node
	}
	if err := loyalty.LoadTransactionCards(c.Request.Context(), txs...); err != nil {
		httpkit.RenderError(c, err)
		return
	}
	out := v2List[cardTransactionBody]{Data: mapAll(txs, CardTransactionJSON), Object: "list"}
	if conn.PageInfo.HasNextPage && conn.PageInfo.EndCursor != nil {
		if out.Cursor, err = signCursor(c, cardTxCursor, conn.PageInfo.EndCursor, fp); err != nil {
			httpkit.RenderError(c, err)
			return
		}
	}
	c.PureJSON(http.StatusOK, out)
}
