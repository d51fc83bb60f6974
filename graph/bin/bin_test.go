package bin_test

import (
	"testing"

	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
)

// A binned name is taken until its entry goes; the filters refuse what
// they do not know.
func TestReservedNamesAndFilters(t *testing.T) {
	_, ctx := graphtest.ProjectContext(t)
	if err := bin.CheckFree(ctx, bin.TypeVoucher, "CODE-1"); err != nil {
		t.Fatalf("free name: %v", err)
	}
	code := "CODE-1"
	if err := bin.Move(ctx, bin.Resource{Type: bin.TypeVoucher, ID: "v_1", Name: code, Reserved: &code}); err != nil {
		t.Fatalf("move: %v", err)
	}
	if e, ok := apperr.As(bin.CheckFree(ctx, bin.TypeVoucher, "CODE-1")); !ok || e.Code != 409 {
		t.Fatalf("binned name: %v", e)
	}
	if err := bin.CheckFree(ctx, bin.TypeCampaign, "CODE-1"); err != nil {
		t.Fatalf("another type's name: %v", err)
	}
	list, err := bin.ListEntries(ctx, &bin.ListInput{Filters: []bin.Filter{{Field: "resource_name", Op: "$ends_with", Values: []string{"-1"}}}})
	if err != nil || len(list.Data) != 1 || list.Data[0].ResourceID != "v_1" {
		t.Fatalf("list: %+v %v", list, err)
	}
	for _, f := range []bin.Filter{{Field: "kind", Op: "$is", Values: []string{"x"}}, {Field: "id", Op: "$gt", Values: []string{"x"}},
		{Field: "resource_type", Op: "$in", Values: []string{"dog"}}, {Field: "id", Op: "$is", Values: []string{"a", "b"}}} {
		if _, err := bin.ListEntries(ctx, &bin.ListInput{Filters: []bin.Filter{f}}); err == nil {
			t.Errorf("filter %+v accepted", f)
		}
	}
	if _, err := bin.Delete(ctx, list.Data[0].ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if err := bin.CheckFree(ctx, bin.TypeVoucher, "CODE-1"); err != nil {
		t.Fatalf("name after the delete: %v", err)
	}
}
