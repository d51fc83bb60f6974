package webhook

import (
	"context"
	"testing"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/internal/graphtest"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// One transaction reads its project's webhooks once however many events
// it writes, and a webhook it creates gets the events written after.
func TestOneTransactionLooksUpWebhooksOnceAndSeesItsOwnChanges(t *testing.T) {
	_, ctx := graphtest.ProjectContext(t)
	target := "http://127.0.0.1:9/hook"
	var hook *ent.Webhook
	err := store.InTx(ctx, func(ctx context.Context) error {
		loads := 0
		load := func() ([]*ent.Webhook, error) { loads++; return nil, nil }
		for range 3 {
			if _, err := store.ActiveWebhooks(ctx, "proj_a", load); err != nil {
				return err
			}
		}
		if _, err := store.ActiveWebhooks(ctx, "proj_b", load); err != nil {
			return err
		}
		if loads != 2 {
			t.Errorf("%d look-ups for two projects in one transaction, want 2", loads)
		}
		store.ForgetWebhooks(ctx)

		data := map[string]any{"n": 1}
		if err := Emit(ctx, EventCustomerCreated, "customer", "cust_before", data); err != nil {
			return err
		}
		var err error
		if hook, err = CreateWebhook(ctx, WebhookInput{TargetURL: &target, Events: []string{EventCustomerCreated}}); err != nil {
			return err
		}
		return Emit(ctx, EventCustomerCreated, "customer", "cust_after", data)
	})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := store.Client(ctx)
	evs, err := c.WebhookEvent.Query().Where(webhookevent.WebhookID(hook.ID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].ObjectID != "cust_after" {
		t.Fatalf("events of the webhook created in the transaction: %+v, want the one for cust_after", evs)
	}
}
