package graph

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/project"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/webhook"
	"github.com/promoengine/promoengine/ent/webhookdelivery"
	"github.com/promoengine/promoengine/ent/webhookevent"
	"github.com/promoengine/promoengine/graph/apperr"
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
	"publication.succeeded",
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
	c, err := client(ctx)
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
	h, err := c.Webhook.Create().SetTargetURL(strings.TrimSpace(*in.TargetURL)).SetEvents(events).SetActive(active).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating webhook: %w", err)
	}
	return h, nil
}

// Webhooks lists the project's webhook configurations, oldest first.
func Webhooks(ctx context.Context) ([]*ent.Webhook, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	hs, err := c.Webhook.Query().Order(ent.Asc(webhook.FieldCreatedAt), ent.Asc(webhook.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing webhooks: %w", err)
	}
	return hs, nil
}

// WebhookByID reads one webhook configuration (404 when the project has none by that id).
func WebhookByID(ctx context.Context, id string) (*ent.Webhook, error) {
	c, err := client(ctx)
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
	h, err := WebhookByID(ctx, id)
	if err != nil {
		return nil, err
	}
	events, err := checkWebhookInput(ctx, in)
	if err != nil {
		return nil, err
	}
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
	h, err := WebhookByID(ctx, id)
	if err != nil {
		return err
	}
	c, err := client(ctx)
	if err != nil {
		return err
	}
	if _, err := c.WebhookDelivery.Delete().Where(webhookdelivery.WebhookID(h.ID)).Exec(ctx); err != nil {
		return fmt.Errorf("deleting webhook deliveries: %w", err)
	}
	if _, err := c.WebhookEvent.Delete().Where(webhookevent.WebhookID(h.ID)).Exec(ctx); err != nil {
		return fmt.Errorf("deleting webhook events: %w", err)
	}
	if err := c.Webhook.DeleteOne(h).Exec(ctx); err != nil {
		return fmt.Errorf("deleting webhook: %w", err)
	}
	return nil
}

// WebhookEventListInput filters a webhook's events: State (PENDING,
// DELIVERED, FAILED; empty for all), v1 limit and page. Newest first.
type WebhookEventListInput struct {
	State *string
	Limit *int
	Page  *int
}

// WebhookEvents lists a webhook's events (the outbox rows written for it)
// and how many match.
func WebhookEvents(ctx context.Context, webhookID string, in WebhookEventListInput) ([]*ent.WebhookEvent, int, error) {
	if _, err := WebhookByID(ctx, webhookID); err != nil {
		return nil, 0, err
	}
	c, err := client(ctx)
	if err != nil {
		return nil, 0, err
	}
	n, offset, err := offsetPage(in.Limit, in.Page)
	if err != nil {
		return nil, 0, err
	}
	q := c.WebhookEvent.Query().Where(webhookevent.WebhookID(webhookID))
	if in.State != nil && *in.State != "" {
		state := webhookevent.State(strings.ToUpper(*in.State))
		if webhookevent.StateValidator(state) != nil {
			return nil, 0, apperr.InvalidQueryParams("Query parameter status must be PENDING, DELIVERED or FAILED")
		}
		q.Where(webhookevent.StateEQ(state))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("counting webhook events: %w", err)
	}
	evs, err := q.Order(ent.Desc(webhookevent.FieldID)).Offset(offset).Limit(n).All(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("listing webhook events: %w", err)
	}
	return evs, total, nil
}

// WebhookEventByID reads one event of a webhook (404 otherwise).
func WebhookEventByID(ctx context.Context, webhookID, eventID string) (*ent.WebhookEvent, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	ev, err := c.WebhookEvent.Query().Where(webhookevent.ID(eventID), webhookevent.WebhookID(webhookID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("webhook_event", eventID)
	}
	if err != nil {
		return nil, fmt.Errorf("reading webhook event: %w", err)
	}
	return ev, nil
}

// WebhookDeliveries lists the delivery attempts of a webhook, newest
// first, optionally of one of its events, and how many match.
func WebhookDeliveries(ctx context.Context, webhookID string, eventID *string, limit, page *int) ([]*ent.WebhookDelivery, int, error) {
	if _, err := WebhookByID(ctx, webhookID); err != nil {
		return nil, 0, err
	}
	c, err := client(ctx)
	if err != nil {
		return nil, 0, err
	}
	n, offset, err := offsetPage(limit, page)
	if err != nil {
		return nil, 0, err
	}
	q := c.WebhookDelivery.Query().Where(webhookdelivery.WebhookID(webhookID))
	if eventID != nil && *eventID != "" {
		q.Where(webhookdelivery.EventID(*eventID))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("counting webhook deliveries: %w", err)
	}
	ds, err := q.Order(ent.Desc(webhookdelivery.FieldID)).Offset(offset).Limit(n).All(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("listing webhook deliveries: %w", err)
	}
	return ds, total, nil
}

// RedeliverWebhookEvent sends an event of the webhook again: it becomes
// PENDING, due now, with a fresh retry window. Any state may be sent
// again (a DELIVERED one too, for a receiver that lost it); the payload
// is the one written with the event. Receivers deduplicate on the id.
func RedeliverWebhookEvent(ctx context.Context, webhookID, eventID string) (*ent.WebhookEvent, error) {
	if _, err := WebhookByID(ctx, webhookID); err != nil {
		return nil, err
	}
	ev, err := WebhookEventByID(ctx, webhookID, eventID)
	if err != nil {
		return nil, err
	}
	now := nowUTC()
	ev, err = ev.Update().SetState(webhookevent.StatePENDING).SetNextAttemptAt(now).SetRetrySince(now).
		ClearDeliveredAt().Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("scheduling redelivery: %w", err)
	}
	return ev, nil
}

// RegenerateWebhookToken gives a project a new webhook signing secret;
// events not yet delivered are signed with it.
func RegenerateWebhookToken(ctx context.Context, projectID string) (*ent.Project, error) {
	p, err := ManagedProject(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if p, err = p.Update().SetWebhookToken(newWebhookToken()).Save(ctx); err != nil {
		return nil, fmt.Errorf("regenerating webhook token: %w", err)
	}
	return p, nil
}

func newWebhookToken() string { return pulid.Hex(32) }

// EnsureWebhookToken gives p a webhook token if it has none (projects made
// before webhooks existed) and returns it. Two callers racing agree on one
// token: only a row still without one is updated, then it is read back.
func EnsureWebhookToken(ctx context.Context, c *ent.Client, p *ent.Project) (string, error) {
	if p.WebhookToken != "" {
		return p.WebhookToken, nil
	}
	token := newWebhookToken()
	err := c.Project.Update().Where(project.ID(p.ID), project.Or(project.WebhookTokenIsNil(), project.WebhookTokenEQ(""))).
		SetWebhookToken(token).Exec(ctx)
	if err != nil {
		return "", fmt.Errorf("making webhook token: %w", err)
	}
	stored, err := c.Project.Query().Where(project.ID(p.ID)).Select(project.FieldWebhookToken).String(ctx)
	if err != nil {
		return "", fmt.Errorf("reading webhook token: %w", err)
	}
	p.WebhookToken = stored
	return stored, nil
}

// Target URLs. http and https only, with a host; credentials in the URL
// are refused (they would be logged with the URL). When the installation
// forbids private targets (PROMO_WEBHOOK_ALLOW_PRIVATE=false, for
// multi-tenant installations), loopback, private, link-local and other
// non-public addresses are refused when set and again when each delivery
// connects (the name may resolve differently later).

type webhookPolicyKey struct{}

// WithWebhookTargetsDenyPrivate returns ctx in which webhook target URLs
// must not point at private or loopback addresses (the REST layer sets it
// on every request when configured).
func WithWebhookTargetsDenyPrivate(ctx context.Context) context.Context {
	return context.WithValue(ctx, webhookPolicyKey{}, true)
}

func denyPrivateTargets(ctx context.Context) bool {
	deny, _ := ctx.Value(webhookPolicyKey{}).(bool)
	return deny
}

// CheckWebhookTarget validates a webhook target URL under ctx's policy.
func CheckWebhookTarget(ctx context.Context, raw string) error {
	raw = strings.TrimSpace(raw)
	bad := func(why string) error {
		return apperr.InvalidPayload("Property .target_url %s", why)
	}
	if raw == "" || len(raw) > 2048 {
		return bad("must be an http or https URL of at most 2048 characters")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.Opaque != "" {
		return bad("must be an http or https URL with a host")
	}
	if u.User != nil {
		return bad("must not contain credentials")
	}
	if u.Fragment != "" {
		return bad("must not contain a fragment")
	}
	if !denyPrivateTargets(ctx) {
		return nil
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".internal") || strings.HasSuffix(host, ".local") {
		return bad("must not point at a private or loopback address")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !PublicAddr(ip) {
			return bad("must not point at a private or loopback address")
		}
		return nil
	}
	// A name: refuse it when it resolves to a private address now. A name
	// that does not resolve yet is accepted; every delivery checks the
	// address it connects to.
	lctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(lctx, "ip", host)
	if err == nil {
		for _, a := range addrs {
			if !PublicAddr(a) {
				return bad("must not point at a private or loopback address")
			}
		}
	}
	return nil
}

// nonPublic are ranges PublicAddr refuses beyond the standard library's
// predicates: carrier-grade NAT, benchmarking, documentation, 6to4 relay,
// reserved, NAT64 and discard prefixes.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2001:db8::/32"),
}

// PublicAddr reports whether ip is a public unicast address (not loopback,
// private, link-local, multicast, unspecified or otherwise reserved).
func PublicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}
