package resttest

import (
	"context"
	"net/http"
	"net/url"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/access"
)

// Credentials to send with requests: application, client-side and
// management keys, and OAuth tokens.

// App returns the application-key headers of creds.
func App(creds access.ProjectCredentials) Headers {
	return Headers{"X-App-Id": creds.AppID, "X-App-Token": creds.AppToken}
}

// Token issues an OAuth access token with the given key and scope, failing
// the test when that does not work.
func (e *Env) Token(h Headers, scope string) string {
	e.T.Helper()
	resp := e.Form("/v1/oauth/token", url.Values{"grant_type": {"client_credentials"}, "scope": {scope}}, h)
	if resp.Status != http.StatusOK {
		e.T.Fatalf("issuing OAuth token: %d %s", resp.Status, resp.Body)
	}
	tok, _ := resp.JSON(e.T)["access_token"].(string)
	return tok
}

// Bearer returns the headers that authenticate with an OAuth token.
func Bearer(token string) Headers { return Headers{"Authorization": "Bearer " + token} }

// NewManagementKey stores a management key and returns its headers.
func (e *Env) NewManagementKey() Headers {
	e.T.Helper()
	mk := e.NewManagementCredentials()
	return Headers{"X-Management-Id": mk.ManagementID, "X-Management-Token": mk.ManagementToken}
}

// NewManagementCredentials stores a management key the way a first start
// does and returns its id and token.
func (e *Env) NewManagementCredentials() access.ManagementCredentials {
	e.T.Helper()
	var mk access.ManagementCredentials
	err := graph.InTx(ent.NewContext(context.Background(), e.DB.Client), func(ctx context.Context) error {
		var err error
		mk, err = access.CreateManagementKey(ctx, "", "")
		return err
	})
	if err != nil {
		e.T.Fatalf("creating management key: %v", err)
	}
	return mk
}

// Client returns the client-side key headers of creds as a browser page at
// origin sends them.
func Client(creds access.ProjectCredentials, origin string) Headers {
	return Headers{"X-Client-Application-Id": creds.ClientAppID, "X-Client-Token": creds.ClientAppToken, "Origin": origin}
}
