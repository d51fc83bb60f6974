package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

const joinedPublications = `{ publicationList(input: {limit: 20}) { data { id createdAt customer { id sourceID }
	vouchers(first: 3) { edges { node { code campaign { name } } } } } } }`

// TestPublicationListJoinsUniqueEdges: a page of publications with each
// one's customer and codes with their campaigns costs two statements — the
// page with its customers, the codes with their campaigns (JoinEdges,
// ent/template/joinedge.tmpl) — and each join matches the project too.
func TestPublicationListJoinsUniqueEdges(t *testing.T) {
	_, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", campaigntest.Codes("J", 12)...)
	publishedCustomers(t, ctx, "promo", "joined", 3)
	recCtx, rec := recordSQL(t, ctx)
	rec.take()
	data := gqlQuery(t, recCtx, joinedPublications)
	stmts := rec.take()
	if len(stmts) != 2 {
		t.Errorf("%d statements, want 2:\n%s", len(stmts), strings.Join(stmts, "\n"))
	}
	for _, table := range []string{"customers", "campaigns"} {
		var join string
		for _, s := range stmts {
			if strings.Contains(s, "LEFT JOIN (SELECT") && (strings.Contains(s, "FROM `"+table+"`") || strings.Contains(s, `FROM "`+table+`"`)) {
				join = s
			}
		}
		alias := "joined_" + strings.TrimSuffix(table, "s")
		if join == "" {
			t.Errorf("no statement joins %s: %q", table, stmts)
		} else if !strings.Contains(join, alias+"__project_id") {
			t.Errorf("the join of %s does not match the project: %s", table, join)
		}
	}
	pubs := data["publicationList"].(map[string]any)["data"].([]any)
	if len(pubs) != 3 {
		t.Fatalf("%d publications, want 3", len(pubs))
	}
	for _, p := range pubs {
		p := p.(map[string]any)
		cust := p["customer"].(map[string]any)
		if !strings.HasPrefix(fmt.Sprint(cust["sourceID"]), "joined-") || !strings.HasPrefix(fmt.Sprint(cust["id"]), "cust_") {
			t.Errorf("publication %v: customer %v", p["id"], cust)
		}
		edges := p["vouchers"].(map[string]any)["edges"].([]any)
		if len(edges) != 2 {
			t.Errorf("publication %v: %d codes, want 2", p["id"], len(edges))
		}
		for _, e := range edges {
			node := e.(map[string]any)["node"].(map[string]any)
			if c, _ := node["campaign"].(map[string]any); c == nil || c["name"] != "promo" {
				t.Errorf("publication %v: code %v with campaign %v", p["id"], node["code"], node["campaign"])
			}
		}
	}
}

// TestJoinedCustomerStaysInTheProject: a publication whose customer_id
// names another project's customer (which no write of the service makes)
// never shows that customer: the join matches the project as ent's own
// load of the edge does.
func TestJoinedCustomerStaysInTheProject(t *testing.T) {
	db, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", campaigntest.Codes("K", 4)...)
	publishedCustomers(t, ctx, "promo", "mine", 1)

	var other access.ProjectCredentials
	base := ent.NewContext(context.Background(), ent.FromContext(ctx))
	if err := store.InTx(base, func(ctx context.Context) (err error) {
		other, err = access.CreateProject(ctx, "other", "", "")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	otherCtx := viewer.NewContext(base, viewer.Viewer{ProjectID: other.ProjectID})
	stranger, err := ent.FromContext(otherCtx).Customer.Create().SetSourceID("stranger").Save(otherCtx)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ent.FromContext(ctx).Publication.Query().First(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL.ExecContext(ctx, fmt.Sprintf(`UPDATE publications SET customer_id = '%s' WHERE id = '%s'`, stranger.ID, pub.ID)); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"query": joinedPublications})
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	rw := httptest.NewRecorder()
	testHandler().ServeHTTP(rw, req)
	if out := rw.Body.String(); strings.Contains(out, "stranger") || strings.Contains(out, stranger.ID) {
		t.Errorf("another project's customer in the answer: %s", out)
	}
}
