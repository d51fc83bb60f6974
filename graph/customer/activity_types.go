package customer

import (
	"slices"

	"github.com/promoengine/promoengine/graph/apperr"
)

// Activity types and categories (the type and category filters of
// GET /v1/customers/{customerId}/activity).
//
// The reference documents two categories without saying which types fall in
// which (docs/customers.md "Activity categories" records the choice): an
// ACTION is something the customer or the integration did through the API
// (created, published to, validated, redeemed, rolled back, a custom event,
// an order); an EFFECT is what the service's rules did in consequence
// (segment entered or left, referred, rewarded, points, tiers).

// Activity categories.
const (
	ActivityCategoryAction = "ACTION"
	ActivityCategoryEffect = "EFFECT"
)

// effectTypes are the types in the EFFECT category; every other type of
// activityTypes is an ACTION.
var effectTypes = []string{
	"customer.referred", "customer.segment.entered", "customer.segment.left", "customer.rewarded",
	"customer.rewarded.loyalty_points", "customer.voucher.gift.balance_added",
	"customer.voucher.loyalty_card.points_added", "customer.voucher.loyalty_card.points_transferred",
	"customer.voucher.loyalty_card.points_expired", "customer.voucher.loyalty_card.pending_points.added",
	"customer.voucher.loyalty_card.pending_points.activated", "customer.voucher.loyalty_card.pending_points.canceled",
	"customer.voucher.loyalty_card.pending_points.updated", "customer.voucher.loyalty_card.points_activated",
	"customer.loyalty.updated", "customer.loyalty.tier.upgraded",
	"customer.loyalty.tier.downgraded", "customer.loyalty.tier.prolonged", "customer.loyalty.tier.expiration.changed",
	"customer.loyalty.tier.joined", "customer.loyalty.tier.left",
}

// activityTypes are the event names the reference documents for the type
// filter (ParameterCustomerEvent); a type outside it is refused.
var activityTypes = append([]string{
	"customer.confirmed", "customer.created", "customer.updated", "customer.deleted", "customer.custom_event",
	"customer.sms.sent", "customer.sms.recovered", "customer.sms.failed", "customer.email.sent",
	"customer.email.recovered", "customer.email.failed", "customer.activecampaign.sent",
	"customer.activecampaign.recovered", "customer.activecampaign.failed", "customer.braze.sent",
	"customer.braze.recovered", "customer.braze.failed", "customer.mailchimp.sent", "customer.mailchimp.recovered",
	"customer.mailchimp.failed", "customer.intercom.sent", "customer.intercom.recovered", "customer.intercom.failed",
	"customer.shopify.sent", "customer.shopify.recovered", "customer.shopify.failed", "customer.klaviyo.sent",
	"customer.klaviyo.recovered", "customer.klaviyo.failed", "customer.batch.sent", "customer.batch.recovered",
	"customer.batch.failed", "customer.voucher.deleted", "customer.publication.succeeded",
	"customer.publication.failed", "customer.validation.succeeded", "customer.validation.failed",
	"customer.redemption.failed", "customer.redemption.succeeded", "customer.redemption.rollback.failed",
	"customer.redemption.rollback.succeeded", "customer.order.canceled", "customer.order.created",
	"customer.order.fulfilled", "customer.order.paid", "customer.order.processing", "customer.order.updated",
	"customer.reward_redemptions.created", "customer.reward_redemptions.pending",
	"customer.reward_redemptions.completed", "customer.reward_redemptions.rolledback",
	consentGiven, consentRevoked, // the legacy consents calls (consent_grants.go); not in the documents
}, effectTypes...)

// activityCategory is the category of an activity type.
func activityCategory(typ string) string {
	if slices.Contains(effectTypes, typ) {
		return ActivityCategoryEffect
	}
	return ActivityCategoryAction
}

// typeFilter turns the type and category filters into the set of types
// kept (nil: every type); an unknown type or category is refused.
func typeFilter(typ, category *string) (map[string]bool, error) {
	if typ == nil && category == nil {
		return nil, nil
	}
	if typ != nil && !slices.Contains(activityTypes, *typ) {
		return nil, apperr.InvalidQueryParams("Query parameter type %q is not a customer event type", *typ)
	}
	if category != nil && *category != ActivityCategoryAction && *category != ActivityCategoryEffect {
		return nil, apperr.InvalidQueryParams("Query parameter category must be ACTION or EFFECT, got %q", *category)
	}
	kept := map[string]bool{}
	for _, t := range activityTypes {
		if (typ == nil || t == *typ) && (category == nil || activityCategory(t) == *category) {
			kept[t] = true
		}
	}
	return kept, nil
}

// wants reports whether the filter keeps activities of type t.
func (f activityFilter) wants(t string) bool { return f.types == nil || f.types[t] }

// wantsAny reports whether the filter keeps any of types.
func (f activityFilter) wantsAny(types []string) bool {
	return slices.ContainsFunc(types, f.wants)
}

// wantsAll reports whether the filter keeps every one of types.
func (f activityFilter) wantsAll(types []string) bool {
	for _, t := range types {
		if !f.wants(t) {
			return false
		}
	}
	return true
}
