package customer

// The upsert by source_id as part of another use case's write batch (the
// one-statement redemption, graph/redemption/statement.go): worked out in
// Go from a read of the row and its version, then written by a guarded
// hand-written statement that joins the batch, so the customer costs no
// round trip and no lock of its own.

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/entdb"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/internal/clock"
	"github.com/promoengine/promoengine/graph/webhook"
)

// UpsertPlan is ResolveCustomer's upsert by source_id worked out from a
// read: Customer is the row as the upsert leaves it, New whether it is
// inserted. Batch records its write.
type UpsertPlan struct {
	Customer *ent.Customer
	New      bool
	// version is the row version (PostgreSQL's xmin) the existing row was
	// read at: the update writes only that version.
	version string
	// profile: the update writes profile fields (else it only touches the row).
	profile bool
}

// PlanUpsertBySourceID works out the upsert of in (which names a
// source_id and no id) against existing, the row with that source_id as
// read at version (nil: none was found). It answers what
// upsertBySourceID would store: the profile fields given replace the
// stored ones (a client-side caller changes no profile), a new customer
// gets a new id. An input upsertBySourceID would refuse is an error: the
// caller then takes that path, which answers it.
func PlanUpsertBySourceID(ctx context.Context, in *CustomerInput, existing *ent.Customer, version string) (*UpsertPlan, error) {
	if in == nil || in.ID != nil || in.SourceID == nil {
		return nil, fmt.Errorf("planning a customer upsert: the input names no source_id alone")
	}
	if err := ValidateCustomer(in); err != nil {
		return nil, err
	}
	if err := validateProfileLengths(in); err != nil {
		return nil, err
	}
	now := clock.Now()
	if existing != nil {
		if version == "" {
			return nil, fmt.Errorf("planning a customer upsert: the row was read without its version")
		}
		cust := *existing
		profile := HasProfile(in) && !clientCaller(ctx)
		if profile {
			applyProfile(&cust, in)
			cust.UpdatedAt = &now
		}
		return &UpsertPlan{Customer: &cust, version: version, profile: profile}, nil
	}
	v, _ := viewer.FromContext(ctx)
	cust := &ent.Customer{ID: customer.DefaultID(), ProjectID: v.ProjectID, CreatedAt: now, SourceID: in.SourceID,
		Metadata: map[string]any{}, SystemMetadata: map[string]any{}}
	applyProfile(cust, in)
	return &UpsertPlan{Customer: cust, New: true}, nil
}

// applyProfile sets the profile fields in gives on cust, as setProfile
// and newCustomer store them.
func applyProfile(cust *ent.Customer, in *CustomerInput) {
	if in.Name != nil {
		cust.Name = in.Name
	}
	if in.Description != nil {
		cust.Description = in.Description
	}
	if in.Email != nil {
		cust.Email = in.Email
	}
	if in.Phone != nil {
		cust.Phone = in.Phone
	}
	if b := birthday(in); b != nil {
		cust.Birthday = b
	}
	if in.Address != nil {
		cust.Address = in.Address
	}
	if in.Metadata != nil {
		cust.Metadata = in.Metadata
	}
}

// validateProfileLengths runs ent's field validators, which the builders
// would run on the transactional path.
func validateProfileLengths(in *CustomerInput) error {
	checks := []struct {
		v     *string
		check func(string) error
	}{{in.SourceID, customer.SourceIDValidator}, {in.Name, customer.NameValidator}, {in.Email, customer.EmailValidator},
		{in.Phone, customer.PhoneValidator}, {birthday(in), customer.BirthdayValidator}}
	for _, c := range checks {
		if c.v != nil && c.check != nil {
			if err := c.check(*c.v); err != nil {
				return err
			}
		}
	}
	return nil
}

// insertCustomerColumns are the columns a planned insert writes, in the
// order of its arguments.
var insertCustomerColumns = []string{customer.FieldID, customer.FieldProjectID, customer.FieldCreatedAt,
	customer.FieldSourceID, customer.FieldName, customer.FieldDescription, customer.FieldEmail, customer.FieldPhone,
	customer.FieldBirthday, customer.FieldAddress, customer.FieldMetadata, customer.FieldSystemMetadata,
	customer.FieldOrdersTotalAmount, customer.FieldOrdersTotalCount}

var insertCustomerSQL = func() string {
	s := `INSERT INTO "` + customer.Table + `" (`
	vals := ""
	for i, c := range insertCustomerColumns {
		if i > 0 {
			s += ", "
			vals += ", "
		}
		s += `"` + c + `"`
		vals += fmt.Sprintf("$%d", i+1)
	}
	return s + ") VALUES (" + vals + ")"
}()

// updateCustomerProfileSQL writes the profile of a row that is still the
// version read ($11).
const updateCustomerProfileSQL = `UPDATE customers SET name = $1, description = $2, email = $3, phone = $4, ` +
	`birthday = $5, address = $6::jsonb, metadata = $7::jsonb, updated_at = $8 ` +
	`WHERE id = $9 AND project_id = $10 AND xmin = $11::xid`

// touchCustomerSQL is the upsert's update without a profile: it changes
// nothing but, as ON CONFLICT DO UPDATE does, makes a new version of the
// row (so requests naming the customer take turns) — and only of the
// version read.
const touchCustomerSQL = `UPDATE customers SET source_id = source_id WHERE id = $1 AND project_id = $2 AND xmin = $3::xid`

// Batch records the planned write in b: an INSERT of a new customer (a
// concurrent insert of the same source_id makes the batch fail with a
// unique violation and write nothing), or an UPDATE of the version read
// (which makes the batch write nothing when the row changed meanwhile).
// For a new customer it also records the customer.created event, as
// upsertBySourceID does (ctx must be the batch's context).
func (p *UpsertPlan) Batch(ctx context.Context, b *entdb.WriteBatch) error {
	c := p.Customer
	address, err := jsonOrNull(c.Address)
	if err != nil {
		return err
	}
	md := c.Metadata
	if md == nil {
		md = map[string]any{}
	}
	metadata, err := json.Marshal(md)
	if err != nil {
		return fmt.Errorf("encoding the customer's metadata: %w", err)
	}
	if !p.New {
		if !p.profile {
			return b.Update(touchCustomerSQL, c.ID, c.ProjectID, p.version)
		}
		return b.Update(updateCustomerProfileSQL, c.Name, c.Description, c.Email, c.Phone, c.Birthday, address, metadata,
			*c.UpdatedAt, c.ID, c.ProjectID, p.version)
	}
	system, err := json.Marshal(c.SystemMetadata)
	if err != nil {
		return fmt.Errorf("encoding the customer's system metadata: %w", err)
	}
	if err := b.Insert(insertCustomerSQL, c.ID, c.ProjectID, c.CreatedAt, c.SourceID, c.Name, c.Description, c.Email,
		c.Phone, c.Birthday, address, metadata, system, c.OrdersTotalAmount, c.OrdersTotalCount); err != nil {
		return err
	}
	return emitCustomer(ctx, webhook.EventCustomerCreated, c)
}

// jsonOrNull is a nullable JSON column's argument.
func jsonOrNull(v *jsonfield.CustomerAddress) (any, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding the customer's address: %w", err)
	}
	return b, nil
}
