package rest_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

var (
	rewardIDRE     = regexp.MustCompile(`^rew_[0-9A-Za-z]{24}$`)
	assignmentIDRE = regexp.MustCompile(`^rewa_[0-9A-Za-z]{24}$`)
)

// rewardFixture is a project with the campaigns and product rewards name.
type rewardFixture struct {
	e                                  *resttest.Env
	app                                resttest.Headers
	coupons, gifts, points, other, ref string // campaign IDs
	product                            string
}

// newRewardFixture makes a DISCOUNT_COUPONS campaign (Coupons), a gift card
// campaign (Gifts), two loyalty campaigns (Points, whose cards start with
// cardPoints points, and Other points), a referral campaign and a product.
func newRewardFixture(t *testing.T, e *resttest.Env, cardPoints int) *rewardFixture {
	t.Helper()
	f := &rewardFixture{e: e, app: resttest.App(e.Project)}
	f.coupons = must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Coupons", "campaign_type": "DISCOUNT_COUPONS",
		"type": "AUTO_UPDATE", "voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "discount": map[string]any{"type": "AMOUNT", "amount_off": 500}}}, f.app), http.StatusOK)["id"].(string)
	f.gifts = must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Gifts", "campaign_type": "GIFT_VOUCHERS",
		"type": "AUTO_UPDATE", "voucher": map[string]any{"type": "GIFT_VOUCHER", "gift": map[string]any{"amount": 0}}}, f.app), http.StatusOK)["id"].(string)
	f.points = loyaltyCampaignV1(t, e, f.app, "Points", cardPoints)
	f.other = loyaltyCampaignV1(t, e, f.app, "Other points", 0)
	f.ref = must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": "Refer", "campaign_type": "REFERRAL_PROGRAM",
		"type": "AUTO_UPDATE", "voucher": map[string]any{"type": "DISCOUNT_VOUCHER", "is_referral_code": true,
			"discount": map[string]any{"type": "AMOUNT", "amount_off": 100}}}, f.app), http.StatusOK)["id"].(string)
	f.product = must(t, e.DoJSON(http.MethodPost, "/v1/products", map[string]any{"source_id": "mug", "name": "Mug", "price": 1500}, f.app), http.StatusOK)["id"].(string)
	return f
}

// loyaltyCampaignV1 makes an AUTO_UPDATE v1 loyalty campaign whose cards
// start with points.
func loyaltyCampaignV1(t *testing.T, e *resttest.Env, h resttest.Headers, name string, points int) string {
	t.Helper()
	return must(t, e.DoJSON(http.MethodPost, "/v1/campaigns", map[string]any{"name": name, "campaign_type": "LOYALTY_PROGRAM",
		"type": "AUTO_UPDATE", "voucher": map[string]any{"type": "LOYALTY_CARD", "loyalty_card": map[string]any{"points": points}}}, h), http.StatusOK)["id"].(string)
}

// mustNoContent fails unless the answer is 204 with no body.
func mustNoContent(t *testing.T, r resttest.Response) {
	t.Helper()
	if r.Status != http.StatusNoContent || len(r.Body) != 0 {
		t.Fatalf("want 204 and no body, got %d %s", r.Status, r.Body)
	}
}

func (f *rewardFixture) createReward(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	return must(t, f.e.DoJSON(http.MethodPost, "/v1/rewards", body, f.app), http.StatusOK)
}

func (f *rewardFixture) assign(t *testing.T, rewardID, campaignID string, points int) map[string]any {
	t.Helper()
	return must(t, f.e.DoJSON(http.MethodPost, "/v1/rewards/"+rewardID+"/assignments", map[string]any{"campaign": campaignID,
		"parameters": map[string]any{"loyalty": map[string]any{"points": points}}}, f.app), http.StatusOK)
}

func (f *rewardFixture) rewardTotal(t *testing.T) float64 {
	t.Helper()
	return num(must(t, f.e.Do(http.MethodGet, "/v1/rewards", nil, f.app), http.StatusOK)["total"])
}

