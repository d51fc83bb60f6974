package loyaltybase

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// ActivitySource describes the caller of the request for activity records:
// the viewer's channel (API, or CLIENT_API through the client-side API)
// and the application key (name and id; for a client-side key its id is
// also client_app_id, which stays null for server-side keys).
func ActivitySource(ctx context.Context) (*jsonfield.ActivitySource, error) {
	v, ok := viewer.FromContext(ctx)
	if !ok {
		return &jsonfield.ActivitySource{Channel: "INTERNAL"}, nil
	}
	src := &jsonfield.ActivitySource{Channel: v.Channel(), APIKey: &jsonfield.APIKeySource{AppID: v.AppID}}
	if v.AppID == "" {
		return src, nil
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	key, err := c.AppKey.Query().Where(appkey.ID(v.AppID), appkey.ProjectID(v.ProjectID)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
	case err != nil:
		return nil, fmt.Errorf("looking up application key: %w", err)
	default:
		src.APIKey.Name = key.Name
		if key.Side == appkey.SideCLIENT {
			id := key.ID
			src.APIKey.ClientAppID = &id
		}
	}
	return src, nil
}

// ActivityWriter returns what recording an activity needs: the client of
// the request's transaction and the caller as the activity's source.
func ActivityWriter(ctx context.Context) (*ent.Client, *jsonfield.ActivitySource, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, nil, err
	}
	src, err := ActivitySource(ctx)
	if err != nil {
		return nil, nil, err
	}
	return c, src, nil
}

// NewGroupID is shared by the activities one request records.
func NewGroupID() string { return "lagrp_" + pulid.Hex(9) }

// NotFound maps ent's not-found to the interface's 404 naming the resource;
// other errors are wrapped.
func NotFound(err error, resourceType, id string) error {
	if ent.IsNotFound(err) {
		return apperr.NotFound(resourceType, id)
	}
	if err != nil {
		return fmt.Errorf("looking up %s %s: %w", resourceType, id, err)
	}
	return nil
}

// RequiredName checks a 1–200 character name.
func RequiredName(name *string) error {
	if name == nil {
		return apperr.InvalidPayload("Payload must have required property 'name'")
	}
	if n := len([]rune(*name)); n < 1 || n > 200 {
		return apperr.InvalidPayload("Property .name must be 1 to 200 characters long, got %d", n)
	}
	return nil
}

// InitialStatus is the status a loyalty object is created with: given, if
// it is one of allowed, or allowed[0] when absent; another value is a 400.
func InitialStatus[S ~string](given *S, allowed ...S) (S, error) {
	if given == nil {
		return allowed[0], nil
	}
	if !slices.Contains(allowed, *given) {
		names := make([]string, len(allowed))
		for i, a := range allowed {
			names[i] = string(a)
		}
		return "", apperr.InvalidPayload("Property .status must be one of %s, got %q", strings.Join(names, ", "), *given)
	}
	return *given, nil
}

// CheckDateOrder refuses an end_date before the start_date (either may
// be absent).
func CheckDateOrder(start, end *time.Time) error {
	if start != nil && end != nil && end.Before(*start) {
		return apperr.InvalidPayload("Property .end_date must not be before .start_date")
	}
	return nil
}

// UTCMillis stores a given time as every timestamp is stored: UTC, ms.
func UTCMillis(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC().Truncate(time.Millisecond)
	return &u
}

// Pathf formats a property path.
func Pathf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// EventCardTransaction is the webhook event of a points spend.
const EventCardTransaction = "voucher.loyalty_card.transaction.created"

// Locked423 is the documents' 423 of a purchase the state refuses.
func Locked423(key, message, details string) error {
	return apperr.New(http.StatusLocked, key, message, details)
}
