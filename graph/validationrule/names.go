package validationrule

import (
	"sort"
	"strings"
)

// kind is what a rule name evaluates; each kind has its operators, its
// failure key and its evaluation (eval.go, items.go, counts.go).
type kind int

const (
	kindUnknown kind = iota
	kindAmount
	kindInitialAmount
	kindTotalAmount
	kindItemsCount
	kindItemsQuantity
	kindProduct // order.items.any without nested rules' older form, product.id
	kindSegment
	kindCustomerID
	kindPerCustomer
	kindOrderMeta
	kindRedemptionMeta
	kindCustomerMeta
	kindPriceAny  // order.items.price_any, product.price: some line's unit price
	kindPriceEach // order.items.price_each: every line's unit price
	kindItemsMetaAny
	kindItemsMetaEach
	kindProductMeta // product.metadata (+property): some line's product metadata
	kindLineQuantity
	kindSKUID
	kindSKUPrice
	kindSKUQuantity
	kindItemsAny // order.items.any/every/none/cheapest/most_expensive with targets and nested rules
	kindItemsEvery
	kindItemsNone
	kindItemsCheapest
	kindItemsMostExpensive
	kindCount           // a budget or redemption count read through Context.Count
	kindString          // redemption.api_key
	kindGiftAmount      // redemption.gift.amount (redemption_names.go)
	kindPointsUsed      // redemption.reward.pay_with_points.points_used
	kindLinkedCustomer  // publication.redeemable_by_linked_customer
	kindCustomEventMeta // custom_event.metadata (+property)
	kindRefused         // names of the reference this service refuses (refusedNames)
	// nested rules of the order.items.* rules
	kindNestedQuantity
	kindNestedAggregatedQuantity
	kindNestedPrice
	kindNestedAggregatedAmount
	kindNestedMeta
)

// fixedNames maps every rule name without a property to its kind.
var fixedNames = map[string]kind{
	NameOrderAmount: kindAmount, "order.initial_amount": kindInitialAmount, "order.total_amount": kindTotalAmount,
	NameOrderItemsCount: kindItemsCount, NameOrderItemsQuantity: kindItemsQuantity,
	"order.items.price_any": kindPriceAny, "order.items.price_each": kindPriceEach,
	NameOrderItemsAny: kindItemsAny, "order.items.every": kindItemsEvery, "order.items.none": kindItemsNone,
	"order.items.cheapest": kindItemsCheapest, "order.items.most_expensive": kindItemsMostExpensive,
	NameProductID: kindProduct, "product.price": kindPriceAny, "product.quantity": kindLineQuantity,
	"sku.id": kindSKUID, "sku.price": kindSKUPrice, "sku.quantity": kindSKUQuantity,
	NameCustomerSegment: kindSegment, NameCustomerID: kindCustomerID,
	NameRedemptionCountPerCustomer: kindPerCustomer,
	"redemption.api_key":           kindString,
	"redemption.gift.amount":       kindGiftAmount, "redemption.reward.pay_with_points.points_used": kindPointsUsed,
	"publication.redeemable_by_linked_customer": kindLinkedCustomer,
}

// CountNames are the budget and redemption-count rule names; Context.Count
// supplies their values (a name it does not know is not enforced).
var CountNames = []string{
	"campaign.orders.amount", "campaign.orders.amount_discounted",
	"campaign.redemptions.count", "campaign.redemptions.count.daily", "campaign.redemptions.count.weekly",
	"campaign.redemptions.count.monthly", "campaign.redemptions.customers_count",
	"campaign.redemptions.customers_count.daily", "campaign.redemptions.customers_count.weekly",
	"campaign.redemptions.customers_count.monthly",
	"redemption.count", "redemption.count.daily", "redemption.count.weekly", "redemption.count.monthly",
	"redemption.count.per_customer.daily", "redemption.count.per_customer.weekly",
	"redemption.count.per_customer.monthly", "redemption.count.per_api_key", "redemption.count.per_user",
}

func init() {
	for _, n := range CountNames {
		fixedNames[n] = kindCount
	}
	for n := range refusedNames {
		fixedNames[n] = kindRefused
	}
}

// propertyNames are the rule names that need a `property` (a metadata
// key), with their underscore spellings; each reads as its prefix plus the
// key ({"name": "order.metadata", "property": "tier"} is "order.metadata.tier").
var propertyNames = map[string]string{
	"order.metadata": PrefixOrderMetadata, "order_metadata": PrefixOrderMetadata,
	"redemption.metadata": PrefixRedemptionMetadata, "redemption_metadata": PrefixRedemptionMetadata,
	"customer.metadata": PrefixCustomerMetadata, "customer_metadata": PrefixCustomerMetadata,
	"order.items.metadata_any": prefixItemsMetaAny, "order.items.metadata_each": prefixItemsMetaEach,
	"order_items_metadata": prefixItemsMetaAny,
	"product.metadata":     prefixProductMeta, "product_metadata": prefixProductMeta,
	"custom_event.metadata": prefixCustomEventMeta, "custom_event_metadata": prefixCustomEventMeta,
}

