package management

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// RequireGraphQL authenticates /management/graphql with
// management keys (errors in the GraphQL shape) and marks the request so
// the graph's management fields answer. The request has no project viewer:
// project data is reached only through the management fields, each of
// which scopes itself to the project it names.
func RequireGraphQL(c *gin.Context) {
	if err := httpkit.AuthenticateManagement(c); err != nil {
		httpkit.RenderGraphQLError(c, err)
		return
	}
	httpkit.MarkManagement(c)
}