func TestV1RewardsCreateReadUpdateDelete(t *testing.T) {
	e := resttest.New(t)
	f := newRewardFixture(t, e, 0)

	coupon := f.createReward(t, map[string]any{"name": "5 off", "type": "CAMPAIGN", "parameters": map[string]any{"campaign": map[string]any{"id": f.coupons}},
		"attributes": map[string]any{"description": "A coupon"}, "metadata": map[string]any{"tier": "gold"}})
	params := coupon["parameters"].(map[string]any)["campaign"].(map[string]any)
	if !rewardIDRE.MatchString(coupon["id"].(string)) || coupon["object"] != "reward" || coupon["type"] != "CAMPAIGN" ||
		params["id"] != f.coupons || params["type"] != "DISCOUNT_COUPONS" || coupon["stock"] != nil || coupon["redeemed"] != nil ||
		coupon["attributes"].(map[string]any)["description"] != "A coupon" || coupon["updated_at"] != nil {
		t.Fatalf("coupon reward = %v", coupon)
	}
	// By name too; the type is derived when left out.
	gift := f.createReward(t, map[string]any{"name": "10 credits", "parameters": map[string]any{"campaign": map[string]any{"id": "Gifts", "balance": 1000}}})
	if p := gift["parameters"].(map[string]any)["campaign"].(map[string]any); gift["type"] != "CAMPAIGN" || p["id"] != f.gifts ||
		p["type"] != "GIFT_VOUCHERS" || num(p["balance"]) != 1000 {
		t.Fatalf("gift reward = %v", gift)
	}
	mug := f.createReward(t, map[string]any{"name": "Mug", "type": "MATERIAL", "stock": 5, "parameters": map[string]any{"product": map[string]any{"id": "mug"}}})
	if p := mug["parameters"].(map[string]any)["product"].(map[string]any); p["id"] != f.product || num(mug["stock"]) != 5 || mug["redeemed"] != float64(0) {
		t.Fatalf("material reward = %v", mug)
	}
	coin := f.createReward(t, map[string]any{"name": "Pay with points", "type": "COIN", "parameters": map[string]any{"coin": map[string]any{"exchange_ratio": 20, "points_ratio": 100}}})
	if p := coin["parameters"].(map[string]any)["coin"].(map[string]any); num(p["exchange_ratio"]) != 20 || num(p["points_ratio"]) != 100 {
		t.Fatalf("coin reward = %v", coin)
	}

	// Bad input is the error object and writes nothing.
	bad := []struct {
		body   map[string]any
		status int
		key    string
	}{
		{map[string]any{"name": "x", "parameters": map[string]any{"campaign": map[string]any{"id": "camp_nope"}}}, http.StatusNotFound, "not_found"},
		{map[string]any{"name": "x", "parameters": map[string]any{"product": map[string]any{"id": "prod_nope"}}}, http.StatusNotFound, "not_found"},
		{map[string]any{"name": "x", "stock": -1, "parameters": map[string]any{"product": map[string]any{"id": "mug"}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x", "stock": 1.5, "parameters": map[string]any{"product": map[string]any{"id": "mug"}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x", "stock": 3, "parameters": map[string]any{"campaign": map[string]any{"id": f.coupons}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x", "type": "COIN", "parameters": map[string]any{"product": map[string]any{"id": "mug"}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x", "parameters": map[string]any{"campaign": map[string]any{"id": f.gifts}}}, http.StatusBadRequest, "invalid_balance"},
		{map[string]any{"name": "x", "parameters": map[string]any{"campaign": map[string]any{"id": f.gifts, "balance": -5}}}, http.StatusBadRequest, "invalid_balance"},
		{map[string]any{"name": "x", "parameters": map[string]any{"coin": map[string]any{"exchange_ratio": 0}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x"}, http.StatusBadRequest, "missing_param"},
		{map[string]any{"parameters": map[string]any{"product": map[string]any{"id": "mug"}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x", "parameters": map[string]any{"product": map[string]any{"id": "mug"}, "coin": map[string]any{"exchange_ratio": 1}}}, http.StatusBadRequest, "invalid_payload"},
	}
	for _, b := range bad {
		wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/rewards", b.body, f.app), b.status, b.key)
	}
	if n := f.rewardTotal(t); n != 4 {
		t.Fatalf("%v rewards after the refused creates, want 4", n)
	}

	// Read, update (the type stays), page.
	id := mug["id"].(string)
	if got := must(t, e.Do(http.MethodGet, "/v1/rewards/"+id, nil, f.app), http.StatusOK); got["name"] != "Mug" {
		t.Fatalf("get = %v", got)
	}
	upd := must(t, e.DoJSON(http.MethodPut, "/v1/rewards/"+id, map[string]any{"name": "Big mug", "stock": 7,
		"attributes": map[string]any{"image_url": "https://img.example/mug.png"}}, f.app), http.StatusOK)
	if upd["name"] != "Big mug" || num(upd["stock"]) != 7 || upd["updated_at"] == nil ||
		upd["attributes"].(map[string]any)["image_url"] != "https://img.example/mug.png" {
		t.Fatalf("updated = %v", upd)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPut, "/v1/rewards/"+id, map[string]any{"type": "COIN"}, f.app), http.StatusBadRequest, "invalid_payload")
	wantErrorKey(t, e.DoJSON(http.MethodPut, "/v1/rewards/"+id, map[string]any{"stock": -2}, f.app), http.StatusBadRequest, "invalid_payload")
	if got := must(t, e.Do(http.MethodGet, "/v1/rewards/"+id, nil, f.app), http.StatusOK); num(got["stock"]) != 7 {
		t.Fatalf("a refused update changed the reward: %v", got)
	}
	first := must(t, e.Do(http.MethodGet, "/v1/rewards?limit=3", nil, f.app), http.StatusOK)
	second := must(t, e.Do(http.MethodGet, "/v1/rewards?limit=3&page=2", nil, f.app), http.StatusOK)
	// Newest first (created_at descending; rewards made in the same
	// millisecond may come in either order): the first entry is the
	// reward created last, or one made in the same millisecond.
	newest := ""
	for _, r := range []map[string]any{coupon, gift, mug, coin} {
		newest = max(newest, r["created_at"].(string))
	}
	if num(first["total"]) != 4 || len(first["data"].([]any)) != 3 || len(second["data"].([]any)) != 1 || first["data_ref"] != "data" ||
		first["data"].([]any)[0].(map[string]any)["created_at"] != newest {
		t.Fatalf("pages: %v / %v", first, second)
	}
	wantErrorKey(t, e.Do(http.MethodGet, "/v1/rewards?limit=500", nil, f.app), http.StatusBadRequest, "invalid_query_params")

	// Delete: 204, then 404.
	mustNoContent(t, e.Do(http.MethodDelete, "/v1/rewards/"+coin["id"].(string), nil, f.app))
	wantNotFound(t, e.Do(http.MethodGet, "/v1/rewards/"+coin["id"].(string), nil, f.app), "reward", coin["id"].(string))
	wantNotFound(t, e.Do(http.MethodDelete, "/v1/rewards/rew_nope", nil, f.app), "reward", "rew_nope")
}

func TestV1RewardAssignments(t *testing.T) {
	e := resttest.New(t)
	f := newRewardFixture(t, e, 0)
	mug := f.createReward(t, map[string]any{"name": "Mug", "parameters": map[string]any{"product": map[string]any{"id": f.product}}})["id"].(string)
	coin := f.createReward(t, map[string]any{"name": "Coin", "parameters": map[string]any{"coin": map[string]any{"exchange_ratio": 0.01}}})["id"].(string)
	base := "/v1/rewards/" + mug + "/assignments"

	a := f.assign(t, mug, f.points, 100)
	if !assignmentIDRE.MatchString(a["id"].(string)) || a["reward_id"] != mug || a["related_object_id"] != f.points ||
		a["related_object_type"] != "campaign" || a["object"] != "reward_assignment" ||
		num(a["parameters"].(map[string]any)["loyalty"].(map[string]any)["points"]) != 100 {
		t.Fatalf("assignment = %v", a)
	}
	aid := a["id"].(string)
	// A referral campaign takes assignments too; a coupon campaign does not.
	f.assign(t, mug, f.ref, 1)
	wantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"campaign": f.coupons,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.app), http.StatusBadRequest, "invalid_payload")
	// One per reward and campaign.
	dup := wantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"campaign": "Points",
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.app), http.StatusConflict, "duplicate_found")
	if dup["resource_id"] != aid {
		t.Fatalf("duplicate names %v, want %s", dup["resource_id"], aid)
	}
	for _, body := range []map[string]any{
		{"campaign": f.other, "parameters": map[string]any{"loyalty": map[string]any{"points": 0}}},
		{"campaign": f.other, "parameters": map[string]any{"loyalty": map[string]any{"points": -5}}},
		{"campaign": f.other, "parameters": map[string]any{"loyalty": map[string]any{"points": 2.5}}},
		{"campaign": f.other, "parameters": map[string]any{"loyalty": map[string]any{"points": "ten"}}},
	} {
		wantErrorKey(t, e.DoJSON(http.MethodPost, base, body, f.app), http.StatusBadRequest, "invalid_payload")
	}
	wantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"campaign": f.other}, f.app), http.StatusBadRequest, "missing_param")
	wantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.app),
		http.StatusBadRequest, "missing_param")
	wantNotFound(t, e.DoJSON(http.MethodPost, base, map[string]any{"campaign": "camp_nope",
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.app), "campaign", "camp_nope")
	wantNotFound(t, e.DoJSON(http.MethodPost, "/v1/rewards/rew_nope/assignments", map[string]any{"campaign": f.other,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.app), "reward", "rew_nope")
	// COIN: no loyalty parameters.
	wantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+coin+"/assignments", map[string]any{"campaign": f.points,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.app), http.StatusBadRequest, "invalid_payload")
	coinA := must(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+coin+"/assignments", map[string]any{"campaign": f.points}, f.app), http.StatusOK)
	if _, ok := coinA["parameters"]; ok {
		t.Fatalf("a COIN assignment has no parameters: %v", coinA)
	}

	list := must(t, e.Do(http.MethodGet, base, nil, f.app), http.StatusOK)
	if num(list["total"]) != 2 || len(list["data"].([]any)) != 2 {
		t.Fatalf("the refused assignments were written: %v", list)
	}
	if got := must(t, e.Do(http.MethodGet, base+"/"+aid, nil, f.app), http.StatusOK); got["id"] != aid {
		t.Fatalf("get = %v", got)
	}
	wantNotFound(t, e.Do(http.MethodGet, base+"/rewa_nope", nil, f.app), "reward_assignment", "rewa_nope")
	upd := must(t, e.DoJSON(http.MethodPut, base+"/"+aid, map[string]any{"parameters": map[string]any{"loyalty": map[string]any{"points": 250}}}, f.app), http.StatusOK)
	if num(upd["parameters"].(map[string]any)["loyalty"].(map[string]any)["points"]) != 250 || upd["updated_at"] == nil {
		t.Fatalf("updated = %v", upd)
	}
	wantErrorKey(t, e.DoJSON(http.MethodPut, base+"/"+aid, map[string]any{"parameters": map[string]any{"loyalty": map[string]any{"points": -1}}}, f.app),
		http.StatusBadRequest, "invalid_payload")
	// The reward of an assignment.
	byAssignment := must(t, e.Do(http.MethodGet, "/v1/rewards?assignment_id="+aid, nil, f.app), http.StatusOK)
	if num(byAssignment["total"]) != 1 || byAssignment["data"].([]any)[0].(map[string]any)["id"] != mug {
		t.Fatalf("rewards of assignment: %v", byAssignment)
	}
	// An assigned reward cannot be deleted.
	wantErrorKey(t, e.Do(http.MethodDelete, "/v1/rewards/"+mug, nil, f.app), http.StatusBadRequest, "resource_in_use")
	for _, l := range list["data"].([]any) {
		mustNoContent(t, e.Do(http.MethodDelete, base+"/"+l.(map[string]any)["id"].(string), nil, f.app))
	}
	mustNoContent(t, e.Do(http.MethodDelete, "/v1/rewards/"+mug, nil, f.app))
}

