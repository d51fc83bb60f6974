package publication

import (
	"context"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// publishPaths replaces the single statement for one test: with general
// set, publish never uses it; otherwise *served counts the publications it
// answered.
func publishPaths(t *testing.T, general bool, served *int) {
	t.Helper()
	t.Cleanup(func() { PublishOneStatement = PublishInOneStatement })
	PublishOneStatement = func(ctx context.Context, in PublishInput, count int) (*ent.Publication, bool, error) {
		if general {
			return nil, false, nil
		}
		pub, done, err := PublishInOneStatement(ctx, in, count)
		if done {
			*served++
		}
		return pub, done, err
	}
}

func fromCampaign(name, customerSourceID string, count *int) PublishInput {
	return PublishInput{Campaign: &PublishCampaignInput{Name: name, Count: count},
		Customer: &customerpkg.CustomerInput{SourceID: &customerSourceID}}
}

// TestOneStatementPublicationMatchesGeneralPath: on PostgreSQL the common
// publication is one statement; what it returns and what it stores must be
// exactly what the general path returns and stores.
func TestOneStatementPublicationMatchesGeneralPath(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("the single-statement publication is PostgreSQL's")
	}
	_, ctx := graphtest.ProjectContext(t)
	cmp := campaigntest.WithCodes(t, ctx, "promo", "P1", "P2", "P3", "P4", "P5", "P6")
	two := 2
	in := fromCampaign("promo", "alice", &two)
	in.Metadata, in.Channel = map[string]any{"order": "o-1"}, graphtest.Ptr("shop")

	served := 0
	publishPaths(t, false, &served)
	fast, err := Publish(ctx, in, false)
	if err != nil || served != 1 {
		t.Fatalf("single statement: served %d, err %v", served, err)
	}
	publishPaths(t, true, nil)
	in.Customer = &customerpkg.CustomerInput{SourceID: graphtest.Ptr("bob")}
	general, err := Publish(ctx, in, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := graphtest.Comparable(t, fast), graphtest.Comparable(t, general); !reflect.DeepEqual(got, want) {
		t.Errorf("single statement returned\n%v\ngeneral path returned\n%v", got, want)
	}
	// A second publication to each, now existing, customer: the same again.
	publishPaths(t, false, &served)
	fastAgain, err := Publish(ctx, fromCampaign("promo", "alice", nil), false)
	if err != nil || served != 2 || fastAgain.CustomerID != fast.CustomerID {
		t.Fatalf("single statement to an existing customer: served %d, err %v", served, err)
	}
	publishPaths(t, true, nil)
	generalAgain, err := Publish(ctx, fromCampaign("promo", "bob", nil), false)
	if err != nil || generalAgain.CustomerID != general.CustomerID {
		t.Fatal(err)
	}
	if got, want := graphtest.Comparable(t, fastAgain), graphtest.Comparable(t, generalAgain); !reflect.DeepEqual(got, want) {
		t.Errorf("to an existing customer, the single statement returned\n%v\ngeneral path returned\n%v", got, want)
	}

	// What it returned is what it stored (the voucher links included).
	stored, err := loadPublication(ctx, fast.ID)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := store.Client(ctx)
	for _, v := range stored.Edges.Vouchers {
		v.Edges.Campaign = c.Campaign.GetX(ctx, cmp.ID)
	}
	if got, want := graphtest.Comparable(t, fast), graphtest.Comparable(t, stored); !reflect.DeepEqual(got, want) {
		t.Errorf("single statement returned\n%v\nand stored\n%v", got, want)
	}
	// The invariants the masked comparison cannot see.
	cust := fast.Edges.Customer
	ids := make([]string, 0, 2)
	for _, v := range fast.Edges.Vouchers {
		ids = append(ids, v.ID)
		if v.HolderID == nil || *v.HolderID != cust.ID || v.PublishCount != 1 || v.UpdatedAt == nil || v.Edges.Campaign.ID != cmp.ID {
			t.Errorf("published voucher %+v", v)
		}
	}
	if !slices.Equal(ids, fast.VoucherIds) || fast.CustomerID != cust.ID || *fast.TrackingID != "alice" ||
		*cust.SourceID != "alice" || cust.UpdatedAt != nil || *fast.CampaignID != cmp.ID || !fast.CountForm {
		t.Errorf("publication %+v, customer %+v", fast, cust)
	}
}

// TestOneStatementPublicationFallsBack: whatever the single statement does
// not serve, the general path answers, and a refused request writes nothing.
func TestOneStatementPublicationFallsBack(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("the single-statement publication is PostgreSQL's")
	}
	_, ctx := graphtest.ProjectContext(t)
	cmp := campaigntest.WithCodes(t, ctx, "promo", "P1", "P2", "P3")
	served := 0
	publishPaths(t, false, &served)

	// An existing customer keeps its row and ID.
	first, err := Publish(ctx, fromCampaign("promo", "alice", nil), false)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Publish(ctx, fromCampaign(cmp.ID, "alice", nil), false)
	if err != nil || served != 2 || again.CustomerID != first.CustomerID {
		t.Fatalf("second publication to alice (by campaign ID): served %d, customer %s vs %s, err %v",
			served, again.CustomerID, first.CustomerID, err)
	}

	// A repeated source_id fails the unique index in the statement; the
	// general path replays the original publication.
	in := fromCampaign("promo", "bob", nil)
	in.SourceID = graphtest.Ptr("order-1")
	original, err := Publish(ctx, in, false)
	if err != nil {
		t.Fatal(err)
	}
	replayed, err := Publish(ctx, in, false)
	if err != nil || replayed.ID != original.ID || served != 3 {
		t.Fatalf("replay: %v vs %v, served %d, err %v", replayed, original, served, err)
	}

	// Too few vouchers left: the general path refuses, and the new
	// customer is not created.
	five := 5
	_, err = Publish(ctx, fromCampaign("promo", "carol", &five), false)
	if e, ok := apperr.From(err); !ok || e.Key != "no_voucher_suitable_for_publication" {
		t.Fatalf("count 5 of 0 left: %v", err)
	}
	c, _ := store.Client(ctx)
	if n := c.Customer.Query().Where(customer.SourceID("carol")).CountX(ctx); n != 0 || served != 3 {
		t.Errorf("refused publication left %d customers; served %d", n, served)
	}

	// Invalid input gets the general path's error, never a database error.
	_, err = Publish(ctx, fromCampaign("promo", strings.Repeat("x", 501), nil), false)
	if e, ok := apperr.From(err); !ok || e.Code != http.StatusBadRequest {
		t.Fatalf("501-character source_id: %v", err)
	}

	// An unknown campaign is the general path's 404.
	_, err = Publish(ctx, fromCampaign("nope", "dave", nil), false)
	if e, ok := apperr.From(err); !ok || e.Code != http.StatusNotFound {
		t.Fatalf("unknown campaign: %v", err)
	}
}

