package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
)

// Webhook events written by SQL. The single-statement publication
// (publish_statement.go) writes its events in the statement itself, where
// the REST shapes cannot be rendered; their data column holds instead
// {"$publication": {...}, "voucher_id": …}: the publication, customer,
// campaign and vouchers rows as the statement wrote them (row_to_json),
// and the voucher of a voucher.published event. Reading the event (delivery, the management
// API) renders that snapshot into the same data emitPublication writes, so
// receivers cannot tell which path published.

// WebhookEventPrefix is the id prefix of webhook events.
const WebhookEventPrefix = "whs_"

// SnapshotKey is the first key of a snapshot's data.
const SnapshotKey = "$publication"

// publicationSnapshot is the decoded snapshot.
type publicationSnapshot struct {
	Rows struct {
		Publication *ent.Publication `json:"publication"`
		Customer    *ent.Customer    `json:"customer"`
		Campaign    *ent.Campaign    `json:"campaign"`
		Vouchers    []*ent.Voucher   `json:"vouchers"`
	} `json:"$publication"`
	VoucherID *string `json:"voucher_id"`
}

// EventData is ev's data as receivers get it: as written, or, for
// an event written by SQL, its snapshot rendered in REST shapes.
func EventData(ctx context.Context, ev *ent.WebhookEvent) (string, error) {
	if !strings.HasPrefix(ev.Data, `{"`+SnapshotKey+`"`) {
		return ev.Data, nil
	}
	var snap publicationSnapshot
	if err := json.Unmarshal([]byte(ev.Data), &snap); err != nil {
		return "", fmt.Errorf("decoding webhook event %s: %w", ev.ID, err)
	}
	pub, cust, cmp, vouchers := snap.Rows.Publication, snap.Rows.Customer, snap.Rows.Campaign, snap.Rows.Vouchers
	if pub == nil {
		return "", fmt.Errorf("decoding webhook event %s: no publication in its snapshot", ev.ID)
	}
	for _, v := range vouchers {
		v.Edges.Campaign = cmp
	}
	pub.Edges.Customer, pub.Edges.Vouchers = cust, vouchers
	var data map[string]any
	switch ev.Type {
	case EventCustomerCreated:
		data = CustomerData(cust)
	case EventPublicationSucceeded:
		data = PublicationData(pub, cmp)
	case EventVoucherPublished:
		for _, v := range vouchers {
			if snap.VoucherID != nil && v.ID == *snap.VoucherID {
				data = VoucherPublishedData(v, pub, cmp)
			}
		}
	}
	if data == nil {
		return "", fmt.Errorf("decoding webhook event %s: its snapshot has no data for %s", ev.ID, ev.Type)
	}
	return renderWebhookData(ctx, data)
}

// withRenderedData replaces the snapshots among evs' data by their
// rendering (in memory), for the management API.
func withRenderedData(ctx context.Context, evs ...*ent.WebhookEvent) error {
	for _, ev := range evs {
		data, err := EventData(ctx, ev)
		if err != nil {
			return err
		}
		ev.Data = data
	}
	return nil
}

// CardSnapshot is the card as activities record it.
func CardSnapshot(c *ent.Card) map[string]any {
	return map[string]any{
		"id": c.ID, "code": c.Code, "program_id": c.ProgramID, "card_definition_id": c.CardDefinitionID,
		"member_id": c.MemberID, "balance": c.Balance,
		"created_at": c.CreatedAt.UTC().Format(time.RFC3339Nano), "object": "card",
	}
}

// PublicationData is the data of publication.succeeded.
func PublicationData(pub *ent.Publication, cmp *ent.Campaign) map[string]any {
	return map[string]any{"publication": pub, "customer": pub.Edges.Customer, "campaign": cmp}
}

// VoucherPublishedData is the data of voucher.published for v.
func VoucherPublishedData(v *ent.Voucher, pub *ent.Publication, cmp *ent.Campaign) map[string]any {
	return map[string]any{"voucher": v, "customer": pub.Edges.Customer, "campaign": cmp, "publication": pub}
}

// CustomerData is the data of customer events.
func CustomerData(cust *ent.Customer) map[string]any { return map[string]any{"customer": cust} }