func TestV1RewardsBelongToTheirProject(t *testing.T) {
	e := resttest.New(t)
	f := newRewardFixture(t, e, 0)
	mug := f.createReward(t, map[string]any{"name": "Mug", "parameters": map[string]any{"product": map[string]any{"id": f.product}}})["id"].(string)
	aid := f.assign(t, mug, f.points, 10)["id"].(string)
	other := resttest.App(e.NewProject("other"))
	wantNotFound(t, e.Do(http.MethodGet, "/v1/rewards/"+mug, nil, other), "reward", mug)
	wantNotFound(t, e.DoJSON(http.MethodPut, "/v1/rewards/"+mug, map[string]any{"name": "mine"}, other), "reward", mug)
	wantNotFound(t, e.Do(http.MethodDelete, "/v1/rewards/"+mug, nil, other), "reward", mug)
	wantNotFound(t, e.Do(http.MethodGet, "/v1/rewards/"+mug+"/assignments/"+aid, nil, other), "reward", mug)
	wantNotFound(t, e.Do(http.MethodGet, "/v1/loyalties/"+f.points+"/rewards/"+aid, nil, other), "campaign", f.points)
	if l := must(t, e.Do(http.MethodGet, "/v1/rewards", nil, other), http.StatusOK); num(l["total"]) != 0 {
		t.Fatalf("another project sees rewards: %v", l)
	}
	if got := must(t, e.Do(http.MethodGet, "/v1/rewards/"+mug, nil, f.app), http.StatusOK); got["name"] != "Mug" {
		t.Fatalf("the owner's reward changed: %v", got)
	}
}

