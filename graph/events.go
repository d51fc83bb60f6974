package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"
	"unicode/utf8"

	"entgo.io/contrib/entgql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/customereventcount"
	"github.com/promoengine/promoengine/ent/metadataschema"
	"github.com/promoengine/promoengine/ent/referralconversion"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
)

// MetadataSchemaInput defines a metadata schema (POST /v1/metadata-schemas).
type MetadataSchemaInput struct {
	RelatedObject string         `json:"related_object"`
	Name          string         `json:"name"`
	Properties    map[string]any `json:"properties"`
}

// metadataTypes are the property types a schema may declare.
var metadataTypes = []string{"string", "number", "boolean", "object"}

// createMetadataSchema stores a metadata schema; for related_object
// "event" its name becomes a custom event the project accepts.
func createMetadataSchema(ctx context.Context, in MetadataSchemaInput) (*ent.MetadataSchema, error) {
	if in.RelatedObject == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'related_object'")
	}
	if in.Name == "" {
		return nil, apperr.InvalidPayload("Payload must have required property 'name'")
	}
	if n := utf8.RuneCountInString(in.Name); n > 300 {
		return nil, apperr.InvalidPayload("Property .name must be 1 to 300 characters")
	}
	props := map[string]jsonfield.MetadataProperty{}
	for name, raw := range in.Properties {
		p, err := metadataProperty(name, raw)
		if err != nil {
			return nil, err
		}
		props[name] = p
	}
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	ms, err := c.MetadataSchema.Create().SetRelatedObject(in.RelatedObject).SetName(in.Name).SetProperties(props).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, apperr.Duplicate("metadata_schema", fmt.Sprintf("A metadata schema for %s %q already exists", in.RelatedObject, in.Name))
	}
	if err != nil {
		return nil, fmt.Errorf("creating metadata schema: %w", err)
	}
	return ms, nil
}

// metadataSchemaByID finds one of the caller's metadata schemas.
func metadataSchemaByID(ctx context.Context, id string) (*ent.MetadataSchema, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	ms, err := c.MetadataSchema.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("metadata_schema", id)
	}
	return ms, err
}

// MetadataSchemaList is every metadata schema of the project (v1 list).
func allMetadataSchemas(ctx context.Context) ([]*ent.MetadataSchema, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	// A project defines a handful of schemas; the list is bounded anyway.
	return c.MetadataSchema.Query().Order(ent.Asc(metadataschema.FieldCreatedAt), ent.Asc(metadataschema.FieldID)).Limit(1000).All(ctx)
}

func metadataSchemas(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.MetadataSchemaOrder, where *ent.MetadataSchemaWhereInput) (*ent.MetadataSchemaConnection, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = boundPage(first, last); err != nil {
		return nil, err
	}
	return c.MetadataSchema.Query().Paginate(ctx, after, first, before, last,
		ent.WithMetadataSchemaOrder(orderBy), ent.WithMetadataSchemaFilter(where.Filter))
}

// SendEventInput is a custom event (POST /v1/events).
type SendEventInput struct {
	Event    string              `json:"event"`
	Customer *CustomerInput      `json:"customer"`
	Referral *EventReferralInput `json:"referral"`
	Loyalty  *EventLoyaltyInput  `json:"loyalty"`
	Metadata map[string]any      `json:"metadata"`
}

// EventReferralInput names the referral code a conversion event redeems.
type EventReferralInput struct {
	Code       string  `json:"code"`
	ReferrerID *string `json:"referrer_id"`
}

// EventLoyaltyInput names the loyalty card an event is attributed to.
type EventLoyaltyInput struct {
	Code string `json:"code"`
}

// LoyaltyEarning is the hook through which loyalty earning rules act on
// custom events and segment entries. It is called inside the transaction
// that stores the event, after the event, its counter, referral
// conversion and segment membership are written; an error rolls the whole
// event back. The loyalty area's earning rules implement it (ruleEarning).
type LoyaltyEarning interface {
	// EventRecorded applies the earning rules triggered by the event
	// (trigger.custom_event.schema_id); loyalty is the card the request
	// named, if any.
	EventRecorded(ctx context.Context, ev *ent.CustomEvent, cust *ent.Customer, loyalty *EventLoyaltyInput) error
	// SegmentsEntered applies the earning rules triggered by entering
	// segments (trigger.segment.id).
	SegmentsEntered(ctx context.Context, cust *ent.Customer, segmentIDs []string) error
}

