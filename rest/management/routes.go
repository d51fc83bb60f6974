// Package management serves the management API (/management/v1,
// management keys): projects, their branding, users, server- and
// client-side keys, webhooks, metadata schemas, custom event schemas,
// stacking rules and campaign templates, and authenticates
// /management/graphql. Every handler is one call of a management graph
// resolver (the fields /management/graphql serves), which checks the
// project (404), its plan feature (402) and runs the use case scoped to
// that project in one transaction.
//
// It is the first area out of the flat rest package: it imports the
// shared kit rest/internal/httpkit, never rest (graph/internal/layering).
package management

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// handlers serve /management/v1. origins learns of changes to trusted
// domains at once (Forget).
type handlers struct {
	root    *graph.Resolver
	origins *access.TrustedOrigins
}

// Register mounts the management area (/management/v1, management keys)
// on r. Every handler is one call of the management graph's resolvers on
// root, the router's resolver. origins learns of trusted-domain changes
// at once.
func Register(r *gin.Engine, root *graph.Resolver, origins *access.TrustedOrigins) {
	h := handlers{root: root, origins: origins}
	projects := r.Group("/management/v1/projects", httpkit.RequireManagementKeys, httpkit.MarkManagement)
	projects.GET("", h.listProjects)
	projects.POST("", h.createProject)
	projects.GET("/:projectId", h.getProject)
	projects.PUT("/:projectId", h.updateProject)
	projects.DELETE("/:projectId", h.deleteProject)

	mgmt := projects.Group("/:projectId")
	mgmt.POST("/webhook-token/regenerate", h.regenerateWebhookToken)
	h.registerWebhooks(mgmt)
	h.registerTemplates(projects, mgmt)
	for path, route := range map[string]struct {
		id                             string
		list, create, get, update, del gin.HandlerFunc
	}{
		"/branding":             {":brandingId", h.listBrandings, h.createBranding, h.getBranding, h.updateBranding, h.deleteBranding},
		"/users":                {":userId", h.listUsers, h.assignUser, h.getUser, h.updateUser, h.unassignUser},
		"/metadata-schemas":     {":schemaId", h.listMetadataSchemas, h.createMetadataSchema, h.getMetadataSchema, h.updateMetadataSchema, h.deleteMetadataSchema},
		"/custom-event-schemas": {":schemaId", h.listCustomEventSchemas, h.createCustomEventSchema, h.getCustomEventSchema, h.updateCustomEventSchema, h.deleteCustomEventSchema},
		"/stacking-rules":       {":stackingRulesId", h.listStackingRules, h.createStackingRules, h.getStackingRules, h.updateStackingRules, h.deleteStackingRules},
	} {
		mgmt.GET(path, route.list)
		mgmt.POST(path, route.create)
		mgmt.GET(path+"/"+route.id, route.get)
		mgmt.PUT(path+"/"+route.id, route.update)
		mgmt.DELETE(path+"/"+route.id, route.del)
	}
	for path, keys := range map[string]apiKeyHandlers{
		"/api-keys":    {root: h.root, client: false},
		"/client-keys": {root: h.root, client: true},
	} {
		mgmt.GET(path, keys.list)
		mgmt.POST(path, keys.create)
		mgmt.PUT(path+"/:appId", keys.update)
		mgmt.DELETE(path+"/:appId", keys.delete)
		mgmt.POST(path+"/:appId/block", keys.setStatus(true))
		mgmt.POST(path+"/:appId/unblock", keys.setStatus(false))
		mgmt.POST(path+"/:appId/regenerate", keys.regenerate)
	}
}
