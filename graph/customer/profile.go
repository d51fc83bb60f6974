package customer

// A customer's profile fields (name, email, phone, address, birthdate,
// metadata): their checks and how inputs set and clear them.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/webhook"
)

// HasProfile reports whether the input carries any profile field.
func HasProfile(in *CustomerInput) bool {
	return in.Name != nil || in.Description != nil || in.Email != nil || in.Phone != nil ||
		birthday(in) != nil || in.Address != nil || in.Metadata != nil
}

// setProfile writes the given profile fields into an upsert's update.
func setProfile(u *ent.CustomerUpsert, in *CustomerInput) {
	if in.Name != nil {
		u.SetName(*in.Name)
	}
	if in.Description != nil {
		u.SetDescription(*in.Description)
	}
	if in.Email != nil {
		u.SetEmail(*in.Email)
	}
	if in.Phone != nil {
		u.SetPhone(*in.Phone)
	}
	if b := birthday(in); b != nil {
		u.SetBirthday(*b)
	}
	// ent's upsert does not encode JSON columns itself.
	if in.Address != nil {
		if b, err := json.Marshal(in.Address); err == nil {
			u.Set(customer.FieldAddress, b)
		}
	}
	if in.Metadata != nil {
		if b, err := json.Marshal(in.Metadata); err == nil {
			u.Set(customer.FieldMetadata, b)
		}
	}
}

func createCustomer(ctx context.Context, in *CustomerInput) (*ent.Customer, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	cust, err := newCustomer(c, in).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, apperr.Duplicate("customer", "A customer with this source_id already exists")
	}
	if err != nil {
		return nil, fmt.Errorf("creating customer: %w", err)
	}
	return cust, emitCustomer(ctx, webhook.EventCustomerCreated, cust)
}

// updateProfile applies the given profile fields; a request that gives none
// leaves the customer untouched.
func updateProfile(ctx context.Context, cust *ent.Customer, in *CustomerInput) (*ent.Customer, error) {
	if (!HasProfile(in) && !in.Nulls.Any()) || clientCaller(ctx) {
		return cust, nil
	}
	upd := cust.Update().
		SetNillableName(in.Name).SetNillableDescription(in.Description).SetNillableEmail(in.Email).
		SetNillablePhone(in.Phone).SetNillableBirthday(birthday(in))
	if in.Address != nil {
		if addr := updatedAddress(cust.Address, in.Address, in.Nulls.Under("address")); addr != nil {
			upd.SetAddress(addr)
		} else {
			upd.ClearAddress()
		}
	}
	if in.Metadata != nil {
		upd.SetMetadata(in.Metadata)
	}
	clearProfile(upd, in.Nulls)
	updated, err := upd.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating customer: %w", err)
	}
	return updated, nil
}

// clearProfile clears the profile fields an update set to null.
func clearProfile(upd *ent.CustomerUpdateOne, nulls shape.Nulls) {
	clears := map[string]func() *ent.CustomerUpdateOne{"name": upd.ClearName, "description": upd.ClearDescription,
		"email": upd.ClearEmail, "phone": upd.ClearPhone, "birthday": upd.ClearBirthday, "birthdate": upd.ClearBirthday,
		"address": upd.ClearAddress}
	for name, clear := range clears {
		if nulls.IsNull(name) {
			clear()
		}
	}
	if nulls.IsNull("metadata") {
		upd.SetMetadata(map[string]any{})
	}
}

func birthday(in *CustomerInput) *string {
	if in.Birthday != nil {
		return in.Birthday
	}
	return in.Birthdate
}

// ValidateCustomer checks a customer input's identifiers and profile fields.
func ValidateCustomer(in *CustomerInput) error {
	if in.ID != nil && *in.ID == "" {
		return apperr.InvalidPayload("Property .customer.id must not be empty")
	}
	if in.SourceID != nil && (*in.SourceID == "" || len(*in.SourceID) > 500) {
		return apperr.InvalidPayload("Property .customer.source_id must be 1 to 500 characters")
	}
	if in.Email != nil && *in.Email != "" {
		if addr, err := mail.ParseAddress(*in.Email); err != nil || addr.Address != *in.Email {
			return apperr.InvalidPayload("Property .customer.email must be an e-mail address, got %q", *in.Email)
		}
	}
	if b := birthday(in); b != nil {
		if _, err := time.Parse(time.DateOnly, *b); err != nil {
			return apperr.InvalidPayload("Property .customer.birthday must be a date (YYYY-MM-DD), got %q", *b)
		}
	}
	return nil
}
