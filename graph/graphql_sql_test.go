package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	publicationpkg "github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/graph/redemption"
)

// The SQL the GraphQL layer sends, captured through ent's debug driver (it
// writes every statement to the standard logger), on SQLite and — under
// .ci/with-postgres — on PostgreSQL.

// sqlRecorder collects the statements a debug ent client logs.
type sqlRecorder struct {
	mu    sync.Mutex
	stmts []string
}

var loggedQuery = regexp.MustCompile(`\.(Query|Exec): query=(.*) args=`)

func (r *sqlRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, line := range strings.Split(string(p), "\n") {
		if m := loggedQuery.FindStringSubmatch(line); m != nil {
			r.stmts = append(r.stmts, m[2])
		}
	}
	return len(p), nil
}

// take returns the statements recorded since the last take.
func (r *sqlRecorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.stmts
	r.stmts = nil
	return out
}

// recordSQL swaps ctx's ent client for its debug twin and the standard
// logger's output for a recorder, until the test ends.
func recordSQL(t *testing.T, ctx context.Context) (context.Context, *sqlRecorder) {
	t.Helper()
	rec := &sqlRecorder{}
	out, flags := log.Writer(), log.Flags()
	log.SetOutput(rec)
	log.SetFlags(0)
	t.Cleanup(func() { log.SetOutput(out); log.SetFlags(flags) })
	return ent.NewContext(ctx, ent.FromContext(ctx).Debug()), rec
}

