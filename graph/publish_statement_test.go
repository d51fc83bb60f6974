package graph

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	campaignpkg "github.com/promoengine/promoengine/graph/campaign"
	customerpkg "github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// publishPaths replaces the single statement for one test: with general
// set, publish never uses it; otherwise *served counts the publications it
// answered.
func publishPaths(t *testing.T, general bool, served *int) {
	t.Helper()
	t.Cleanup(func() { publishOneStatement = publishInOneStatement })
	publishOneStatement = func(ctx context.Context, in PublishInput, count int) (*ent.Publication, bool, error) {
		if general {
			return nil, false, nil
		}
		pub, done, err := publishInOneStatement(ctx, in, count)
		if done {
			*served++
		}
		return pub, done, err
	}
}

// campaignWithCodes creates a STATIC discount campaign holding codes.
func campaignWithCodes(t *testing.T, ctx context.Context, name string, codes ...string) *ent.Campaign {
	t.Helper()
	static := campaign.TypeSTATIC
	var cmp *ent.Campaign
	err := store.InTx(ctx, func(ctx context.Context) (err error) {
		cmp, err = campaignpkg.CreateCampaign(ctx, campaignpkg.CreateCampaignInput{Name: name, Type: &static,
			Voucher: &jsonfield.VoucherProfile{Type: "DISCOUNT_VOUCHER",
				Discount: &jsonfield.Discount{Type: "AMOUNT", AmountOff: ptr(100.0)}}})
		if err != nil {
			return err
		}
		for _, code := range codes {
			if _, err := campaignpkg.AddVoucher(ctx, name, &campaignpkg.AddVouchersInput{Code: &code}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("creating campaign %s: %v", name, err)
	}
	return cmp
}

func fromCampaign(name, customerSourceID string, count *int) PublishInput {
	return PublishInput{Campaign: &PublishCampaignInput{Name: name, Count: count},
		Customer: &customerpkg.CustomerInput{SourceID: &customerSourceID}}
}

// comparable renders a publication (or any result) as JSON with the values that differ
// between two publications (IDs, codes, times, the customer's source_id)
// reduced to whether they are set.
func comparable(t *testing.T, pub any) map[string]any {
	t.Helper()
	b, err := json.Marshal(pub)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	varying := map[string]bool{"id": true, "created_at": true, "updated_at": true, "customer_id": true,
		"holder_id": true, "code": true, "source_id": true, "tracking_id": true, "voucher_ids": true, "campaign_id": true,
		"order_id": true, "voucher_id": true, "parent_id": true, "related_object_id": true, "voucher_code": true, "redemptions": true}
	var mask func(v any) any
	mask = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if varying[k] {
					v[k] = x != nil
				} else {
					v[k] = mask(x)
				}
			}
		case []any:
			for i := range v {
				v[i] = mask(v[i])
			}
		}
		return v
	}
	return mask(out).(map[string]any)
}

// TestOneStatementPublicationMatchesGeneralPath: on PostgreSQL the common
// publication is one statement; what it returns and what it stores must be
// exactly what the general path returns and stores.
func TestOneStatementPublicationMatchesGeneralPath(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("the single-statement publication is PostgreSQL's")
	}
	_, ctx := projectContext(t)
	cmp := campaignWithCodes(t, ctx, "promo", "P1", "P2", "P3", "P4", "P5", "P6")
	two := 2
	in := fromCampaign("promo", "alice", &two)
	in.Metadata, in.Channel = map[string]any{"order": "o-1"}, ptr("shop")

	served := 0
	publishPaths(t, false, &served)
	fast, err := publish(ctx, in, false)
	if err != nil || served != 1 {
		t.Fatalf("single statement: served %d, err %v", served, err)
	}
	publishPaths(t, true, nil)
	in.Customer = &customerpkg.CustomerInput{SourceID: ptr("bob")}
	general, err := publish(ctx, in, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := comparable(t, fast), comparable(t, general); !reflect.DeepEqual(got, want) {
		t.Errorf("single statement returned\n%v\ngeneral path returned\n%v", got, want)
	}
	// A second publication to each, now existing, customer: the same again.
	publishPaths(t, false, &served)
	fastAgain, err := publish(ctx, fromCampaign("promo", "alice", nil), false)
	if err != nil || served != 2 || fastAgain.CustomerID != fast.CustomerID {
		t.Fatalf("single statement to an existing customer: served %d, err %v", served, err)
	}
	publishPaths(t, true, nil)
	generalAgain, err := publish(ctx, fromCampaign("promo", "bob", nil), false)
	if err != nil || generalAgain.CustomerID != general.CustomerID {
		t.Fatal(err)
	}
	if got, want := comparable(t, fastAgain), comparable(t, generalAgain); !reflect.DeepEqual(got, want) {
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
	if got, want := comparable(t, fast), comparable(t, stored); !reflect.DeepEqual(got, want) {
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
	_, ctx := projectContext(t)
	cmp := campaignWithCodes(t, ctx, "promo", "P1", "P2", "P3")
	served := 0
	publishPaths(t, false, &served)

	// An existing customer keeps its row and ID.
	first, err := publish(ctx, fromCampaign("promo", "alice", nil), false)
	if err != nil {
		t.Fatal(err)
	}
	again, err := publish(ctx, fromCampaign(cmp.ID, "alice", nil), false)
	if err != nil || served != 2 || again.CustomerID != first.CustomerID {
		t.Fatalf("second publication to alice (by campaign ID): served %d, customer %s vs %s, err %v",
			served, again.CustomerID, first.CustomerID, err)
	}

	// A repeated source_id fails the unique index in the statement; the
	// general path replays the original publication.
	in := fromCampaign("promo", "bob", nil)
	in.SourceID = ptr("order-1")
	original, err := publish(ctx, in, false)
	if err != nil {
		t.Fatal(err)
	}
	replayed, err := publish(ctx, in, false)
	if err != nil || replayed.ID != original.ID || served != 3 {
		t.Fatalf("replay: %v vs %v, served %d, err %v", replayed, original, served, err)
	}

	// Too few vouchers left: the general path refuses, and the new
	// customer is not created.
	five := 5
	_, err = publish(ctx, fromCampaign("promo", "carol", &five), false)
	if e, ok := apperr.From(err); !ok || e.Key != "no_voucher_suitable_for_publication" {
		t.Fatalf("count 5 of 0 left: %v", err)
	}
	c, _ := store.Client(ctx)
	if n := c.Customer.Query().Where(customer.SourceID("carol")).CountX(ctx); n != 0 || served != 3 {
		t.Errorf("refused publication left %d customers; served %d", n, served)
	}

	// Invalid input gets the general path's error, never a database error.
	_, err = publish(ctx, fromCampaign("promo", strings.Repeat("x", 501), nil), false)
	if e, ok := apperr.From(err); !ok || e.Code != http.StatusBadRequest {
		t.Fatalf("501-character source_id: %v", err)
	}

	// An unknown campaign is the general path's 404.
	_, err = publish(ctx, fromCampaign("nope", "dave", nil), false)
	if e, ok := apperr.From(err); !ok || e.Code != http.StatusNotFound {
		t.Fatalf("unknown campaign: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }
