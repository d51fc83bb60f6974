package customer

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// A customer named by source_id is created once and then found, with its
// profile updated when the request carries one; what the use case returns
// is what a later read shows (on SQLite it is not read back after the
// insert: readOrInsertBySourceID).
func TestCustomerBySourceIDReturnsWhatIsStored(t *testing.T) {
	_, ctx := graphtest.ProjectContext(t)
	c, _ := store.Client(ctx)
	src, name, email := "shopper-1", "Ann", "ann@example.com"
	stored := func(cust *ent.Customer) {
		t.Helper()
		again, err := c.Customer.Get(ctx, cust.ID)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(cust)
		want, _ := json.Marshal(again)
		if string(got) != string(want) {
			t.Errorf("returned %s\nstored   %s", got, want)
		}
	}
	var first *ent.Customer
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		first, err = ResolveCustomer(ctx, &CustomerInput{SourceID: &src, Name: &name,
			Metadata: map[string]any{"tier": "gold"}, Address: &jsonfield.CustomerAddress{City: graphtest.Ptr("Oslo")}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	stored(first)
	if first.Name == nil || *first.Name != name || first.Metadata["tier"] != "gold" {
		t.Errorf("created %+v", first)
	}
	var found, updated *ent.Customer
	if err := store.InTx(ctx, func(ctx context.Context) (err error) {
		if found, err = ResolveCustomer(ctx, &CustomerInput{SourceID: &src}); err != nil {
			return err
		}
		updated, err = ResolveCustomer(ctx, &CustomerInput{SourceID: &src, Email: &email})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if found.ID != first.ID || updated.ID != first.ID {
		t.Fatalf("one source_id gave customers %s, %s and %s", first.ID, found.ID, updated.ID)
	}
	if found.UpdatedAt != nil || updated.Email == nil || *updated.Email != email || updated.UpdatedAt == nil ||
		*updated.Name != name {
		t.Errorf("found %+v, updated %+v", found, updated)
	}
	stored(updated)
	if n, err := c.Customer.Query().Count(ctx); err != nil || n != 1 {
		t.Errorf("%d customers (%v), want 1", n, err)
	}
}
