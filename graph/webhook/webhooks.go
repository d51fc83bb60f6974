package webhook

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/webhook"
	"github.com/promoengine/promoengine/ent/webhookdelivery"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Webhook configurations of a project, their events and delivery attempts
// (management API: /management/v1/projects/{projectId}/webhooks). Each use
// case runs in a context scoped to the project (ManageProject) and, for
// writes, in a transaction.

// Event names promoengine sends (the real service's names).
const (
	EventPublicationSucceeded                = "publication.succeeded"
	EventVoucherPublished                    = "voucher.published"
	EventRedemptionSucceeded                 = "redemption.succeeded"
	EventRedemptionFailed                    = "redemption.failed"
	EventRedemptionRollbackSucceeded         = "redemption.rollback.succeeded"
	EventVoucherCreated                      = "voucher.created"
	EventVoucherUpdated                      = "voucher.updated"
	EventVoucherDeleted                      = "voucher.deleted"
	EventVoucherEnabled                      = "voucher.enabled"
	EventVoucherDisabled                     = "voucher.disabled"
	EventVoucherGiftBalanceAdded             = "voucher.gift.balance_added"
	EventVoucherLoyaltyCardPointsAdded       = "voucher.loyalty_card.points_added"
	EventCustomerCreated                     = "customer.created"
	EventCustomerDeleted                     = "customer.deleted"
	EventCampaignCreated                     = "campaign.created"
	EventCampaignUpdated                     = "campaign.updated"
	EventCampaignDeleted                     = "campaign.deleted"
	EventCampaignEnabled                     = "campaign.enabled"
	EventCampaignDisabled                    = "campaign.disabled"
	EventCampaignVouchersGenerationCompleted = "campaign.vouchers.generation.completed"
	EventCampaignVouchersGenerationFailed    = "campaign.vouchers.generation.failed"
)

// WebhookEventNames are the event names a webhook may subscribe to: the
// real service's list (management.json, ManagementProjectsWebhookBase),
// so configurations copied from it are accepted, including events
// promoengine does not send (yet; docs/webhooks.md lists those it sends).
var WebhookEventNames = []string{
	"business_validation_rule.assignment.created", "business_validation_rule.assignment.deleted",
	"business_validation_rule.created", "business_validation_rule.deleted", "business_validation_rule.updated",
	"campaign.created", "campaign.deleted", "campaign.disabled", "campaign.enabled",
	"campaign.earning_rule.assigned", "campaign.earning_rule.deleted", "campaign.earning_rule.disabled",
	"campaign.earning_rule.enabled", "campaign.earning_rule.updated",
	"campaign.loyalty_tier.created", "campaign.loyalty_tier.deleted", "campaign.loyalty_tier.updated",
	"campaign.promotion_stack.created", "campaign.promotion_stack.updated",
	"campaign.promotion_tier.created", "campaign.promotion_tier.deleted", "campaign.promotion_tier.disabled",
	"campaign.promotion_tier.enabled", "campaign.promotion_tier.updated",
	"campaign.referral_tier.created", "campaign.referral_tier.deleted", "campaign.referral_tier.updated",
	"campaign.reward.assignment.created", "campaign.reward.assignment.deleted", "campaign.reward.assignment.updated",
	"campaign.updated", "campaign.vouchers.added", "campaign.vouchers.generation.completed",
	"campaign.vouchers.generation.failed", "campaign.vouchers.generation.started",
	"customer.confirmed", "customer.created", "customer.deleted", "customer.rewarded", "customer.rewarded.loyalty_points",
	// A v1 card's tier change (graph/loyaltyv1/tier_webhooks.go).
	"customer.loyalty.tier.joined", "customer.loyalty.tier.left", "customer.loyalty.tier.upgraded", "customer.loyalty.tier.downgraded",
	"customer.loyalty.tier.prolonged", "customer.loyalty.tier.expiration.changed",
	"publication.succeeded",
	"order.created", "order.updated", "order.paid", "order.canceled", // graph/order
	"redemption.failed", "redemption.rollback.failed", "redemption.rollback.succeeded", "redemption.succeeded",
	"voucher.created", "voucher.deleted", "voucher.disabled", "voucher.enabled",
	"voucher.gift.balance_added", "voucher.gift.transaction.created",
	"voucher.loyalty_card.pending_points.activated", "voucher.loyalty_card.pending_points.added",
	"voucher.loyalty_card.pending_points.canceled", "voucher.loyalty_card.pending_points.updated",
	"voucher.loyalty_card.points_added", "voucher.loyalty_card.points_expired",
	"voucher.loyalty_card.transaction.created", "voucher.published", "voucher.updated",
}

