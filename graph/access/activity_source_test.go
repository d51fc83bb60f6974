package access

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// TestActivitySourceClientKey: what a client-side key does is recorded
// with channel CLIENT_API and the key's id as client_app_id; a server-side
// key leaves client_app_id null (present), also when its OAuth token is
// used on the client API; work without a viewer is INTERNAL.
func TestActivitySourceClientKey(t *testing.T) {
	db := entdbtest.Open(t)
	base := entdb.WithDialect(ent.NewContext(context.Background(), db.Client), db.Dialect)
	var creds ProjectCredentials
	if err := store.InTx(base, func(ctx context.Context) (err error) {
		creds, err = CreateProject(ctx, "sources", "", "")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		v    viewer.Viewer
		want string
	}{
		{"client-side key", viewer.Viewer{ProjectID: creds.ProjectID, AppID: creds.ClientAppID, Client: true},
			`{"channel":"CLIENT_API","api_key":{"name":"client","app_id":"` + creds.ClientAppID + `","client_app_id":"` + creds.ClientAppID + `"}}`},
		{"server-side key", viewer.Viewer{ProjectID: creds.ProjectID, AppID: creds.AppID},
			`{"channel":"API","api_key":{"name":"default","app_id":"` + creds.AppID + `","client_app_id":null}}`},
		{"server key's token on the client API", viewer.Viewer{ProjectID: creds.ProjectID, AppID: creds.AppID, TokenID: "tok", Client: true},
			`{"channel":"CLIENT_API","api_key":{"name":"default","app_id":"` + creds.AppID + `","client_app_id":null}}`},
	}
	for _, tc := range cases {
		src, err := loyaltybase.ActivitySource(viewer.NewContext(base, tc.v))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got, _ := json.Marshal(src); string(got) != tc.want {
			t.Errorf("%s: source = %s, want %s", tc.name, got, tc.want)
		}
	}
	src, err := loyaltybase.ActivitySource(base)
	if got, _ := json.Marshal(src); err != nil || string(got) != `{"channel":"INTERNAL"}` {
		t.Errorf("no viewer: %s %v", got, err)
	}
}
