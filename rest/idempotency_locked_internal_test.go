package rest

import "testing"

// TestLockedAnswersAreNotKeptForReplay: a 409 resource_locked wrote
// nothing, so a retry under the same idempotency key must act again rather
// than replay it; other conflicts are final and kept.
func TestLockedAnswersAreNotKeptForReplay(t *testing.T) {
	const route = "/v1/vouchers/:code/redemption"
	if storable(409, []byte(`{"code":409,"key":"resource_locked","message":"Resource locked","request_id":"v-1"}`), route) {
		t.Error("a 409 resource_locked is kept for replay")
	}
	if !storable(409, []byte(`{"code":409,"key":"duplicate_found","message":"Duplicate resource","request_id":"v-1"}`), route) {
		t.Error("a 409 duplicate_found is not kept for replay")
	}
	gql := []byte(`{"errors":[{"message":"Resource locked","extensions":{"code":409,"key":"resource_locked"}}],"data":null}`)
	if storable(200, gql, "/graphql") {
		t.Error("a GraphQL answer with resource_locked is kept for replay")
	}
}