// NoLoyaltyEarning earns nothing.
type NoLoyaltyEarning struct{}

// EventRecorded implements LoyaltyEarning.
func (NoLoyaltyEarning) EventRecorded(context.Context, *ent.CustomEvent, *ent.Customer, *EventLoyaltyInput) error {
	return nil
}

// SegmentsEntered implements LoyaltyEarning.
func (NoLoyaltyEarning) SegmentsEntered(context.Context, *ent.Customer, []string) error { return nil }

// Earning is the loyalty earning step of the event pipeline: the earning
// rules of the loyalty area (loyalty_earning.go). Tests may swap it.
var Earning LoyaltyEarning = ruleEarning{}

type noEarningKey struct{}

// WithoutLoyaltyEarning returns ctx in which events are recorded (and move
// segments) but earn nothing in loyalty programs: client-side events of a
// project that has not enabled client_loyalty_events_enabled.
func WithoutLoyaltyEarning(ctx context.Context) context.Context {
	return context.WithValue(ctx, noEarningKey{}, true)
}

func earns(ctx context.Context) bool { return ctx.Value(noEarningKey{}) == nil }

// sendEvent records a custom event and, in the same transaction, counts
// it, converts a referral, re-evaluates the customer's auto-update
// segments and runs the loyalty earning hook.
func sendEvent(ctx context.Context, in SendEventInput) (*ent.CustomEvent, error) {
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
	c, err := client(ctx)
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
	cust, err := resolveCustomer(ctx, in.Customer)
	if err != nil {
		return nil, err
	}
	// One customer's events (and profile changes) run one at a time, so
	// segment re-evaluation always sees every counter of the customer.
	if err := lockKey(ctx, "customer:"+cust.ID); err != nil {
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
	entered, err := reevaluateSegments(ctx, cust)
	if err != nil {
		return nil, err
	}
	if !earns(ctx) {
		return ev, nil
	}
	// Loyalty earning (left to the loyalty area): same transaction.
	if err := Earning.EventRecorded(ctx, ev, cust, in.Loyalty); err != nil {
		return nil, err
	}
	if len(entered) > 0 {
		if err := Earning.SegmentsEntered(ctx, cust, entered); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// validateEventMetadata checks metadata against the event's schema: every
// property not marked optional is present (and not null), and every
// present property of the schema has its declared type. Properties the
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
		okType := false
		switch p.Type {
		case "string":
			_, okType = v.(string)
		case "number":
			switch v.(type) {
			case json.Number, float64, int, int64:
				okType = true
			}
		case "boolean":
			_, okType = v.(bool)
		case "object":
			_, okType = v.(map[string]any)
		}
		if !okType {
			return apperr.InvalidPayload("Property .metadata.%s must be a %s", name, p.Type)
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

// eventCounts returns the customer's event counters by event name.
func eventCounts(ctx context.Context, c *ent.Client, customerID string) (map[string]int, error) {
	rows, err := c.CustomerEventCount.Query().Where(customereventcount.CustomerID(customerID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading event counters: %w", err)
	}
	out := make(map[string]int, len(rows))
	for _, r := range rows {
		out[r.Event] = r.Count
	}
	return out, nil
}

// convertReferral records the referral conversion an event carries: the
// code must be a referral code of a referral program; the conversion
// happens when the campaign's referral_program.conversion_event_type is
// this event's name, at most once per referee and campaign.
func convertReferral(ctx context.Context, c *ent.Client, ev *ent.CustomEvent, referee *ent.Customer, ref *EventReferralInput) error {
	v, err := voucherByCode(ctx, ref.Code)
	if err != nil {
		return err
	}
	if !v.IsReferralCode || v.CampaignID == nil {
		return invalidReferral("Voucher %s is not a referral code", ref.Code)
	}
	cmp, err := c.Campaign.Get(ctx, *v.CampaignID)
	if err != nil {
		return fmt.Errorf("reading referral campaign: %w", err)
	}
	if cmp.CampaignType != campaign.CampaignTypeREFERRAL_PROGRAM {
		return invalidReferral("Voucher %s is not a code of a referral program", ref.Code)
	}
	if conv, _ := cmp.ReferralProgram["conversion_event_type"].(string); conv != ev.Type {
		return nil // the event is not this program's conversion event
	}
	referrer := v.HolderID
	if ref.ReferrerID != nil && *ref.ReferrerID != "" {
		if referrer != nil && *referrer != *ref.ReferrerID {
			return invalidReferral("Customer %s is not the holder of referral code %s", *ref.ReferrerID, ref.Code)
		}
		r, err := customerByIDOrSourceID(ctx, *ref.ReferrerID)
		if err != nil {
			return err
		}
		referrer = &r.ID
	}
	if referrer == nil {
		return invalidReferral("Referral code %s has no referrer: publish it to a customer or give referral.referrer_id", ref.Code)
	}
	if *referrer == referee.ID {
		return invalidReferral("A customer cannot be referred by their own code %s", ref.Code)
	}
	if err := lockKey(ctx, "referral:"+cmp.ID+":"+referee.ID); err != nil {
		return err
	}
	done, err := c.ReferralConversion.Query().Where(referralconversion.CampaignID(cmp.ID), referralconversion.RefereeID(referee.ID)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("checking referral conversion: %w", err)
	}
	if done {
		return nil // converted already: once per referee and campaign
	}
	err = c.ReferralConversion.Create().SetCampaignID(cmp.ID).SetVoucherID(v.ID).SetReferrerID(*referrer).
		SetRefereeID(referee.ID).SetEventID(ev.ID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("recording referral conversion: %w", err)
	}
	return nil
}

func invalidReferral(format string, args ...any) error {
	return apperr.New(http.StatusBadRequest, "invalid_referral", "Invalid referral", fmt.Sprintf(format, args...))
}

// ReferralEntry is one referral conversion a customer took part in.
type ReferralEntry struct {
	CampaignID      string    `json:"campaign_id"`
	ReferrerID      string    `json:"referrer_id"`
	RefereeID       string    `json:"referee_id"`
	RelatedObjectID string    `json:"related_object_id"`
	Date            time.Time `json:"date"`
}

// CustomerReferrals summarises a customer's referral conversions, as
// referee or as referrer (nil when there are none).
type CustomerReferrals struct {
	Total     int              `json:"total"`
	Campaigns []*ReferralEntry `json:"campaigns"`
}

// customerReferrals returns the customer's conversions, newest last.
func customerReferrals(ctx context.Context, cust *ent.Customer) (*CustomerReferrals, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := c.ReferralConversion.Query().
		Where(referralconversion.Or(referralconversion.RefereeID(cust.ID), referralconversion.ReferrerID(cust.ID))).
		Order(ent.Asc(referralconversion.FieldCreatedAt), ent.Asc(referralconversion.FieldID)).Limit(1000).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading referrals: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	out := &CustomerReferrals{Total: len(rows)}
	for _, r := range rows {
		out.Campaigns = append(out.Campaigns, &ReferralEntry{CampaignID: r.CampaignID, ReferrerID: r.ReferrerID,
			RefereeID: r.RefereeID, RelatedObjectID: r.EventID, Date: r.CreatedAt})
	}
	return out, nil
}

// eventCustomer is the customer an event was sent for.
func eventCustomer(ctx context.Context, ev *ent.CustomEvent) (*ent.Customer, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	return c.Customer.Get(ctx, ev.CustomerID)
}

// metadataProperties shows a schema's properties as a JSON object.
func metadataProperties(_ context.Context, ms *ent.MetadataSchema) (map[string]any, error) {
	out := make(map[string]any, len(ms.Properties))
	for k, p := range ms.Properties {
		out[k] = map[string]any{"type": p.Type, "optional": p.Optional}
	}
	return out, nil
}

func customEvents(ctx context.Context, after *entgql.Cursor[string], first *int, before *entgql.Cursor[string], last *int, orderBy *ent.CustomEventOrder, where *ent.CustomEventWhereInput) (*ent.CustomEventConnection, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	if first, err = boundPage(first, last); err != nil {
		return nil, err
	}
	return c.CustomEvent.Query().Paginate(ctx, after, first, before, last,
		ent.WithCustomEventOrder(orderBy), ent.WithCustomEventFilter(where.Filter))
}
