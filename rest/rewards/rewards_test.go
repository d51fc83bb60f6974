package rewards_test

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

func num(v any) float64 { f, _ := v.(float64); return f }

func TestV1RewardsCreateReadUpdateDelete(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 0)

	coupon := f.CreateReward(t, map[string]any{"name": "5 off", "type": "CAMPAIGN", "parameters": map[string]any{"campaign": map[string]any{"id": f.Coupons}},
		"attributes": map[string]any{"description": "A coupon"}, "metadata": map[string]any{"tier": "gold"}})
	params := coupon["parameters"].(map[string]any)["campaign"].(map[string]any)
	if !rewardIDRE.MatchString(coupon["id"].(string)) || coupon["object"] != "reward" || coupon["type"] != "CAMPAIGN" ||
		params["id"] != f.Coupons || params["type"] != "DISCOUNT_COUPONS" || coupon["stock"] != nil || coupon["redeemed"] != nil ||
		coupon["attributes"].(map[string]any)["description"] != "A coupon" || coupon["updated_at"] != nil {
		t.Fatalf("coupon reward = %v", coupon)
	}
	// By name too; the type is derived when left out.
	gift := f.CreateReward(t, map[string]any{"name": "10 credits", "parameters": map[string]any{"campaign": map[string]any{"id": "Gifts", "balance": 1000}}})
	if p := gift["parameters"].(map[string]any)["campaign"].(map[string]any); gift["type"] != "CAMPAIGN" || p["id"] != f.Gifts ||
		p["type"] != "GIFT_VOUCHERS" || num(p["balance"]) != 1000 {
		t.Fatalf("gift reward = %v", gift)
	}
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "type": "MATERIAL", "stock": 5, "parameters": map[string]any{"product": map[string]any{"id": "mug"}}})
	if p := mug["parameters"].(map[string]any)["product"].(map[string]any); p["id"] != f.Product || num(mug["stock"]) != 5 || mug["redeemed"] != float64(0) {
		t.Fatalf("material reward = %v", mug)
	}
	coin := f.CreateReward(t, map[string]any{"name": "Pay with points", "type": "COIN", "parameters": map[string]any{"coin": map[string]any{"exchange_ratio": 20, "points_ratio": 100}}})
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
		{map[string]any{"name": "x", "stock": 3, "parameters": map[string]any{"campaign": map[string]any{"id": f.Coupons}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x", "type": "COIN", "parameters": map[string]any{"product": map[string]any{"id": "mug"}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x", "parameters": map[string]any{"campaign": map[string]any{"id": f.Gifts}}}, http.StatusBadRequest, "invalid_balance"},
		{map[string]any{"name": "x", "parameters": map[string]any{"campaign": map[string]any{"id": f.Gifts, "balance": -5}}}, http.StatusBadRequest, "invalid_balance"},
		{map[string]any{"name": "x", "parameters": map[string]any{"coin": map[string]any{"exchange_ratio": 0}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x"}, http.StatusBadRequest, "missing_param"},
		{map[string]any{"parameters": map[string]any{"product": map[string]any{"id": "mug"}}}, http.StatusBadRequest, "invalid_payload"},
		{map[string]any{"name": "x", "parameters": map[string]any{"product": map[string]any{"id": "mug"}, "coin": map[string]any{"exchange_ratio": 1}}}, http.StatusBadRequest, "invalid_payload"},
	}
	for _, b := range bad {
		resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/rewards", b.body, f.App), b.status, b.key)
	}
	if n := f.RewardTotal(t); n != 4 {
		t.Fatalf("%v rewards after the refused creates, want 4", n)
	}

	// Read, update (the type stays), page.
	id := mug["id"].(string)
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/rewards/"+id, nil, f.App), http.StatusOK); got["name"] != "Mug" {
		t.Fatalf("get = %v", got)
	}
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, "/v1/rewards/"+id, map[string]any{"name": "Big mug", "stock": 7,
		"attributes": map[string]any{"image_url": "https://img.example/mug.png"}}, f.App), http.StatusOK)
	if upd["name"] != "Big mug" || num(upd["stock"]) != 7 || upd["updated_at"] == nil ||
		upd["attributes"].(map[string]any)["image_url"] != "https://img.example/mug.png" {
		t.Fatalf("updated = %v", upd)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v1/rewards/"+id, map[string]any{"type": "COIN"}, f.App), http.StatusBadRequest, "invalid_payload")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, "/v1/rewards/"+id, map[string]any{"stock": -2}, f.App), http.StatusBadRequest, "invalid_payload")
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/rewards/"+id, nil, f.App), http.StatusOK); num(got["stock"]) != 7 {
		t.Fatalf("a refused update changed the reward: %v", got)
	}
	first := resttest.Must(t, e.Do(http.MethodGet, "/v1/rewards?limit=3", nil, f.App), http.StatusOK)
	second := resttest.Must(t, e.Do(http.MethodGet, "/v1/rewards?limit=3&page=2", nil, f.App), http.StatusOK)
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
	resttest.WantErrorKey(t, e.Do(http.MethodGet, "/v1/rewards?limit=500", nil, f.App), http.StatusBadRequest, "invalid_query_params")

	// Delete: 204, then 404.
	resttest.MustNoContent(t, e.Do(http.MethodDelete, "/v1/rewards/"+coin["id"].(string), nil, f.App))
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/rewards/"+coin["id"].(string), nil, f.App), "reward", coin["id"].(string))
	resttest.WantNotFound(t, e.Do(http.MethodDelete, "/v1/rewards/rew_nope", nil, f.App), "reward", "rew_nope")
}

