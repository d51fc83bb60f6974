package rest_test

import (
	"net/http"
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/promoengine/promoengine/graph/webhook"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestEveryWebhookEventComesFromItsOperation subscribes one webhook to every
// event name, runs each operation through REST and checks that exactly
// the events it names arrive at a loopback receiver — no more, no fewer —
// each with the payload's data keys holding the objects in their REST
// shapes.
func TestEveryWebhookEventComesFromItsOperation(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	mk := e.NewManagementKey()
	app := resttest.App(e.Project)
	rcv := newReceiver(t)
	hook := createHook(t, e, mk, rcv.srv.URL, webhook.WebhookEventNames...)
	hookID := hook["id"].(string)
	startWorker(t, e, e.DB.Client, fastWebhooks)
	token := webhookToken(t, e, mk)

	var (
		redemptionID string
		published    map[string]any
		loyalty      loyaltySetup
		pointsTx     map[string]any
	)
	campaignEv := func(typ string) wantEvent { return wantEvent{typ, map[string]string{"campaign": "campaign"}} }
	voucherEv := func(typ, campaign string) wantEvent {
		return wantEvent{typ, map[string]string{"voucher": "voucher", "campaign": campaign}}
	}
	customerEv := func(typ string) wantEvent { return wantEvent{typ, map[string]string{"customer": "customer"}} }
	pointsEv := wantEvent{"voucher.loyalty_card.points_added", map[string]string{"card": "card", "transaction": "card_transaction",
		"member": "member", "customer": "customer", "balance": "balance"}}
	ok := func(r resttest.Response) func(t *testing.T) {
		return func(t *testing.T) {
			t.Helper()
			if r.Status/100 != 2 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		}
	}
	call := func(method, path string, body any, h resttest.Headers) func(t *testing.T) {
		return func(t *testing.T) { t.Helper(); ok(e.DoJSON(method, path, body, h))(t) }
	}
	steps := []eventStep{
		{name: "create a campaign", do: call(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Promo", "type": "STATIC",
			"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, app),
			want: []wantEvent{campaignEv("campaign.created")}},
		{name: "add a voucher to the campaign", do: call(http.MethodPost, "/v1/campaigns/Promo/vouchers", map[string]any{"code": "P-1"}, app),
			want: []wantEvent{voucherEv("voucher.created", "campaign")},
			check: func(t *testing.T, got map[string]hookPayload) {
				v := got["voucher.created"].Data["voucher"].(map[string]any)
				if v["code"] != "P-1" || !regexp.MustCompile(`^/v1/assets/qr/`).MatchString(v["assets"].(map[string]any)["qr"].(map[string]any)["url"].(string)) {
					t.Errorf("voucher (asset links relative without a public URL): %v", mustJSON(v))
				}
			}},
		{name: "create a campaign-less voucher", do: call(http.MethodPost, "/v1/vouchers/SOLO-1", map[string]any{"type": "DISCOUNT_VOUCHER",
			"discount": map[string]any{"type": "PERCENT", "percent_off": 10}}, app),
			want: []wantEvent{voucherEv("voucher.created", "null")}},
		{name: "update the campaign", do: call(http.MethodPut, "/v1/campaigns/Promo", map[string]any{"description": "changed"}, app),
			want: []wantEvent{campaignEv("campaign.updated")},
			check: func(t *testing.T, got map[string]hookPayload) {
				if c := got["campaign.updated"].Data["campaign"].(map[string]any); c["description"] != "changed" {
					t.Errorf("campaign.updated shows the campaign before the change: %v", mustJSON(c))
				}
			}},
		{name: "disable the campaign", do: call(http.MethodPost, "/v1/campaigns/Promo/disable", nil, app),
			want: []wantEvent{campaignEv("campaign.disabled")}},
		{name: "enable the campaign", do: call(http.MethodPost, "/v1/campaigns/Promo/enable", nil, app),
			want: []wantEvent{campaignEv("campaign.enabled")}},
		{name: "update the voucher", do: call(http.MethodPut, "/v1/vouchers/P-1", map[string]any{"metadata": map[string]any{"k": "v"}}, app),
			want: []wantEvent{voucherEv("voucher.updated", "campaign")}},
		{name: "disable the voucher", do: call(http.MethodPost, "/v1/vouchers/P-1/disable", nil, app),
			want: []wantEvent{voucherEv("voucher.disabled", "campaign")}},
		{name: "redeem the disabled voucher", do: func(t *testing.T) {
			must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "P-1"}, map[string]any{"order": map[string]any{"amount": 1000}}),
				http.StatusBadRequest)
		}, want: []wantEvent{{"redemption.failed", map[string]string{"redemption": "redemption", "voucher": "voucher", "customer": "null", "campaign": "campaign"}}},
			check: func(t *testing.T, got map[string]hookPayload) {
				if r := got["redemption.failed"].Data["redemption"].(map[string]any); r["result"] != "FAILURE" || r["failure_code"] != "voucher_disabled" {
					t.Errorf("redemption.failed: %v", mustJSON(r))
				}
			}},
		{name: "enable the voucher", do: call(http.MethodPost, "/v1/vouchers/P-1/enable", nil, app),
			want: []wantEvent{voucherEv("voucher.enabled", "campaign")}},
		{name: "create a customer", do: call(http.MethodPost, "/v1/customers", map[string]any{"source_id": "bob"}, app),
			want: []wantEvent{customerEv("customer.created")}},
		{name: "publish to a new customer", do: func(t *testing.T) {
			published = must(t, publish(t, e, "", map[string]any{"campaign": map[string]any{"name": "Promo"}, "customer": map[string]any{"source_id": "ann"}}), http.StatusOK)
		}, want: []wantEvent{customerEv("customer.created"),
			{"publication.succeeded", map[string]string{"publication": "publication", "customer": "customer", "campaign": "campaign"}},
			{"voucher.published", map[string]string{"voucher": "voucher", "customer": "customer", "campaign": "campaign", "publication": "publication"}}},
			check: func(t *testing.T, got map[string]hookPayload) {
				// On PostgreSQL this publication is the single statement,
				// which writes its events in SQL: the objects are still
				// exactly what the API shows.
				pub := got["voucher.published"].Data
				if pub["voucher"].(map[string]any)["code"] != "P-1" || pub["customer"].(map[string]any)["source_id"] != "ann" {
					t.Errorf("voucher.published data: %v", mustJSON(pub))
				}
				voucher := must(t, e.Do(http.MethodGet, "/v1/vouchers/P-1", nil, app), http.StatusOK)
				customer := published["customer"] // as the publication shows it (GET adds a summary)
				campaign := must(t, e.Do(http.MethodGet, "/v1/campaigns/Promo", nil, app), http.StatusOK)
				// Webhook asset links are relative without a public URL.
				absolute := regexp.MustCompile(`http://[^/"]+/v1/assets/`)
				// Exactly, updated_at included: the stored and the returned
				// vouchers share one clock reading (graph/publication/publications.go).
				for _, c := range []struct {
					name      string
					got, want any
				}{
					{"voucher.published voucher", pub["voucher"], voucher},
					{"voucher.published customer", pub["customer"], customer},
					{"voucher.published campaign", pub["campaign"], campaign},
					{"voucher.published publication", pub["publication"], published},
					{"publication.succeeded publication", got["publication.succeeded"].Data["publication"], published},
					{"publication.succeeded customer", got["publication.succeeded"].Data["customer"], customer},
					{"customer.created customer", got["customer.created"].Data["customer"], customer},
				} {
					if want := absolute.ReplaceAllString(mustJSON(c.want), "/v1/assets/"); mustJSON(c.got) != want {
						t.Errorf("%s:\n%s\nREST:\n%s", c.name, mustJSON(c.got), mustJSON(c.want))
					}
				}
			}},
		{name: "redeem", do: func(t *testing.T) {
			red := must(t, redeemOne(e, app, map[string]any{"object": "voucher", "id": "P-1"},
				map[string]any{"order": map[string]any{"amount": 1000}, "customer": map[string]any{"source_id": "ann"}}), http.StatusOK)
			redemptionID = red["parent_redemption"].(map[string]any)["id"].(string)
		}, want: []wantEvent{{"redemption.succeeded", map[string]string{"redemption": "redemption", "voucher": "voucher", "customer": "customer", "campaign": "campaign"}},
			{"order.created", map[string]string{"order": "order"}}}}, // the redemption's order (docs/orders.md)
		{name: "roll the redemption back", do: func(t *testing.T) {
			ok(e.Do(http.MethodPost, "/v1/redemptions/"+redemptionID+"/rollbacks", nil, app))(t)
		}, want: []wantEvent{{"redemption.rollback.succeeded", map[string]string{"redemption": "redemption_rollback", "voucher": "voucher", "customer": "customer", "campaign": "campaign"}},
			{"order.updated", map[string]string{"order": "order"}}, {"order.canceled", map[string]string{"order": "order"}}}},
		{name: "create a gift card campaign", do: call(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Gifts", "campaign_type": "GIFT_VOUCHERS",
			"type": "STATIC", "voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 1000}}}, app),
			want: []wantEvent{campaignEv("campaign.created")}},
		{name: "add a gift card", do: call(http.MethodPost, "/v1/campaigns/Gifts/vouchers", map[string]any{"code": "G-1"}, app),
			want: []wantEvent{voucherEv("voucher.created", "campaign")}},
		{name: "add gift credits", do: call(http.MethodPost, "/v1/vouchers/G-1/balance", map[string]any{"amount": 500}, app),
			want: []wantEvent{{"voucher.gift.balance_added", map[string]string{"voucher": "voucher", "transaction": "", "balance": "balance"}}},
			check: func(t *testing.T, got map[string]hookPayload) {
				d := got["voucher.gift.balance_added"].Data
				if b := d["balance"].(map[string]any); b["amount"] != float64(500) || b["balance"] != float64(1500) ||
					d["transaction"].(map[string]any)["type"] != "CREDITS_ADDITION" {
					t.Errorf("voucher.gift.balance_added data: %v", mustJSON(d))
				}
			}},
		{name: "remove gift credits (no event)", do: call(http.MethodPost, "/v1/vouchers/G-1/balance", map[string]any{"amount": -100}, app)},
		{name: "set up a loyalty program with a member (only the customer is an event)", do: func(t *testing.T) {
			loyalty = newLoyaltySetup(t, e)
		}, want: []wantEvent{customerEv("customer.created")}},
		{name: "add points to the member's card", do: func(t *testing.T) {
			pointsTx = mustOK(t, e, http.MethodPost, loyalty.CardPath()+"/points", map[string]any{"points": 50, "reason": "welcome"}, loyalty.H)["transaction"].(map[string]any)
		}, want: []wantEvent{pointsEv},
			check: func(t *testing.T, got map[string]hookPayload) {
				d := got["voucher.loyalty_card.points_added"].Data
				member := mustOK(t, e, http.MethodGet, "/v2/loyalties/programs/"+loyalty.Program+"/members/"+loyalty.Member, nil, loyalty.H)
				if mustJSON(d["transaction"]) != mustJSON(pointsTx) || mustJSON(d["member"]) != mustJSON(member) ||
					d["card"].(map[string]any)["id"] != memberCardAt(t, member, 0)["id"] || d["customer"].(map[string]any)["id"] != loyalty.Cust {
					t.Errorf("points_added data is not what the API shows:\n%s\nmember %s\ntransaction %s", mustJSON(d), mustJSON(member), mustJSON(pointsTx))
				}
				if b := d["balance"].(map[string]any); b["points"] != float64(50) || b["balance"] != float64(50) {
					t.Errorf("balance: %v", b)
				}
			}},
		{name: "remove points (no event)", do: func(t *testing.T) {
			mustOK(t, e, http.MethodPost, loyalty.CardPath()+"/points", map[string]any{"points": -10}, loyalty.H)
		}},
		{name: "an earning rule credits points for a custom event", do: func(t *testing.T) {
			purchase := defineEvent(t, e, app, "purchase", nil)
			mustOK(t, e, http.MethodPost, "/v2/loyalties/earning-rules", map[string]any{"name": "earn", "status": "ACTIVE",
				"trigger":  map[string]any{"event": "customer.custom_event", "custom_event": map[string]any{"schema_id": purchase["id"]}},
				"earnings": []any{map[string]any{"effects": []any{map[string]any{"points": map[string]any{"value": 7, "card_definition_id": loyalty.CardDef}}}}}}, loyalty.H)
			must(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "purchase", "customer": map[string]any{"source_id": "member-1"}}, app),
				http.StatusOK)
		}, want: []wantEvent{pointsEv},
			check: func(t *testing.T, got map[string]hookPayload) {
				d := got["voucher.loyalty_card.points_added"].Data
				if b := d["balance"].(map[string]any); b["points"] != float64(7) || b["balance"] != float64(47) ||
					d["card"].(map[string]any)["balance"] != float64(47) {
					t.Errorf("earned points: %v", mustJSON(d))
				}
			}},
		{name: "generate vouchers in bulk", do: func(t *testing.T) {
			must(t, e.Do(http.MethodPost, "/v1/campaigns/Promo/vouchers?vouchers_count=3", nil, app), http.StatusAccepted)
		}, want: []wantEvent{{"campaign.vouchers.generation.completed", map[string]string{"campaign": "campaign", "async_action": "async_action"}}},
			check: func(t *testing.T, got map[string]hookPayload) {
				gen := got["campaign.vouchers.generation.completed"].Data
				if gen["campaign"].(map[string]any)["vouchers_count"] != float64(4) || gen["async_action"].(map[string]any)["status"] != "DONE" {
					t.Errorf("generation: %v", mustJSON(gen))
				}
			}},
		{name: "delete a voucher", do: func(t *testing.T) { ok(e.Do(http.MethodDelete, "/v1/vouchers/G-1", nil, app))(t) },
			want: []wantEvent{voucherEv("voucher.deleted", "campaign")}},
		{name: "delete a customer", do: func(t *testing.T) { ok(e.Do(http.MethodDelete, "/v1/customers/bob", nil, app))(t) },
			want: []wantEvent{customerEv("customer.deleted")}},
		{name: "delete a campaign", do: func(t *testing.T) { ok(e.Do(http.MethodDelete, "/v1/campaigns/Gifts", nil, app))(t) },
			want: []wantEvent{campaignEv("campaign.deleted")}},
	}
	written := func() int {
		list := must(t, e.Do(http.MethodGet, hooksPath(e)+"/"+hookID+"/events?limit=1", nil, mk), http.StatusOK)
		return int(list["total"].(float64))
	}
	covered := map[string]bool{}
	for _, st := range steps {
		seen := len(rcv.delivered())
		st.do(t)
		var got []hookPayload
		waitFor(t, st.name+": its events delivered", func() bool {
			got = rcv.delivered()[seen:]
			have := map[string]bool{}
			for _, p := range got {
				have[p.Type] = true
			}
			for _, w := range st.want {
				if !have[w.typ] {
					return false
				}
			}
			return written() == seen+len(got)
		})
		var types, wantTypes []string
		byType := map[string]hookPayload{}
		for _, p := range got {
			types = append(types, p.Type)
			byType[p.Type] = p
		}
		for _, w := range st.want {
			wantTypes = append(wantTypes, w.typ)
			covered[w.typ] = true
		}
		sort.Strings(types)
		sort.Strings(wantTypes)
		if !slices.Equal(types, wantTypes) {
			t.Errorf("%s: events %v, want %v", st.name, types, wantTypes)
			continue
		}
		for _, w := range st.want {
			checkEventPayload(t, st.name, byType[w.typ], w, e.Project.ProjectID, hookID)
		}
		if st.check != nil {
			st.check(t, byType)
		}
	}
	for _, q := range rcv.requests() {
		if q.Signature != webhook.SignWebhook(token, q.Body) {
			t.Errorf("%s: bad signature", q.Payload.Type)
		}
	}
	// Every event of the list comes from an operation above.
	for _, name := range []string{"voucher.published", "publication.succeeded", "redemption.succeeded", "redemption.failed",
		"redemption.rollback.succeeded", "voucher.created", "voucher.updated", "voucher.deleted", "voucher.enabled",
		"voucher.disabled", "voucher.gift.balance_added", "voucher.loyalty_card.points_added", "customer.created",
		"customer.deleted", "campaign.created", "campaign.updated", "campaign.deleted", "campaign.vouchers.generation.completed"} {
		if !covered[name] {
			t.Errorf("no step sends %s", name)
		}
	}
}
