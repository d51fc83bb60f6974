package event

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"time"
	"unicode/utf8"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customereventcount"
	"github.com/promoengine/promoengine/ent/metadataschema"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	metadatapkg "github.com/promoengine/promoengine/graph/metadata"
)

// Custom events (POST /v1/events): stored, counted per customer, checked
// against their schema (graph/metadata/schemas.go), and passed on to referral
// conversion (referral_conversions.go), segments and loyalty earning
// (event_earning.go) in one transaction.

// SendEventInput is a custom event (POST /v1/events).
type SendEventInput struct {
	Event    string                      `json:"event"`
	Customer *customer.CustomerInput     `json:"customer"`
	Referral *EventReferralInput         `json:"referral"`
	Loyalty  *customer.EventLoyaltyInput `json:"loyalty"`
	Metadata map[string]any              `json:"metadata"`
}

// EventReferralInput names the referral code a conversion event redeems.
type EventReferralInput struct {
	Code       string  `json:"code"`
	ReferrerID *string `json:"referrer_id"`
}

// SendEvent records a custom event and, in the same transaction, counts
// it, converts a referral, re-evaluates the customer's auto-update
// segments and runs the loyalty earning hook.
func SendEvent(ctx context.Context, in SendEventInput) (*ent.CustomEvent, error) {
	if in.Event == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'event'")
	}
	if utf8.RuneCountInString(in.Event) > 300 {
		return nil, apperr.InvalidPayload("Property .event must be 1 to 300 characters")
	}
	if in.Customer == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'customer'")
	}
	if in.Customer.ID == nil && in.Customer.SourceID == nil {
		return nil, apperr.InvalidPayload("Property .customer must have property 'id' or 'source_id'")
	}
	if in.Referral != nil && in.Referral.Code == "" {
		return nil, apperr.InvalidPayload("Property .referral must have required property 'code'")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	schema, err := c.MetadataSchema.Query().Where(metadataschema.RelatedObject("event"), metadataschema.Name(in.Event)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.New(http.StatusBadRequest, "invalid_event", "Invalid event",
			fmt.Sprintf("Custom event %q is not defined in the project's event schema", in.Event))
	}
	if err != nil {
		return nil, fmt.Errorf("looking up event schema: %w", err)
	}
	if err := validateEventMetadata(schema.Properties, in.Metadata); err != nil {
		return nil, err
	}
	cust, err := customer.ResolveCustomer(ctx, in.Customer)
	if err != nil {
		return nil, err
	}
	// One customer's events (and profile changes) run one at a time, so
	// segment re-evaluation always sees every counter of the customer.
	if err := store.LockKey(ctx, "customer:"+cust.ID); err != nil {
		return nil, err
	}
	if cust, err = c.Customer.Get(ctx, cust.ID); err != nil { // as of the lock
		return nil, fmt.Errorf("reading customer: %w", err)
	}
	metadata := in.Metadata
	if metadata == nil {
		metadata = map[string]any{}
	}
	create := c.CustomEvent.Create().SetType(in.Event).SetCustomerID(cust.ID).SetMetadata(metadata)
	if in.Referral != nil {
		create.SetReferralCode(in.Referral.Code)
	}
	if in.Loyalty != nil {
		create.SetLoyaltyCode(in.Loyalty.Code)
	}
	ev, err := create.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("storing event: %w", err)
	}
	if err := countEvent(ctx, c, cust.ID, in.Event, ev.CreatedAt); err != nil {
		return nil, err
	}
	if in.Referral != nil {
		if err := convertReferral(ctx, c, ev, cust, in.Referral); err != nil {
			return nil, err
		}
	}
	entered, err := customer.ReevaluateSegments(ctx, cust)
	if err != nil {
		return nil, err
	}
	if !customer.Earns(ctx) {
		return ev, nil
	}
	// Loyalty earning (left to the loyalty area): same transaction.
	if err := customer.Earning.EventRecorded(ctx, ev, cust, in.Loyalty); err != nil {
		return nil, err
	}
	if len(entered) > 0 {
		if err := customer.Earning.SegmentsEntered(ctx, cust, entered); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// validateEventMetadata checks metadata against the event's schema: every
// property not marked optional is present (and not null), and every
// present property of the schema has its declared type and meets its
// constraints (checkMetadataValue). Properties the
// schema does not define are accepted as they are.
func validateEventMetadata(props map[string]jsonfield.MetadataProperty, md map[string]any) error {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		p := props[name]
		v, ok := md[name]
		if !ok || v == nil {
			if !p.Optional {
				return apperr.InvalidPayload("Property .metadata.%s is required by the event's schema", name)
			}
			continue
		}
		if err := metadatapkg.CheckMetadataValue(name, p, v); err != nil { // type and constraints (graph/metadata/property.go)
			return err
		}
	}
	return nil
}

// countEvent adds one to the customer's counter of the event name, in one
// upsert statement (concurrent events of a customer both count).
func countEvent(ctx context.Context, c *ent.Client, customerID, name string, at time.Time) error {
	err := c.CustomerEventCount.Create().SetCustomerID(customerID).SetEvent(name).SetCount(1).SetLastAt(at).
		OnConflictColumns(customereventcount.FieldCustomerID, customereventcount.FieldEvent).
		Update(func(u *ent.CustomerEventCountUpsert) {
			u.AddCount(1)
			u.SetLastAt(at)
		}).Exec(ctx)
	if err != nil {
		return fmt.Errorf("counting event: %w", err)
	}
	return nil
}

// EventCustomer is the customer an event was sent for.
func EventCustomer(ctx context.Context, ev *ent.CustomEvent) (*ent.Customer, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	return c.Customer.Get(ctx, ev.CustomerID)
}

// CustomEvents pages through the project's custom events (GraphQL connection).
func CustomEvents(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.CustomEventOrder, where *ent.CustomEventWhereInput) (*ent.CustomEventConnection, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = page.Bound(first, last); err != nil {
		return nil, err
	}
	return c.CustomEvent.Query().Paginate(ctx, after, first, before, last,
		ent.WithCustomEventOrder(orderBy), ent.WithCustomEventFilter(where.Filter))
}
