package loyaltyv2

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/graph/loyalty/payment"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// Order payments with points (graph/loyalty/payment/order_payments.go):
// POST …/members/{memberId}/orders/payments pays (202, TRANSACTION) or
// simulates (200, DRY_RUN) in the request's transaction; GET lists the
// member's order transactions (cursor lcrsotx_), filtered by
// order_payment_filters.go.
func registerOrderPayments(v2 *gin.RouterGroup, root *graph.Resolver) {
	m, q := root.Mutation(), root.Query()
	payments := "/programs/:programId/members/:memberId/orders/payments"
	v2.POST(payments, func(c *gin.Context) {
		var out *payment.OrderPaymentResult
		err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
			var in payment.PayOrderInput
			if err := httpkit.DecodeBody(c, &in); err != nil {
				return err
			}
			var err error
			out, err = m.PayOrderWithPoints(ctx, c.Param("programId"), c.Param("memberId"), in)
			return err
		})
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		if out.DryRun {
			c.PureJSON(http.StatusOK, gin.H{"transaction": payment.OrderPaymentJSON(out.Transaction), "status": "DRY_RUN",
				"message": "Dry run mode. No transaction was created. This is only a simulation."})
			return
		}
		c.PureJSON(http.StatusAccepted, gin.H{"transaction": payment.OrderPaymentJSON(out.Transaction),
			"status": "TRANSACTION_CREATED", "message": "Pay with points transaction created"})
	})
	v2.GET(payments, func(c *gin.Context) {
		filter, err := parseOrderPaymentFilters(queryOf(c))
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		// The cursor is bound to the filters (kind) as to the order and path.
		keysetPage("created_at", true, "lcrsotx_", "order-payments?"+filtersFingerprint(queryOf(c)), func(c *gin.Context, p loyaltybase.PageInput) ([]map[string]any, func(map[string]any) string, bool, error) {
			page, err := q.MemberOrderPayments(c.Request.Context(), c.Param("programId"), c.Param("memberId"), p, filter)
			if err != nil {
				return nil, nil, false, err
			}
			return mapAll(page.Data, payment.OrderPaymentJSON), func(b map[string]any) string { id, _ := b["id"].(string); return id }, page.HasMore, nil
		})(c)
	})
}
