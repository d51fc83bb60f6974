package examine

import (
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/loyalty"
)

// ExamineTrigger selects ALL trigger events or a SPECIFIC one.
type ExamineTrigger struct {
	Type     *string          `json:"type"`
	Specific *ExamineSpecific `json:"specific"`
}

// ExamineSpecific names the one event examined.
type ExamineSpecific struct {
	Event *string `json:"event"`
}

// ExamineMetadata is a metadata object of an examination's context.
type ExamineMetadata struct {
	Metadata map[string]any `json:"metadata"`
}

// ExamineContext is the customer and member metadata assumed.
type ExamineContext struct {
	Customer *ExamineMetadata `json:"customer"`
	Member   *ExamineMetadata `json:"member"`
}

// ExamineOrderPaid is the context of customer.order.paid.
type ExamineOrderPaid struct {
	Customer *ExamineMetadata `json:"customer"`
	Member   *ExamineMetadata `json:"member"`
	Order    *ExamineOrder    `json:"order"`
}

// ExamineOrder is the order assumed paid; amounts in cents, given as
// numbers or numeric strings.
type ExamineOrder struct {
	Amount         any              `json:"amount"`
	InitialAmount  any              `json:"initial_amount"`
	DiscountAmount any              `json:"discount_amount"`
	Items          []map[string]any `json:"items"`
	Metadata       map[string]any   `json:"metadata"`
}

// ExamineCustomEvent is the context of customer.custom_event.
type ExamineCustomEvent struct {
	Type     *string                `json:"type"`
	All      *ExamineCustomEventCtx `json:"all"`
	Specific *ExamineCustomEventCtx `json:"specific"`
}

// ExamineCustomEventCtx is the custom event assumed (schema_id required for
// SPECIFIC).
type ExamineCustomEventCtx struct {
	Customer    *ExamineMetadata   `json:"customer"`
	Member      *ExamineMetadata   `json:"member"`
	CustomEvent *ExamineEventShape `json:"custom_event"`
}

// ExamineEventShape is the custom event's schema and metadata.
type ExamineEventShape struct {
	SchemaID *string        `json:"schema_id"`
	Metadata map[string]any `json:"metadata"`
}

// validateExamineEarning checks the examination's trigger and that exactly
// the context object of a SPECIFIC event is present (the document's
// allOf/if/then rules); it returns the examined event, nil for ALL.
func validateExamineEarning(in ExamineEarningInput) (*string, error) {
	t := in.Trigger
	if t == nil || t.Type == nil {
		return nil, apperr.InvalidPayload("Property .trigger.type is required")
	}
	if in.CustomerIdentification == nil {
		return nil, apperr.InvalidPayload("Property .customer_identification is required")
	}
	switch *t.Type {
	case "ALL":
		if t.Specific != nil {
			return nil, apperr.InvalidPayload("Property .trigger.specific must be null when .trigger.type is ALL")
		}
		return nil, validateCustomEventContext(in.CustomerCustomEvent)
	case "SPECIFIC":
	default:
		return nil, apperr.InvalidPayload("Property .trigger.type must be ALL or SPECIFIC, got %q", *t.Type)
	}
	if t.Specific == nil || t.Specific.Event == nil {
		return nil, apperr.InvalidPayload("Property .trigger.specific.event is required when .trigger.type is SPECIFIC")
	}
	event := *t.Specific.Event
	present := map[string]bool{
		loyalty.TriggerOrderPaid: in.CustomerOrderPaid != nil,
		triggerSegmentEntered:    in.CustomerSegmentEntered != nil,
		triggerCustomEvent:       in.CustomerCustomEvent != nil,
	}
	names := map[string]string{
		loyalty.TriggerOrderPaid: "customer_order_paid",
		triggerSegmentEntered:    "customer_segment_entered",
		triggerCustomEvent:       "customer_custom_event",
	}
	if _, ok := names[event]; !ok {
		return nil, apperr.InvalidPayload("Property .trigger.specific.event must be customer.order.paid, customer.segment.entered or customer.custom_event, got %q", event)
	}
	for ev, name := range names {
		if ev == event && !present[ev] {
			return nil, apperr.InvalidPayload("Property .%s is required when the examined event is %s", name, event)
		}
		if ev != event && present[ev] {
			return nil, apperr.InvalidPayload("Property .%s must be absent when the examined event is %s", name, event)
		}
	}
	return &event, validateCustomEventContext(in.CustomerCustomEvent)
}

// validateCustomEventContext checks customer_custom_event's type and its
// all/specific object.
func validateCustomEventContext(ce *ExamineCustomEvent) error {
	if ce == nil {
		return nil
	}
	if ce.Type == nil {
		return apperr.InvalidPayload("Property .customer_custom_event.type is required")
	}
	switch *ce.Type {
	case "ALL":
		if ce.All == nil || ce.Specific != nil {
			return apperr.InvalidPayload("Property .customer_custom_event.all is required and .specific must be null when type is ALL")
		}
	case "SPECIFIC":
		if ce.Specific == nil || ce.All != nil {
			return apperr.InvalidPayload("Property .customer_custom_event.specific is required and .all must be null when type is SPECIFIC")
		}
		if ce.Specific.CustomEvent == nil || ce.Specific.CustomEvent.SchemaID == nil || *ce.Specific.CustomEvent.SchemaID == "" {
			return apperr.InvalidPayload("Property .customer_custom_event.specific.custom_event.schema_id is required")
		}
	default:
		return apperr.InvalidPayload("Property .customer_custom_event.type must be ALL or SPECIFIC, got %q", *ce.Type)
	}
	return nil
}

// TriggerEvent is the event an earning rule's trigger fires on, as an
// examination names it: customer.order.paid, customer.segment.entered or
// customer.custom_event ("" for a rule of no examined trigger). An
// examination of ALL triggers answers it per rule.
func TriggerEvent(t *jsonfield.EarningTrigger) string {
	switch {
	case t == nil:
		return ""
	case t.Event != nil && *t.Event == loyalty.TriggerOrderPaid:
		return loyalty.TriggerOrderPaid
	case t.Segment != nil:
		return triggerSegmentEntered
	case t.CustomEvent != nil:
		return triggerCustomEvent
	}
	return ""
}
