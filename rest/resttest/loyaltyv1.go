package resttest

import (
	"io"
	"net/http"
	"net/url"
	"testing"
)

// The v1 loyalty fixtures (rest/loyaltyv1's tests and rest's tests that
// set a v1 program up for another area).

// NewV1Program creates a v1 loyalty program (POST /v1/loyalties) whose
// cards start with points, codes LC-########, tiers by balance.
func NewV1Program(t testing.TB, e *Env, h Headers, name string, points int) map[string]any {
	t.Helper()
	return MustOK(t, e, http.MethodPost, "/v1/loyalties", map[string]any{
		"name": name, "type": "AUTO_UPDATE", "join_once": false,
		"voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": points},
			"code_config": map[string]any{"pattern": "LC-########"}},
		"loyalty_tiers_expiration": map[string]any{"qualification_type": "BALANCE",
			"start_date": map[string]any{"type": "IMMEDIATE"}, "expiration_date": map[string]any{"type": "BALANCE_DROP"}},
	}, h)
}

// AddV1Member adds the customer sourceID (named "Member <sourceID>") to
// the program and returns the card.
func AddV1Member(t testing.TB, e *Env, h Headers, program, sourceID string) map[string]any {
	t.Helper()
	return MustOK(t, e, http.MethodPost, "/v1/loyalties/"+program+"/members",
		map[string]any{"customer": map[string]any{"source_id": sourceID, "name": "Member " + sourceID}}, h)
}

// CardPoints is a member's loyalty_card (GET /v1/loyalties/members/{code}).
func CardPoints(t testing.TB, e *Env, h Headers, code string) map[string]any {
	t.Helper()
	return MustOK(t, e, http.MethodGet, "/v1/loyalties/members/"+code, nil, h)["loyalty_card"].(map[string]any)
}

// MemberCard publishes a card of the loyalty campaign (by name) to the
// customer (by source_id) and returns its code.
func MemberCard(t testing.TB, e *Env, h Headers, campaign, customer string) string {
	t.Helper()
	pub := Must(t, e.DoJSON(http.MethodPost, "/v1/publications", map[string]any{"campaign": map[string]any{"name": campaign},
		"customer": map[string]any{"source_id": customer}}, h), http.StatusOK)
	return pub["voucher"].(map[string]any)["code"].(string)
}

// CardBalance is GET /v1/vouchers/{code} → loyalty_card.balance.
func CardBalance(t testing.TB, e *Env, h Headers, code string) float64 {
	t.Helper()
	v := Must(t, e.Do(http.MethodGet, "/v1/vouchers/"+url.PathEscape(code), nil, h), http.StatusOK)
	balance, _ := v["loyalty_card"].(map[string]any)["balance"].(float64)
	return balance
}

// VoucherBalance is POST /v1/vouchers/{code}/balance with body.
func VoucherBalance(t testing.TB, e *Env, h Headers, code string, body map[string]any) Response {
	t.Helper()
	return e.DoJSON(http.MethodPost, "/v1/vouchers/"+url.PathEscape(code)+"/balance", body, h)
}

// StaticCampaign makes a STATIC campaign (100 off) with the given explicit
// codes.
func StaticCampaign(t testing.TB, e *Env, name string, codes ...string) {
	t.Helper()
	CreateCampaign(t, e, map[string]any{"name": name, "type": "STATIC",
		"voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}})
	for _, c := range codes {
		r := e.DoJSON(http.MethodPost, "/v1/campaigns/"+url.PathEscape(name)+"/vouchers", map[string]any{"code": c}, App(e.Project))
		if r.Status != http.StatusOK {
			t.Fatalf("adding %s: %d %s", c, r.Status, r.Body)
		}
	}
}

// Fetched is a plain GET's status, headers and body (an export download).
type Fetched struct {
	Status int
	Header http.Header
	Body   string
}

// Fetch GETs rawURL without credentials.
func Fetch(t testing.TB, rawURL string) Fetched {
	t.Helper()
	resp, err := http.Get(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading download: %v", err)
	}
	return Fetched{resp.StatusCode, resp.Header, string(b)}
}