// eventAliases are the misspellings of the real service's enum
// ("…_aded"), accepted and stored as the names its examples use.
var eventAliases = map[string]string{
	"campaign.vouchers.aded":                   "campaign.vouchers.added",
	"voucher.gift.balance_aded":                "voucher.gift.balance_added",
	"voucher.loyalty_card.pending_points.aded": "voucher.loyalty_card.pending_points.added",
	"voucher.loyalty_card.points_aded":         "voucher.loyalty_card.points_added",
}

// WebhookInput creates or replaces a webhook configuration: target_url and
// events are required (PUT replaces the events as the real service does);
// active defaults to true on create and stays as it is when absent on PUT.
type WebhookInput struct {
	TargetURL *string  `json:"target_url"`
	Events    []string `json:"events"`
	Active    *bool    `json:"active"`
}

// MaxWebhooksPerProject bounds a project's webhook configurations: every
// event is written once per subscribed webhook.
const MaxWebhooksPerProject = 50

// checkWebhookInput validates in and returns the normalised events.
func checkWebhookInput(ctx context.Context, in WebhookInput) ([]string, error) {
	if in.TargetURL == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'target_url'")
	}
	if in.Events == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'events'")
	}
	if err := CheckWebhookTarget(ctx, *in.TargetURL); err != nil {
		return nil, err
	}
	if len(in.Events) == 0 {
		return nil, apperr.InvalidPayload("Property .events must name at least one event")
	}
	events := make([]string, 0, len(in.Events))
	for _, name := range in.Events {
		if alias, ok := eventAliases[name]; ok {
			name = alias
		}
		if !slices.Contains(WebhookEventNames, name) {
			return nil, apperr.InvalidPayload("Property .events: unknown event %q", name)
		}
		if !slices.Contains(events, name) {
			events = append(events, name)
		}
	}
	return events, nil
}

// CreateWebhook adds a webhook configuration to the project in ctx.
func CreateWebhook(ctx context.Context, in WebhookInput) (*ent.Webhook, error) {
	events, err := checkWebhookInput(ctx, in)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	n, err := c.Webhook.Query().Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting webhooks: %w", err)
	}
	if n >= MaxWebhooksPerProject {
		return nil, apperr.New(http.StatusBadRequest, "too_many_webhooks", "Too many webhooks",
			fmt.Sprintf("A project may have at most %d webhooks", MaxWebhooksPerProject))
	}
	active := true
	if in.Active != nil {
		active = *in.Active
	}
	store.ForgetWebhooks(ctx)
	h, err := c.Webhook.Create().SetTargetURL(strings.TrimSpace(*in.TargetURL)).SetEvents(events).SetActive(active).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating webhook: %w", err)
	}
	return h, nil
}

// List lists the project's webhook configurations, oldest first.
func List(ctx context.Context) ([]*ent.Webhook, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	hs, err := c.Webhook.Query().Order(ent.Asc(webhook.FieldCreatedAt), ent.Asc(webhook.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing webhooks: %w", err)
	}
	return hs, nil
}

// ByID reads one webhook configuration (404 when the project has none by that id).
func ByID(ctx context.Context, id string) (*ent.Webhook, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	h, err := c.Webhook.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("webhook", id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading webhook: %w", err)
	}
	return h, nil
}

// UpdateWebhook replaces a webhook's target_url and events (and active
// when given). Events already written keep their payload and go to the
// new target_url.
func UpdateWebhook(ctx context.Context, id string, in WebhookInput) (*ent.Webhook, error) {
	h, err := ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	events, err := checkWebhookInput(ctx, in)
	if err != nil {
		return nil, err
	}
	store.ForgetWebhooks(ctx)
	upd := h.Update().SetTargetURL(strings.TrimSpace(*in.TargetURL)).SetEvents(events)
	if in.Active != nil {
		upd.SetActive(*in.Active)
	}
	if h, err = upd.Save(ctx); err != nil {
		return nil, fmt.Errorf("updating webhook: %w", err)
	}
	return h, nil
}

// DeleteWebhook deletes a webhook configuration with its undelivered and
// delivered events and their delivery attempts.
func DeleteWebhook(ctx context.Context, id string) error {
	h, err := ByID(ctx, id)
	if err != nil {
		return err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	if _, err := c.WebhookDelivery.Delete().Where(webhookdelivery.WebhookID(h.ID)).Exec(ctx); err != nil {
		return fmt.Errorf("deleting webhook deliveries: %w", err)
	}
	if _, err := c.WebhookEvent.Delete().Where(webhookevent.WebhookID(h.ID)).Exec(ctx); err != nil {
		return fmt.Errorf("deleting webhook events: %w", err)
	}
	store.ForgetWebhooks(ctx)
	if err := c.Webhook.DeleteOne(h).Exec(ctx); err != nil {
		return fmt.Errorf("deleting webhook: %w", err)
	}
	return nil
}