// TestOneStatementCampaignSummary: with WithCampaignSummary (REST) the
// single statement returns the same publication, customer and vouchers,
// and of the vouchers' campaign only its id, name and category_id.
func TestOneStatementCampaignSummary(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("the single-statement publication is PostgreSQL's")
	}
	_, ctx := graphtest.ProjectContext(t)
	cmp := campaigntest.WithCodes(t, ctx, "promo", "P1", "P2", "P3", "P4")
	served := 0
	publishPaths(t, false, &served)
	full, err := Publish(ctx, fromCampaign("promo", "alice", nil), false)
	if err != nil {
		t.Fatal(err)
	}
	summary, err := Publish(WithCampaignSummary(ctx), fromCampaign("promo", "bob", nil), false)
	if err != nil || served != 2 {
		t.Fatalf("served %d, err %v", served, err)
	}
	got, whole := summary.Edges.Vouchers[0].Edges.Campaign, full.Edges.Vouchers[0].Edges.Campaign
	if got.ID != cmp.ID || got.Name != "promo" || !reflect.DeepEqual(got.CategoryID, whole.CategoryID) ||
		!got.CreatedAt.IsZero() || got.ProjectID != "" || got.Type != "" || whole.Type == "" {
		t.Errorf("summary campaign %+v, full %+v", got, whole)
	}
	for _, p := range []*ent.Publication{full, summary} {
		p.Edges.Vouchers[0].Edges.Campaign = nil
	}
	if a, b := graphtest.Comparable(t, summary), graphtest.Comparable(t, full); !reflect.DeepEqual(a, b) {
		t.Errorf("with the campaign summary\n%v\nwith the whole campaign\n%v", a, b)
	}
}