func TestV1RewardAssignments(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 0)
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "parameters": map[string]any{"product": map[string]any{"id": f.Product}}})["id"].(string)
	coin := f.CreateReward(t, map[string]any{"name": "Coin", "parameters": map[string]any{"coin": map[string]any{"exchange_ratio": 0.01}}})["id"].(string)
	base := "/v1/rewards/" + mug + "/assignments"

	a := f.Assign(t, mug, f.Points, 100)
	if !assignmentIDRE.MatchString(a["id"].(string)) || a["reward_id"] != mug || a["related_object_id"] != f.Points ||
		a["related_object_type"] != "campaign" || a["object"] != "reward_assignment" ||
		num(a["parameters"].(map[string]any)["loyalty"].(map[string]any)["points"]) != 100 {
		t.Fatalf("assignment = %v", a)
	}
	aid := a["id"].(string)
	// A referral campaign takes assignments too; a coupon campaign does not.
	f.Assign(t, mug, f.Ref, 1)
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"campaign": f.Coupons,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.App), http.StatusBadRequest, "invalid_payload")
	// One per reward and campaign.
	dup := resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"campaign": "Points",
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.App), http.StatusConflict, "duplicate_found")
	if dup["resource_id"] != aid {
		t.Fatalf("duplicate names %v, want %s", dup["resource_id"], aid)
	}
	for _, body := range []map[string]any{
		{"campaign": f.Other, "parameters": map[string]any{"loyalty": map[string]any{"points": 0}}},
		{"campaign": f.Other, "parameters": map[string]any{"loyalty": map[string]any{"points": -5}}},
		{"campaign": f.Other, "parameters": map[string]any{"loyalty": map[string]any{"points": 2.5}}},
		{"campaign": f.Other, "parameters": map[string]any{"loyalty": map[string]any{"points": "ten"}}},
	} {
		resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, body, f.App), http.StatusBadRequest, "invalid_payload")
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"campaign": f.Other}, f.App), http.StatusBadRequest, "missing_param")
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, base, map[string]any{"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.App),
		http.StatusBadRequest, "missing_param")
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, base, map[string]any{"campaign": "camp_nope",
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.App), "campaign", "camp_nope")
	resttest.WantNotFound(t, e.DoJSON(http.MethodPost, "/v1/rewards/rew_nope/assignments", map[string]any{"campaign": f.Other,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.App), "reward", "rew_nope")
	// COIN: no loyalty parameters.
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+coin+"/assignments", map[string]any{"campaign": f.Points,
		"parameters": map[string]any{"loyalty": map[string]any{"points": 5}}}, f.App), http.StatusBadRequest, "invalid_payload")
	coinA := resttest.Must(t, e.DoJSON(http.MethodPost, "/v1/rewards/"+coin+"/assignments", map[string]any{"campaign": f.Points}, f.App), http.StatusOK)
	if _, ok := coinA["parameters"]; ok {
		t.Fatalf("a COIN assignment has no parameters: %v", coinA)
	}

	list := resttest.Must(t, e.Do(http.MethodGet, base, nil, f.App), http.StatusOK)
	if num(list["total"]) != 2 || len(list["data"].([]any)) != 2 {
		t.Fatalf("the refused assignments were written: %v", list)
	}
	if got := resttest.Must(t, e.Do(http.MethodGet, base+"/"+aid, nil, f.App), http.StatusOK); got["id"] != aid {
		t.Fatalf("get = %v", got)
	}
	resttest.WantNotFound(t, e.Do(http.MethodGet, base+"/rewa_nope", nil, f.App), "reward_assignment", "rewa_nope")
	upd := resttest.Must(t, e.DoJSON(http.MethodPut, base+"/"+aid, map[string]any{"parameters": map[string]any{"loyalty": map[string]any{"points": 250}}}, f.App), http.StatusOK)
	if num(upd["parameters"].(map[string]any)["loyalty"].(map[string]any)["points"]) != 250 || upd["updated_at"] == nil {
		t.Fatalf("updated = %v", upd)
	}
	resttest.WantErrorKey(t, e.DoJSON(http.MethodPut, base+"/"+aid, map[string]any{"parameters": map[string]any{"loyalty": map[string]any{"points": -1}}}, f.App),
		http.StatusBadRequest, "invalid_payload")
	// The reward of an assignment.
	byAssignment := resttest.Must(t, e.Do(http.MethodGet, "/v1/rewards?assignment_id="+aid, nil, f.App), http.StatusOK)
	if num(byAssignment["total"]) != 1 || byAssignment["data"].([]any)[0].(map[string]any)["id"] != mug {
		t.Fatalf("rewards of assignment: %v", byAssignment)
	}
	// An assigned reward cannot be deleted.
	resttest.WantErrorKey(t, e.Do(http.MethodDelete, "/v1/rewards/"+mug, nil, f.App), http.StatusBadRequest, "resource_in_use")
	for _, l := range list["data"].([]any) {
		resttest.MustNoContent(t, e.Do(http.MethodDelete, base+"/"+l.(map[string]any)["id"].(string), nil, f.App))
	}
	resttest.MustNoContent(t, e.Do(http.MethodDelete, "/v1/rewards/"+mug, nil, f.App))
}

