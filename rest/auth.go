package rest

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/apperr"
)

// requireAppKeys authenticates X-App-Id + X-App-Token and puts the viewer
// (the key's project) into the request context; every project-owned query
// below is then scoped to that project by the data layer. render writes the
// 401 in the transport's own error shape.
func requireAppKeys(render func(*gin.Context, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx := c.Request.Context()
		v, err := graph.AuthenticateApp(ctx, ent.FromContext(ctx),
			c.GetHeader("X-App-Id"), c.GetHeader("X-App-Token"))
		if err != nil {
			render(c, err)
			return
		}
		c.Request = c.Request.WithContext(viewer.NewContext(ctx, v))
		c.Next()
	}
}

// renderGraphQLError writes an error the way GraphQL clients read it.
func renderGraphQLError(c *gin.Context, err error) {
	e, ok := apperr.From(err)
	if !ok {
		logger(c).ErrorContext(c.Request.Context(), "internal error", "request_id", requestID(c), "error", err.Error())
		e = apperr.Internal()
	}
	status := e.Code
	if status < 400 || status > 599 {
		status = http.StatusInternalServerError
	}
	c.Abort()
	c.PureJSON(status, gin.H{"errors": []gin.H{{
		"message":    e.Message,
		"extensions": gin.H{"code": e.Code, "key": e.Key, "request_id": requestID(c)},
	}}})
}
