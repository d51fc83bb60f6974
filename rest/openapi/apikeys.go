package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/graph/access"
)

// apiKeys documents a project's server-side (api-keys) and client-side
// (client-keys) application keys (rest/management/keys.go).
func apiKeys(a *API) {
	a.Tag("Management keys", "A project's application keys, server- and client-side.")
	apiKey := a.Schema("ApplicationKey", Object(
		Req("object", Const("api_key")),
		Req("app_id", String()),
		Opt("app_token", String().Desc("Only in the answers of create and regenerate.")),
		Req("name", String()),
		Req("status", EnumOf(appkey.StatusACTIVE, appkey.StatusBLOCKED)),
		Req("allowed_ips", Array(String()).Desc("Addresses or CIDRs the key works from; empty: any.")),
		Req("project_id", String()),
		Req("side", EnumOf(appkey.SideSERVER, appkey.SideCLIENT)),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
	))
	input := Input[access.AppKeyInput]()
	for _, side := range []struct{ path, noun string }{
		{"api-keys", "server-side key"}, {"client-keys", "client-side key"},
	} {
		base := "/management/v1/projects/{projectId}/" + side.path
		id := map[string]string{"projectId": "The project's ID.", "appId": "The key's app_id."}
		project := map[string]string{"projectId": "The project's ID."}
		a.Add("GET "+base, Op{Summary: "List " + side.noun + "s", Auth: Management, PathParams: project,
			Response: V1List("data", apiKey, true)})
		a.Add("POST "+base, Op{Summary: "Create a " + side.noun, Auth: Management, PathParams: project,
			Body: input, Response: apiKey})
		a.Add("PUT "+base+"/{appId}", Op{Summary: "Update a " + side.noun, Auth: Management, PathParams: id,
			Body: input, Response: apiKey})
		a.Add("DELETE "+base+"/{appId}", Op{Summary: "Delete a " + side.noun, Auth: Management, PathParams: id,
			Description: "The key's OAuth tokens stop working too.", Status: http.StatusNoContent})
		a.Add("POST "+base+"/{appId}/block", Op{Summary: "Block a " + side.noun, Auth: Management,
			PathParams: id, Response: apiKey})
		a.Add("POST "+base+"/{appId}/unblock", Op{Summary: "Unblock a " + side.noun, Auth: Management,
			PathParams: id, Response: apiKey})
		a.Add("POST "+base+"/{appId}/regenerate", Op{Summary: "Regenerate a " + side.noun, Auth: Management,
			Description: "A new token for the same app_id.", PathParams: id, Response: apiKey})
	}
}
