package store

import (
	"context"
	"sync"

	"github.com/promoengine/promoengine/ent"
)

// webhookMemo remembers, for one transaction, the active webhooks of a
// project that emitEvents read, so the further events of the transaction
// (a publication's customer.created and voucher.published, a redemption's
// events) do not look them up again. InTx puts one in its context; the
// webhook use cases forget it when they change a webhook.
type webhookMemo struct {
	mu      sync.Mutex
	project string
	hooks   []*ent.Webhook
	known   bool
}

type webhookMemoKey struct{}

// WithWebhookMemo gives ctx (a new transaction's) an empty memo.
func withWebhookMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, webhookMemoKey{}, &webhookMemo{})
}

// ActiveWebhooks returns the project's active webhooks, read by load once
// per transaction when ctx has a memo.
func ActiveWebhooks(ctx context.Context, project string, load func() ([]*ent.Webhook, error)) ([]*ent.Webhook, error) {
	m, _ := ctx.Value(webhookMemoKey{}).(*webhookMemo)
	if m == nil {
		return load()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.known && m.project == project {
		return m.hooks, nil
	}
	hooks, err := load()
	if err != nil {
		return nil, err
	}
	m.project, m.hooks, m.known = project, hooks, true
	return hooks, nil
}

// WithNoActiveWebhooks records in ctx's memo (a new one if ctx has none)
// that the project has no active webhook: a statement of the transaction
// found none (lookupVouchers reads it with the vouchers), so emitEvents
// need not look again. As with the look-up it saves, a webhook committed
// after that statement misses the change.
func WithNoActiveWebhooks(ctx context.Context, project string) context.Context {
	m, _ := ctx.Value(webhookMemoKey{}).(*webhookMemo)
	if m == nil {
		ctx = withWebhookMemo(ctx)
		m = ctx.Value(webhookMemoKey{}).(*webhookMemo)
	}
	m.mu.Lock()
	m.project, m.hooks, m.known = project, nil, true
	m.mu.Unlock()
	return ctx
}

// ForgetWebhooks drops what the transaction in ctx remembers: a webhook
// changed in it.
func ForgetWebhooks(ctx context.Context) {
	if m, _ := ctx.Value(webhookMemoKey{}).(*webhookMemo); m != nil {
		m.mu.Lock()
		m.known, m.hooks = false, nil
		m.mu.Unlock()
	}
}