func TestV1RewardsThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	f := newRewardFixture(t, e, 0)
	created := e.GraphQL(f.app, `mutation($c: ID!) { createV1Reward(input: {name: "Coupon", parameters: {campaign: {id: $c}}}) { id type parameters stock } }`,
		map[string]any{"c": f.coupons})
	if len(created.Errors) > 0 {
		t.Fatalf("createV1Reward: %+v", created.Errors)
	}
	r := created.Data["createV1Reward"].(map[string]any)
	id := r["id"].(string)
	if r["type"] != "CAMPAIGN" || r["stock"] != nil {
		t.Fatalf("created = %v", r)
	}
	assigned := e.GraphQL(f.app, `mutation($r: ID!, $c: ID!) { createV1RewardAssignment(rewardID: $r, input: {campaign: $c, parameters: {loyalty: {points: 40}}}) { id points campaignID } }`,
		map[string]any{"r": id, "c": f.points})
	if len(assigned.Errors) > 0 || assigned.Data["createV1RewardAssignment"].(map[string]any)["points"] != float64(40) {
		t.Fatalf("createV1RewardAssignment: %+v %v", assigned.Errors, assigned.Data)
	}
	// The REST list sees what GraphQL wrote, and GraphQL reads what REST lists.
	if l := must(t, e.Do(http.MethodGet, "/v1/loyalties/"+url.PathEscape("Points")+"/rewards", nil, f.app), http.StatusOK); num(l["total"]) != 1 {
		t.Fatalf("loyalty rewards: %v", l)
	}
	got := e.GraphQL(f.app, `query($c: ID!) { v1LoyaltyRewardAssignmentList(campaign: $c) { total data { rewardID } } v1RewardList { total } }`,
		map[string]any{"c": f.points})
	if len(got.Errors) > 0 || got.Data["v1RewardList"].(map[string]any)["total"] != float64(1) ||
		got.Data["v1LoyaltyRewardAssignmentList"].(map[string]any)["data"].([]any)[0].(map[string]any)["rewardID"] != id {
		t.Fatalf("queries: %+v %v", got.Errors, got.Data)
	}
	bad := e.GraphQL(f.app, `mutation { createV1Reward(input: {name: "x", stock: -1, parameters: {product: {id: "mug"}}}) { id } }`, nil)
	if len(bad.Errors) == 0 || bad.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Fatalf("negative stock over GraphQL: %+v", bad.Errors)
	}
}
