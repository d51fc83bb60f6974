package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/store"
	publicationpkg "github.com/promoengine/promoengine/graph/publication"
)

// The nested pages of the two benchmark lists (docs/bench/graphql.sh).
const (
	nestedCustomers = `{ customerList(input: {limit: 20}) { data { id sourceID
		publications(first: 5) { edges { node { id createdAt voucherCodes } } } } } }`
	nestedPublications = `{ publicationList(input: {limit: 20}) { data { id createdAt customer { id sourceID }
		vouchers(first: 3) { edges { node { code campaign { name } } } } } } }`
)

// TestNestedPagesAnswerAsOneOwner: the nested connections of a page of
// customers (their publications) and of publications (their codes), loaded
// for the whole page in one statement — on PostgreSQL with the owners' IDs
// as one array parameter (inIDs, ent/template/inids.tmpl) — answer with
// the same bytes as the same connection asked of each owner alone, which
// loads it with ent's IN list of one ID. The customers have more
// publications and the publications more codes than a page holds, so the
// per-owner limit and order are compared too.
func TestNestedPagesAnswerAsOneOwner(t *testing.T) {
	db, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", campaigntest.Codes("A", 80)...)
	four := 4
	for i := range 5 {
		src := fmt.Sprintf("owner-%d", i)
		for range 3 - i%2 { // 3 or 2 publications, of 4 codes each
			if _, err := publicationpkg.Publish(ctx, fromCampaign("promo", src, &four), false); err != nil {
				t.Fatal(err)
			}
		}
	}
	recCtx, rec := recordSQL(t, ctx)
	rec.take()
	customers := gqlQuery(t, recCtx, strings.Replace(nestedCustomers, "first: 5", "first: 2", 1))
	publications := gqlQuery(t, recCtx, nestedPublications)
	if db.Dialect == "postgres" {
		var arrays int
		for _, s := range rec.take() {
			if strings.Contains(s, "IN (SELECT unnest(") {
				arrays++
			}
		}
		if arrays != 2 {
			t.Errorf("%d statements match the owners as one array, want 2 (the publications, the codes)", arrays)
		}
	}

	same := func(what string, listed, alone any) {
		t.Helper()
		a, _ := json.Marshal(listed)
		b, _ := json.Marshal(alone)
		if string(a) != string(b) {
			t.Errorf("%s: in the page %s\nalone       %s", what, a, b)
		}
	}
	rows := customers["customerList"].(map[string]any)["data"].([]any)
	if len(rows) != 5 {
		t.Fatalf("%d customers, want 5", len(rows))
	}
	for _, r := range rows {
		c := r.(map[string]any)
		if n := len(c["publications"].(map[string]any)["edges"].([]any)); n != 2 {
			t.Errorf("customer %v: %d publications, want the page's 2", c["sourceID"], n)
		}
		alone := gqlQuery(t, ctx, fmt.Sprintf(`{ customer(idOrSourceID: %q) {
			publications(first: 2) { edges { node { id createdAt voucherCodes } } } } }`, c["id"]))
		same(fmt.Sprint("customer ", c["sourceID"]), c["publications"], alone["customer"].(map[string]any)["publications"])
	}
	rows = publications["publicationList"].(map[string]any)["data"].([]any)
	if len(rows) != 13 {
		t.Fatalf("%d publications, want 13", len(rows))
	}
	for _, r := range rows {
		p := r.(map[string]any)
		if n := len(p["vouchers"].(map[string]any)["edges"].([]any)); n != 3 {
			t.Errorf("publication %v: %d codes, want the page's 3", p["id"], n)
		}
		alone := gqlQuery(t, ctx, fmt.Sprintf(`{ node(id: %q) { ... on Publication {
			vouchers(first: 3) { edges { node { code campaign { name } } } } } } }`, p["id"]))
		same(fmt.Sprint("publication ", p["id"]), p["vouchers"], alone["node"].(map[string]any)["vouchers"])
	}
}

// TestNestedPagesStayInTheProject: rows of another project that name this
// project's customer or publication (which no write of the service makes)
// never appear in the nested pages: the loads match the owners' IDs and
// the project, as a load of one owner does.
func TestNestedPagesStayInTheProject(t *testing.T) {
	db, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", campaigntest.Codes("M", 6)...)
	publishedCustomers(t, ctx, "promo", "mine", 2)

	var other access.ProjectCredentials
	base := entdb.WithDialect(ent.NewContext(context.Background(), ent.FromContext(ctx)), db.Dialect)
	if err := store.InTx(base, func(ctx context.Context) (err error) {
		other, err = access.CreateProject(ctx, "other", "", "")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	otherCtx := viewer.NewContext(base, viewer.Viewer{ProjectID: other.ProjectID})
	campaigntest.WithCodes(t, otherCtx, "theirs", "STRANGERCODE")
	stranger, err := publicationpkg.Publish(otherCtx, fromCampaign("theirs", "stranger", nil), false)
	if err != nil {
		t.Fatal(err)
	}
	mine, err := ent.FromContext(ctx).Publication.Query().First(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		// Their publication names my customer; my publication names their code.
		fmt.Sprintf(`UPDATE publications SET customer_id = '%s' WHERE id = '%s'`, mine.CustomerID, stranger.ID),
		fmt.Sprintf(`INSERT INTO publication_vouchers (publication_id, voucher_id) VALUES ('%s', '%s')`,
			mine.ID, stranger.Edges.Vouchers[0].ID),
	} {
		if _, err := db.SQL.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{nestedCustomers, nestedPublications} {
		data, _ := json.Marshal(gqlQuery(t, ctx, q))
		if out := string(data); strings.Contains(out, stranger.ID) || strings.Contains(out, "STRANGERCODE") {
			t.Errorf("another project's row in the answer: %s", out)
		}
	}
}
