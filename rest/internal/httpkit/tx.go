package httpkit

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
)

// InTx runs a write resolver call in one transaction of the request and
// returns its result: a failure leaves nothing written.
func InTx[T any](c *gin.Context, fn func(ctx context.Context) (T, error)) (T, error) {
	var out T
	err := graph.InTx(c.Request.Context(), func(ctx context.Context) error {
		var err error
		out, err = fn(ctx)
		return err
	})
	return out, err
}