// nestedPropertyNames are the property names allowed inside an
// order.items.* rule's nested rules.
var nestedPropertyNames = map[string]string{"order.items.metadata": prefixNestedMeta, "order_items_metadata": prefixNestedMeta}

// nestedNames are the rule names allowed inside an order.items.* rule.
var nestedNames = map[string]kind{
	"order.items.quantity": kindNestedQuantity, "order.items.aggregated_quantity": kindNestedAggregatedQuantity,
	"order.items.price": kindNestedPrice, "order.items.aggregated_amount": kindNestedAggregatedAmount,
}

const (
	prefixItemsMetaAny    = "order.items.metadata_any."
	prefixItemsMetaEach   = "order.items.metadata_each."
	prefixProductMeta     = "product.metadata."
	prefixCustomEventMeta = "custom_event.metadata."
	prefixNestedMeta      = "order.items.metadata."
)

var prefixKinds = []struct {
	prefix string
	k      kind
}{
	{PrefixOrderMetadata, kindOrderMeta}, {PrefixRedemptionMetadata, kindRedemptionMeta},
	{PrefixCustomerMetadata, kindCustomerMeta}, {prefixItemsMetaAny, kindItemsMetaAny},
	{prefixItemsMetaEach, kindItemsMetaEach}, {prefixProductMeta, kindProductMeta},
	{prefixCustomEventMeta, kindCustomEventMeta},
}

// kindOf classifies a top-level rule name; for metadata rules it also
// returns the key.
func kindOf(name string) (kind, string) {
	if k, ok := fixedNames[name]; ok {
		return k, ""
	}
	for _, p := range prefixKinds {
		if key, ok := strings.CutPrefix(name, p.prefix); ok && key != "" {
			return p.k, key
		}
	}
	return kindUnknown, ""
}

// nestedKindOf classifies a rule name inside an order.items.* rule.
func nestedKindOf(name string) (kind, string) {
	if k, ok := nestedNames[name]; ok {
		return k, ""
	}
	if key, ok := strings.CutPrefix(name, prefixNestedMeta); ok && key != "" {
		return kindNestedMeta, key
	}
	return kindUnknown, ""
}

// takesNested reports whether rules of kind k may hold nested rules.
func (k kind) takesNested() bool {
	return k >= kindItemsAny && k <= kindItemsMostExpensive || k == kindProduct
}

// failureKey is the key reported when a condition of this kind is false
// for a reason other than missing data.
func (k kind) failureKey() string {
	switch k {
	case kindSegment, kindCustomerID, kindCustomerMeta:
		return KeyCustomerRules
	case kindPerCustomer, kindRedemptionMeta, kindCount, kindString, kindGiftAmount, kindPointsUsed, kindLinkedCustomer,
		kindCustomEventMeta, kindRefused, kindUnknown:
		return KeyRedemptionRules
	}
	return KeyOrderRules
}

// ops are the operators a kind accepts.
func (k kind) ops() map[string]arity {
	switch k {
	case kindAmount, kindInitialAmount, kindTotalAmount, kindItemsCount, kindItemsQuantity, kindPerCustomer,
		kindPriceAny, kindPriceEach, kindLineQuantity, kindSKUPrice, kindSKUQuantity, kindCount,
		kindNestedQuantity, kindNestedAggregatedQuantity, kindNestedPrice, kindNestedAggregatedAmount,
		kindGiftAmount, kindPointsUsed:
		return numericOps
	case kindProduct, kindSKUID, kindItemsAny, kindItemsEvery, kindItemsNone, kindItemsCheapest, kindItemsMostExpensive:
		return productOps
	case kindSegment, kindCustomerID, kindString:
		return idOps
	case kindOrderMeta, kindRedemptionMeta, kindCustomerMeta, kindItemsMetaAny, kindItemsMetaEach, kindProductMeta,
		kindNestedMeta, kindCustomEventMeta:
		return metaOps
	case kindLinkedCustomer:
		return boolOps
	}
	return nil
}

// supportedNames lists the accepted names for the error of an unknown one.
func supportedNames() string {
	names := make([]string, 0, len(fixedNames)+len(propertyNames))
	for n := range fixedNames {
		names = append(names, n)
	}
	for n := range propertyNames {
		names = append(names, n+" (with property)")
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
