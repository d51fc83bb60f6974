package publication

import (
	"strings"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/publication"
)

// TestPublishStatementLeavesDeletedVouchersAlone: the publication's hot
// path returns every publication column but deleted_vouchers (a new
// publication has none), so its statement is what it was before
// publications kept their deleted vouchers.
func TestPublishStatementLeavesDeletedVouchersAlone(t *testing.T) {
	for n := 1; n <= MaxPublishCount; n++ {
		for _, summary := range []bool{false, true} {
			if q := PublishStatement(n, summary); strings.Contains(q, publication.FieldDeletedVouchers) {
				t.Fatalf("PublishStatement(%d, %v) reads %s:\n%s", n, summary, publication.FieldDeletedVouchers, q)
			}
		}
	}
	if len(publishedColumns) != len(publication.Columns)-1 {
		t.Errorf("publishedColumns = %v", publishedColumns)
	}
}

// TestShownVouchers: live vouchers as loaded, deleted ones from their
// snapshot, unknown ones as stand-ins, in the publication's order.
func TestShownVouchers(t *testing.T) {
	live := &ent.Voucher{ID: "v_2", Code: "LIVE"}
	p := &ent.Publication{VoucherIds: []string{"v_1", "v_2", "v_3"}, CustomerID: "cust_1",
		DeletedVouchers: map[string]string{"v_1": `{"id":"v_1","code":"GONE","edges":{"campaign":{"name":"C"}}}`, "v_bad": "{"}}
	p.Edges.Vouchers = []*ent.Voucher{live}
	got := ShownVouchers(p)
	if len(got) != 3 || got[0].Code != "GONE" || got[0].Edges.Campaign.Name != "C" || got[1] != live ||
		got[2].Code != "v_3" || got[2].Edges.Campaign == nil || *got[2].HolderID != "cust_1" {
		t.Fatalf("ShownVouchers = %+v", got)
	}
	p.DeletedVouchers, p.VoucherIds = nil, []string{"v_2"}
	if got := ShownVouchers(p); len(got) != 1 || got[0] != live {
		t.Errorf("every voucher live: %+v", got)
	}
}