func TestV1RewardsBelongToTheirProject(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 0)
	mug := f.CreateReward(t, map[string]any{"name": "Mug", "parameters": map[string]any{"product": map[string]any{"id": f.Product}}})["id"].(string)
	aid := f.Assign(t, mug, f.Points, 10)["id"].(string)
	other := resttest.App(e.NewProject("other"))
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/rewards/"+mug, nil, other), "reward", mug)
	resttest.WantNotFound(t, e.DoJSON(http.MethodPut, "/v1/rewards/"+mug, map[string]any{"name": "mine"}, other), "reward", mug)
	resttest.WantNotFound(t, e.Do(http.MethodDelete, "/v1/rewards/"+mug, nil, other), "reward", mug)
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/rewards/"+mug+"/assignments/"+aid, nil, other), "reward", mug)
	resttest.WantNotFound(t, e.Do(http.MethodGet, "/v1/loyalties/"+f.Points+"/rewards/"+aid, nil, other), "campaign", f.Points)
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/rewards", nil, other), http.StatusOK); num(l["total"]) != 0 {
		t.Fatalf("another project sees rewards: %v", l)
	}
	if got := resttest.Must(t, e.Do(http.MethodGet, "/v1/rewards/"+mug, nil, f.App), http.StatusOK); got["name"] != "Mug" {
		t.Fatalf("the owner's reward changed: %v", got)
	}
}

func TestV1RewardsThroughGraphQL(t *testing.T) {
	e := resttest.New(t)
	f := resttest.NewRewardFixture(t, e, 0)
	created := e.GraphQL(f.App, `mutation($c: ID!) { createV1Reward(input: {name: "Coupon", parameters: {campaign: {id: $c}}}) { id type parameters stock } }`,
		map[string]any{"c": f.Coupons})
	if len(created.Errors) > 0 {
		t.Fatalf("createV1Reward: %+v", created.Errors)
	}
	r := created.Data["createV1Reward"].(map[string]any)
	id := r["id"].(string)
	if r["type"] != "CAMPAIGN" || r["stock"] != nil {
		t.Fatalf("created = %v", r)
	}
	assigned := e.GraphQL(f.App, `mutation($r: ID!, $c: ID!) { createV1RewardAssignment(rewardID: $r, input: {campaign: $c, parameters: {loyalty: {points: 40}}}) { id points campaignID } }`,
		map[string]any{"r": id, "c": f.Points})
	if len(assigned.Errors) > 0 || assigned.Data["createV1RewardAssignment"].(map[string]any)["points"] != float64(40) {
		t.Fatalf("createV1RewardAssignment: %+v %v", assigned.Errors, assigned.Data)
	}
	// The REST list sees what GraphQL wrote, and GraphQL reads what REST lists.
	if l := resttest.Must(t, e.Do(http.MethodGet, "/v1/loyalties/"+url.PathEscape("Points")+"/rewards", nil, f.App), http.StatusOK); num(l["total"]) != 1 {
		t.Fatalf("loyalty rewards: %v", l)
	}
	got := e.GraphQL(f.App, `query($c: ID!) { v1LoyaltyRewardAssignmentList(campaign: $c) { total data { rewardID } } v1RewardList { total } }`,
		map[string]any{"c": f.Points})
	if len(got.Errors) > 0 || got.Data["v1RewardList"].(map[string]any)["total"] != float64(1) ||
		got.Data["v1LoyaltyRewardAssignmentList"].(map[string]any)["data"].([]any)[0].(map[string]any)["rewardID"] != id {
		t.Fatalf("queries: %+v %v", got.Errors, got.Data)
	}
	bad := e.GraphQL(f.App, `mutation { createV1Reward(input: {name: "x", stock: -1, parameters: {product: {id: "mug"}}}) { id } }`, nil)
	if len(bad.Errors) == 0 || bad.Errors[0].Extensions["key"] != "invalid_payload" {
		t.Fatalf("negative stock over GraphQL: %+v", bad.Errors)
	}
}