// testHandler is one GraphQL endpoint for the package's tests.
var testHandler = sync.OnceValue(func() http.Handler {
	return NewHandler(HandlerOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
})

// gqlQuery runs query through the GraphQL endpoint as the project of ctx
// and fails the test on any error in the response.
func gqlQuery(t testing.TB, ctx context.Context, query string) map[string]any {
	t.Helper()
	h := testHandler()
	body, _ := json.Marshal(map[string]any{"query": query})
	req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	rw := httptest.NewRecorder()
	h.ServeHTTP(rw, req)
	var resp struct {
		Data   map[string]any `json:"data"`
		Errors []any          `json:"errors"`
	}
	if err := json.Unmarshal(rw.Body.Bytes(), &resp); err != nil || len(resp.Errors) > 0 || resp.Data == nil {
		t.Fatalf("query %s: %d %s", query, rw.Code, rw.Body.String())
	}
	return resp.Data
}

// publishedCustomers publishes two codes of campaign to each of n new
// customers (source ids prefix-0, prefix-1, …) and redeems the first.
func publishedCustomers(t *testing.T, ctx context.Context, campaign, prefix string, n int) {
	t.Helper()
	two := 2
	for i := range n {
		src := fmt.Sprintf("%s-%d", prefix, i)
		pub, err := publicationpkg.Publish(ctx, fromCampaign(campaign, src, &two), false)
		if err != nil {
			t.Fatalf("publishing to %s: %v", src, err)
		}
		code := pub.Edges.Vouchers[0].Code
		if _, err := redemption.RedeemVoucher(ctx, code, &redemption.VoucherRedemptionInput{Customer: &customerpkg.CustomerInput{SourceID: &src}}); err != nil {
			t.Fatalf("redeeming %s: %v", code, err)
		}
	}
}

// enrolledMember enrols the customer with source_id cust-0 in a new loyalty
// program and returns the program's and the member's IDs.
func enrolledMember(t *testing.T, ctx context.Context) (program, member string) {
	t.Helper()
	err := store.InTx(ctx, func(ctx context.Context) error {
		prog, err := loyalty.CreateLoyaltyProgram(ctx, loyaltybase.CreateLoyaltyProgramInput{Name: graphtest.Ptr("club")})
		if err != nil {
			return err
		}
		cust, err := customerpkg.ByIDOrSourceID(ctx, "cust-0")
		if err != nil {
			return err
		}
		m, err := loyalty.CreateLoyaltyMember(ctx, prog.ID, loyaltybase.CreateLoyaltyMemberInput{CustomerID: &cust.ID})
		if err != nil {
			return err
		}
		program, member = prog.ID, m.ID
		return nil
	})
	if err != nil {
		t.Fatalf("enrolling a loyalty member: %v", err)
	}
	return program, member
}

// TestEdgeConnectionsSelectWithoutDistinct: a connection or list below one
// parent (a campaign's vouchers, a customer's publications and
// redemptions, a voucher's publications and redemptions, a publication's
// vouchers, a loyalty member's cards) is read with a plain SELECT. ent makes queries built by traversing an edge
// DISTINCT, which on PostgreSQL sorts the parent's whole child set before
// the first page comes out instead of reading it off an index.
func TestEdgeConnectionsSelectWithoutDistinct(t *testing.T) {
	_, ctx := projectContext(t)
	cmp := campaigntest.WithCodes(t, ctx, "promo", campaigntest.Codes("D", 12)...)
	publishedCustomers(t, ctx, "promo", "cust", 2)
	program, member := enrolledMember(t, ctx)
	ctx, rec := recordSQL(t, ctx)
	rec.take()

	// Each query and the table its connections read.
	queries := map[string]string{
		"vouchers": fmt.Sprintf(`{ campaign(idOrName: %q) { vouchers(first: 5) { totalCount edges { node { id code } } } } }`, cmp.ID),
		"publications": `{ customerList { data { publications(first: 5) { totalCount edges { node { id } } }
			redemptions(first: 5) { totalCount edges { node { id } } } } } }`,
		"publication_vouchers": `{ voucher(codeOrID: "D000") { publications(first: 5) { totalCount edges { node { id
			vouchers(first: 5) { totalCount edges { node { code } } } } } } redemptions(first: 5) { edges { node { id } } } } }`,
	}
	queries["cards"] = fmt.Sprintf(`{ loyaltyMember(programID: %q, memberID: %q) { id cards { id } } }`, program, member)
	for name, q := range queries {
		table := strings.TrimPrefix(name, "publication_")
		gqlQuery(t, ctx, q)
		stmts := rec.take()
		var touched bool
		for _, s := range stmts {
			if strings.Contains(strings.ToUpper(s), "DISTINCT") {
				t.Errorf("%s: statement with DISTINCT: %s", name, s)
			}
			touched = touched || strings.Contains(s, " FROM `"+table+"`") || strings.Contains(s, ` FROM "`+table+`"`)
		}
		if !touched {
			t.Errorf("%s: no statement read the table; got %q", name, stmts)
		}
	}
}

// TestListsLoadNestedEdgesPerPage: a page of customers or publications
// with nested edges costs the same number of statements whether it holds
// two rows or five — the edges load per page, never per row.
func TestListsLoadNestedEdgesPerPage(t *testing.T) {
	_, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", campaigntest.Codes("N", 20)...)
	publishedCustomers(t, ctx, "promo", "few", 2)
	recCtx, rec := recordSQL(t, ctx)

	customer := `id publications(first: 5) { totalCount edges { node { id voucherCodes customer { id }
		vouchers(first: 3) { edges { node { code campaign { name } } } } } } }
		redemptions(first: 5) { edges { node { id voucher { code campaign { name } } } } }`
	publication := `id customer { id sourceID } voucherCodes
		vouchers(first: 3) { totalCount edges { node { code campaign { name } } } }`
	queries := map[string]string{
		"customerList":    `{ customerList(input: {limit: 20}) { data { ` + customer + ` } } }`,
		"customers":       `{ customers(first: 20) { edges { node { ` + customer + ` } } } }`,
		"publicationList": `{ publicationList(input: {limit: 20}) { data { ` + publication + ` } } }`,
		"publications":    `{ publications(first: 20) { edges { node { ` + publication + ` } } } }`,
	}
	count := func(name, q string) (int, []string) {
		rec.take()
		checkCodes(t, name, gqlQuery(t, recCtx, q))
		stmts := rec.take()
		return len(stmts), stmts
	}
	before := map[string]int{}
	for name, q := range queries {
		before[name], _ = count(name, q)
	}
	publishedCustomers(t, ctx, "promo", "more", 3)
	for name, q := range queries {
		if n, stmts := count(name, q); n != before[name] {
			t.Errorf("%s: %d statements for 2 rows, %d for 5:\n%s", name, before[name], n, strings.Join(stmts, "\n"))
		}
	}
}

// checkCodes checks the voucherCodes of every publication in a response
// of TestListsLoadNestedEdgesPerPage: two codes each (publishedCustomers),
// the same (in any order) as the publication's vouchers connection lists
// where the query asks for both.
func checkCodes(t *testing.T, name string, data any) {
	t.Helper()
	var walk func(v any)
	seen := 0
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if codes, ok := v["voucherCodes"].([]any); ok {
				seen++
				if len(codes) != 2 {
					t.Errorf("%s: publication %v has codes %v, want two", name, v["id"], codes)
				}
				if conn, ok := v["vouchers"].(map[string]any); ok {
					var listed []any
					for _, e := range conn["edges"].([]any) {
						listed = append(listed, e.(map[string]any)["node"].(map[string]any)["code"])
					}
					if !sameCodes(listed, codes) {
						t.Errorf("%s: publication %v: voucherCodes %v, vouchers %v", name, v["id"], codes, listed)
					}
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(data)
	if seen == 0 {
		t.Errorf("%s: no publication with voucherCodes in the response", name)
	}
}

func sameCodes(a, b []any) bool {
	as, bs := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		as[i] = fmt.Sprint(a[i])
	}
	for i := range b {
		bs[i] = fmt.Sprint(b[i])
	}
	slices.Sort(as)
	slices.Sort(bs)
	return slices.Equal(as, bs)
}

// TestCampaignQueryReadsOnlyTheSelectedColumns: campaign(idOrName) reads
// the columns the query selects on the campaign (through fragments too),
// its vouchers page with their own plain query, and every column when a
// selected field is not one (categories).
func TestCampaignQueryReadsOnlyTheSelectedColumns(t *testing.T) {
	_, ctx := projectContext(t)
	cmp := campaigntest.WithCodes(t, ctx, "narrow", campaigntest.Codes("S", 3)...)
	ctx, rec := recordSQL(t, ctx)
	rec.take()

	campaignStatement := func(stmts []string) string {
		for _, s := range stmts {
			if strings.Contains(s, "FROM `campaigns`") || strings.Contains(s, `FROM "campaigns"`) {
				return s
			}
		}
		t.Fatalf("no statement read the campaigns: %q", stmts)
		return ""
	}
	data := gqlQuery(t, ctx, fmt.Sprintf(`{ campaign(idOrName: %q) { ...named vouchers(first: 2) { edges { node { code } } } } }
		fragment named on Campaign { name joinOnce }`, cmp.ID))
	got := data["campaign"].(map[string]any)
	if got["name"] != "narrow" || got["joinOnce"] != false || len(got["vouchers"].(map[string]any)["edges"].([]any)) != 2 {
		t.Errorf("campaign answered %v", got)
	}
	stmts := rec.take()
	narrow := campaignStatement(stmts)
	for _, col := range []string{"name", "join_once"} {
		if !strings.Contains(narrow, "`campaigns`.`"+col+"`") && !strings.Contains(narrow, `"campaigns"."`+col+`"`) {
			t.Errorf("the campaign statement does not read %s: %s", col, narrow)
		}
	}
	if strings.Contains(narrow, "voucher`") || strings.Contains(narrow, `."voucher"`) || strings.Contains(narrow, "metadata") {
		t.Errorf("the campaign statement reads columns nobody asked for: %s", narrow)
	}
	for _, s := range stmts {
		if strings.Contains(s, "ROW_NUMBER") || strings.Contains(strings.ToUpper(s), "DISTINCT") {
			t.Errorf("the vouchers page is not a plain query: %s", s)
		}
	}

	data = gqlQuery(t, ctx, `{ campaign(idOrName: "narrow") { id categories { id } metadata } }`)
	if got := data["campaign"].(map[string]any); got["id"] != cmp.ID || got["metadata"] == nil {
		t.Errorf("campaign answered %v", got)
	}
	if full := campaignStatement(rec.take()); !strings.Contains(full, "category_id") {
		t.Errorf("with a field that is not a column the campaign statement should read every column: %s", full)
	}
}

// TestVoucherCodesReadOnlyTheirColumn: a customers page whose publications
// ask for voucherCodes (a resolver, not a column) reads the publications'
// selected columns and voucher_ids (ent's ResolverColumns annotation), not
// every column — the metadata JSON above all — and answers the same codes.
func TestVoucherCodesReadOnlyTheirColumn(t *testing.T) {
	_, ctx := projectContext(t)
	campaigntest.WithCodes(t, ctx, "cols", campaigntest.Codes("V", 8)...)
	publishedCustomers(t, ctx, "cols", "vc", 2)
	ctx, rec := recordSQL(t, ctx)
	rec.take()

	data := gqlQuery(t, ctx, `{ customerList(input: {limit: 5}) { data { id
		publications(first: 5) { edges { node { id createdAt voucherCodes } } } } } }`)
	codes := 0
	for _, c := range data["customerList"].(map[string]any)["data"].([]any) {
		for _, e := range c.(map[string]any)["publications"].(map[string]any)["edges"].([]any) {
			codes += len(e.(map[string]any)["node"].(map[string]any)["voucherCodes"].([]any))
		}
	}
	if codes != 4 {
		t.Errorf("voucherCodes of 2 customers' publications: %d codes, want 4: %v", codes, data)
	}
	var pubs string
	for _, s := range rec.take() {
		if strings.Contains(s, "FROM `publications`") || strings.Contains(s, `FROM "publications"`) {
			pubs = s
		}
	}
	if !strings.Contains(pubs, "voucher_ids") || strings.Contains(pubs, "metadata") || strings.Contains(pubs, "requested_code") {
		t.Errorf("the publications statement should read voucher_ids and the selected columns only: %s", pubs)
	}
}
