package publication

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/webhook"
)

// emitPublication: publication.succeeded (ordered per publication) and
// voucher.published for each voucher handed out (ordered per voucher).
// (The single-statement publication writes the same events in SQL:
// graph/webhook/snapshot.go.)
func emitPublication(ctx context.Context, pub *ent.Publication, cmp *ent.Campaign) error {
	events := []webhook.Event{{Name: webhook.EventPublicationSucceeded, ObjectType: "publication", ObjectID: pub.ID,
		Data: webhook.PublicationData(pub, cmp)}}
	for _, v := range pub.Edges.Vouchers {
		events = append(events, webhook.Event{Name: webhook.EventVoucherPublished, ObjectType: "voucher", ObjectID: v.ID,
			Data: webhook.VoucherPublishedData(v, pub, cmp)})
	}
	return webhook.EmitAll(ctx, events...)
}
