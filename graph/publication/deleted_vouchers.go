package publication

import (
	"encoding/json"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
)

// ShownVouchers is what a publication shows of its vouchers, in its order
// (voucher_ids): a live voucher as loaded with it (Edges.Vouchers), a
// deleted one as it was at its deletion (deleted_vouchers, written by
// graph/campaign's deleteVouchers), and one deleted before snapshots were
// kept as Unknown. The publication's vouchers edge must be loaded. A
// GraphQL publication's vouchers edge lists the live ones only.
func ShownVouchers(p *ent.Publication) []*ent.Voucher {
	if len(p.DeletedVouchers) == 0 && inOrder(p) {
		return p.Edges.Vouchers // every voucher lives (the common case)
	}
	live := make(map[string]*ent.Voucher, len(p.Edges.Vouchers))
	for _, v := range p.Edges.Vouchers {
		live[v.ID] = v
	}
	out := make([]*ent.Voucher, 0, len(p.VoucherIds))
	for _, id := range p.VoucherIds {
		if v, ok := live[id]; ok {
			out = append(out, v)
		} else if v := Deleted(p, id); v != nil {
			out = append(out, v)
		} else {
			out = append(out, Unknown(p, id))
		}
	}
	return out
}

// inOrder reports whether the publication's loaded vouchers are all of
// its vouchers, in its order.
func inOrder(p *ent.Publication) bool {
	if len(p.Edges.Vouchers) != len(p.VoucherIds) {
		return false
	}
	for i, v := range p.Edges.Vouchers {
		if v.ID != p.VoucherIds[i] {
			return false
		}
	}
	return true
}

// Deleted is the publication's voucher id as it was at its deletion, nil
// when the publication keeps no snapshot of it (the voucher lives, or was
// deleted before snapshots were kept) or the snapshot does not decode.
func Deleted(p *ent.Publication, id string) *ent.Voucher {
	snap, ok := p.DeletedVouchers[id]
	if !ok {
		return nil
	}
	v := new(ent.Voucher)
	if err := json.Unmarshal([]byte(snap), v); err != nil || v.ID != id {
		return nil
	}
	return v
}

// Unknown stands for a voucher of the publication deleted before
// publications kept their deleted vouchers: only its id is left, so it is
// also shown as its code; its campaign's name is unknown, shown as ""
// (the reference requires a string) without a campaign_id; created no
// later than the publication, held by its customer, published once,
// inactive; its type unknown, shown as DISCOUNT_VOUCHER without a
// discount.
func Unknown(p *ent.Publication, id string) *ent.Voucher {
	v := &ent.Voucher{ID: id, Code: id, CreatedAt: p.CreatedAt, Type: jsonfield.VoucherTypeDiscount,
		HolderID: &p.CustomerID, PublishCount: 1}
	v.Edges.Campaign = &ent.Campaign{}
	return v
}
