package publication

import (
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/entdb/entdbtest"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/campaign/campaigntest"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// TestOneStatementPublicationWritesItsWebhookEvents: a project with
// webhooks keeps the single-statement publication, which writes the same
// events as the general path, for the subscribed active webhooks only, in
// the same statement; a publication that writes nothing writes no event.
func TestOneStatementPublicationWritesItsWebhookEvents(t *testing.T) {
	if !entdbtest.IsPostgres() {
		t.Skip("the single-statement publication is PostgreSQL's")
	}
	_, ctx := graphtest.ProjectContext(t)
	campaigntest.WithCodes(t, ctx, "promo", "P1", "P2", "P3", "P4", "P5")
	target := "http://127.0.0.1:9/hook"
	hook := func(active bool, events ...string) string {
		t.Helper()
		h, err := webhook.CreateWebhook(ctx, webhook.WebhookInput{TargetURL: &target, Events: events, Active: &active})
		if err != nil {
			t.Fatal(err)
		}
		return h.ID
	}
	all := hook(true, webhook.EventCustomerCreated, webhook.EventPublicationSucceeded, webhook.EventVoucherPublished, webhook.EventRedemptionSucceeded)
	published := hook(true, webhook.EventVoucherPublished)
	hook(false, webhook.EventCustomerCreated, webhook.EventPublicationSucceeded, webhook.EventVoucherPublished)
	c, _ := store.Client(ctx)
	// written lists the events of pub for the webhook, written after the
	// event id after.
	written := func(pub *ent.Publication, hookID, after string) []string {
		t.Helper()
		evs, err := c.WebhookEvent.Query().Where(webhookevent.WebhookID(hookID), webhookevent.IDGT(after)).
			Order(ent.Asc(webhookevent.FieldID)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, ev := range evs {
			object := map[string]string{pub.CustomerID: "customer", pub.ID: "publication"}[ev.ObjectID]
			if slices.Contains(pub.VoucherIds, ev.ObjectID) {
				object = "voucher"
			}
			if object == "" {
				continue // another publication's
			}
			if object != ev.ObjectType || ev.State != webhookevent.StatePENDING || !regexp.MustCompile(`^whs_[0-9a-f]{32}$`).MatchString(ev.ID) {
				t.Errorf("event %+v", ev)
			}
			if _, err := webhook.EventData(ctx, ev); err != nil {
				t.Errorf("event %s data: %v", ev.ID, err)
			}
			out = append(out, ev.Type+" "+object)
		}
		sort.Strings(out)
		return out
	}
	two := 2
	served := 0
	publishPaths(t, false, &served)
	fast, err := Publish(ctx, fromCampaign("promo", "alice", &two), false)
	if err != nil || served != 1 {
		t.Fatalf("single statement: served %d, err %v", served, err)
	}
	publishPaths(t, true, nil)
	general, err := Publish(ctx, fromCampaign("promo", "bob", &two), false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"customer.created customer", "publication.succeeded publication", "voucher.published voucher", "voucher.published voucher"}
	for _, pub := range []*ent.Publication{fast, general} {
		if got := written(pub, all, ""); !slices.Equal(got, want) {
			t.Errorf("publication %s: events %v, want %v", pub.ID, got, want)
		}
		if got := written(pub, published, ""); !slices.Equal(got, want[2:]) {
			t.Errorf("publication %s, voucher.published only: events %v, want %v", pub.ID, got, want[2:])
		}
	}
	// An existing customer is no customer.created; the new events sort
	// after the older ones.
	last := c.WebhookEvent.Query().Order(ent.Desc(webhookevent.FieldID)).FirstIDX(ctx)
	publishPaths(t, false, &served)
	again, err := Publish(ctx, fromCampaign("promo", "alice", nil), false)
	if err != nil || served != 2 {
		t.Fatalf("single statement again: served %d, err %v", served, err)
	}
	if got := written(again, all, last); !slices.Equal(got, []string{"publication.succeeded publication", "voucher.published voucher"}) {
		t.Errorf("publication to an existing customer: events %v", got)
	}
	// Nothing published, nothing written.
	before := c.WebhookEvent.Query().CountX(ctx)
	if _, err := Publish(ctx, fromCampaign("promo", "carol", &two), false); err == nil {
		t.Fatal("published 2 of 0 vouchers left")
	}
	if after := c.WebhookEvent.Query().CountX(ctx); after != before || served != 2 {
		t.Errorf("a refused publication wrote %d events (served %d)", after-before, served)
	}
}
