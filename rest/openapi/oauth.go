package openapi

import "net/http"

// oauth documents /v1/oauth: issuing, introspecting and revoking access
// tokens (form-encoded; a JSON object of strings is accepted too).
func oauth(a *API) {
	a.Tag("OAuth", "Access tokens for the bearer scheme, issued with application keys.")
	tokenObject := Object(
		Req("access_token", String()),
		Req("client_id", String().Desc("The issuing application key's id.")),
		Req("expires_at", Integer().Desc("Unix time in seconds.")),
		Req("expires_in", Integer().Desc("Seconds left.")),
		Req("scope", String().Desc("Space-delimited scope values.")),
		Req("token_type", Const("Bearer")),
	)
	token := a.Schema("OAuthToken", tokenObject)
	a.Add("POST /v1/oauth/token", Op{Summary: "Generate an OAuth token", Auth: AppKeys,
		Description: "Client credentials grant. Up to 1000 live tokens per project; a token lives 900 s.",
		Form: Object(
			Req("grant_type", Const("client_credentials")),
			Opt("scope", String().Desc("Space-delimited scope values (never commas); default: the key's own rights.")),
		),
		Response: token})
	a.Add("POST /v1/oauth/introspect", Op{Summary: "Introspect an OAuth token", Auth: AppKeys,
		Description: "A live token of the caller's project with active true; {\"active\": false} for " +
			"anything else.",
		Form: Object(Req("access_token", String())),
		Response: OneOf(
			tokenObject.With(Req("active", BoolConst(true))),
			Object(Req("active", BoolConst(false))),
		)})
	a.Add("POST /v1/oauth/token/revoke", Op{Summary: "Revoke an OAuth token", Auth: AppKeys,
		Form:   Object(Req("access_token", String())),
		Status: http.StatusNoContent, Errors: []int{http.StatusNotFound}})
}
