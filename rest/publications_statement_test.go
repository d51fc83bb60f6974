package rest_test

import (
	"context"
	"net/http"
	"regexp"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/graph/publication"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestPublicationAnswerIsTheSameOnBothPaths: on PostgreSQL a REST
// publication is the single statement returning only the name and
// category of the vouchers' campaign (publication.WithCampaignSummary);
// its answer must be, byte for byte once IDs, codes and times are masked,
// the general path's, which reads the whole campaign — for a campaign
// with a category, one without, and one with a category whose vouchers
// have none of their own, in the single and the count form.
func TestPublicationAnswerIsTheSameOnBothPaths(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("the single-statement publication is PostgreSQL's")
	}
	e := resttest.New(t)
	createCampaign(t, e, map[string]any{"name": "Filed", "type": "STATIC", "category": "Seasonal", "metadata": map[string]any{"k": 1},
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 10}}})
	staticCampaign(t, e, "Plain")
	createCampaign(t, e, map[string]any{"name": "Bare", "type": "STATIC", "category": "Seasonal",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "PERCENT", "percent_off": 10}}})
	for _, name := range []string{"Filed", "Plain", "Bare"} {
		for _, code := range []string{"C1", "C2", "C3", "C4", "C5", "C6"} {
			if r := addVoucher(t, e, name, map[string]any{"code": name + "-" + code}); r.Status != http.StatusOK {
				t.Fatalf("adding %s: %d %s", code, r.Status, r.Body)
			}
		}
	}
	// Bare's vouchers have no category of their own: the answer shows
	// their campaign's, which only the summary's category_id gives.
	if _, err := e.DB.SQL.Exec(`UPDATE vouchers SET category_id = NULL, category = NULL WHERE code LIKE 'Bare-%'`); err != nil {
		t.Fatal(err)
	}
	served := 0
	single := func(general bool) {
		publication.PublishOneStatement = func(ctx context.Context, in publication.PublishInput, count int) (*ent.Publication, bool, error) {
			if general {
				return nil, false, nil
			}
			pub, done, err := publication.PublishInOneStatement(ctx, in, count)
			if done {
				served++
			}
			return pub, done, err
		}
	}
	t.Cleanup(func() { publication.PublishOneStatement = publication.PublishInOneStatement })
	mask := regexp.MustCompile(`(pub|cust|v)_[0-9A-Za-z]+|(Filed|Plain|Bare)-C[0-9]|\d{4}-\d\d-\d\dT[0-9:.]+Z|"(alice|bob)-[A-Z]"`)
	for _, name := range []string{"Filed", "Plain", "Bare"} {
		for _, count := range []any{nil, 2} {
			answer := func(general bool, who string) string {
				single(general)
				cmp := map[string]any{"name": name}
				if count != nil {
					cmp["count"] = count
				}
				r := publish(t, e, "", map[string]any{"campaign": cmp, "customer": map[string]any{"source_id": who + "-" + name[:1]}})
				if r.Status != http.StatusOK {
					t.Fatalf("%s count %v (general %v): %d %s", name, count, general, r.Status, r.Body)
				}
				return mask.ReplaceAllString(string(r.Body), "X")
			}
			before := served
			fast, general := answer(false, "alice"), answer(true, "bob")
			if served != before+1 {
				t.Fatalf("%s count %v: the single statement served %d publications, want 1", name, count, served-before)
			}
			if fast != general {
				t.Errorf("%s count %v: the single statement answered\n%s\nthe general path\n%s", name, count, fast, general)
			}
		}
	}
}
