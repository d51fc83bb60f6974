package access

import (
	"context"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// The webhook part of the management graph (/management/graphql); each
// field scopes itself to the project it names (inManagedProject).

// WebhookEventList is a page of a webhook's events and how many match.
type WebhookEventList struct {
	Total int                 `json:"total"`
	Data  []*ent.WebhookEvent `json:"data"`
}

// WebhookDeliveryList is a page of delivery attempts and how many match.
type WebhookDeliveryList struct {
	Total int                    `json:"total"`
	Data  []*ent.WebhookDelivery `json:"data"`
}

func ManagementWebhooks(ctx context.Context, projectID string) ([]*ent.Webhook, error) {
	return inManagedProject(ctx, projectID, webhook.List)
}

func CreateManagementWebhook(ctx context.Context, projectID string, in webhook.WebhookInput) (*ent.Webhook, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.Webhook, error) { return webhook.CreateWebhook(ctx, in) })
}

func UpdateManagementWebhook(ctx context.Context, projectID, id string, in webhook.WebhookInput) (*ent.Webhook, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.Webhook, error) { return webhook.UpdateWebhook(ctx, id, in) })
}

func DeleteManagementWebhook(ctx context.Context, projectID, id string) (string, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (string, error) { return id, webhook.DeleteWebhook(ctx, id) })
}

func ManagementWebhookEvents(ctx context.Context, projectID, webhookID string, state *string, limit, page *int) (*WebhookEventList, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*WebhookEventList, error) {
		data, total, err := webhook.Events(ctx, webhookID, webhook.WebhookEventListInput{State: state, Limit: limit, Page: page})
		return &WebhookEventList{Total: total, Data: data}, err
	})
}

func ManagementWebhookDeliveries(ctx context.Context, projectID, webhookID string, eventID *string, limit, page *int) (*WebhookDeliveryList, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*WebhookDeliveryList, error) {
		data, total, err := webhook.Deliveries(ctx, webhookID, eventID, limit, page)
		return &WebhookDeliveryList{Total: total, Data: data}, err
	})
}

func RedeliverManagementWebhookEvent(ctx context.Context, projectID, webhookID, eventID string) (*ent.WebhookEvent, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.WebhookEvent, error) {
		return webhook.RedeliverWebhookEvent(ctx, webhookID, eventID)
	})
}

func ManagementWebhook(ctx context.Context, projectID, id string) (*ent.Webhook, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.Webhook, error) { return webhook.ByID(ctx, id) })
}

func ManagementWebhookEvent(ctx context.Context, projectID, webhookID, eventID string) (*ent.WebhookEvent, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*ent.WebhookEvent, error) {
		return webhook.EventByID(ctx, webhookID, eventID)
	})
}

func RegenerateManagementWebhookToken(ctx context.Context, projectID string) (*ent.Project, error) {
	if err := requireManagement(ctx); err != nil {
		return nil, err
	}
	var p *ent.Project
	err := store.WithinTx(ctx, func(ctx context.Context) error {
		var err error
		p, err = RegenerateWebhookToken(ctx, projectID)
		return err
	})
	return p, err
}
