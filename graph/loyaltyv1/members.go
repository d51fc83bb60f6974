package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/publication"
)

// AddMemberInput is the body of POST /v1/loyalties/{campaignId}/members:
// the customer (id, source_id or a profile to upsert) and, optionally, the
// code of the card to give; without it the program picks (or, when the
// program generates on demand, makes) a free card.
type AddMemberInput struct {
	Customer *customer.CustomerInput `json:"customer"`
	Voucher  *string                 `json:"voucher"`
	Channel  *string                 `json:"channel"`
	SourceID *string                 `json:"source_id"`
	Metadata map[string]any          `json:"metadata"`
}

// AddMember publishes a card of the program to a customer and returns the
// card. A customer holds at most one card of a program: a second request
// for them is 400 voucher_cannot_be_published (the program is join_once).
func AddMember(ctx context.Context, programIDOrName string, in AddMemberInput) (*ent.Voucher, error) {
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	if in.Customer == nil {
		return nil, apperr.InvalidPayload("Payload must have required property 'customer'")
	}
	pub := publication.PublishInput{Customer: in.Customer, Channel: in.Channel, SourceID: in.SourceID, Metadata: in.Metadata}
	if in.Voucher != nil {
		if _, err := cardOf(ctx, cmp, *in.Voucher); err != nil {
			return nil, err
		}
		pub.Voucher = in.Voucher
	} else {
		pub.Campaign = &publication.PublishCampaignInput{Name: cmp.ID}
	}
	p, err := publication.Publish(ctx, pub, false)
	if err != nil {
		return nil, err
	}
	if len(p.VoucherIds) == 0 {
		return nil, fmt.Errorf("adding member: publication %s has no voucher", p.ID)
	}
	return cardByID(ctx, p.VoucherIds[0])
}

// Member finds a member (a loyalty card) by its code, inside the program
// when one is named (404 campaign for an unknown program, 404 voucher for
// a code that is not one of its cards).
func Member(ctx context.Context, programIDOrName *string, code string) (*ent.Voucher, error) {
	if programIDOrName != nil && *programIDOrName != "" {
		cmp, err := Program(ctx, *programIDOrName)
		if err != nil {
			return nil, err
		}
		return cardOf(ctx, cmp, code)
	}
	return cardOf(ctx, nil, code)
}

// cardOf is the loyalty card with this code (of cmp when given).
func cardOf(ctx context.Context, cmp *ent.Campaign, code string) (*ent.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.Voucher.Query().Where(voucher.Code(code), voucher.TypeEQ(jsonfield.VoucherTypeLoyaltyCard))
	if cmp != nil {
		q.Where(voucher.CampaignID(cmp.ID))
	}
	v, err := campaign.WithVoucherCategories(q).Only(ctx)
	if ent.IsNotFound(err) {
		e := apperr.NotFound("voucher", code)
		e.Details = "Cannot find voucher with id " + code
		return nil, e
	}
	if err != nil {
		return nil, fmt.Errorf("looking up loyalty card: %w", err)
	}
	return v, nil
}

func cardByID(ctx context.Context, id string) (*ent.Voucher, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	v, err := campaign.WithVoucherCategories(c.Voucher.Query().Where(voucher.ID(id))).Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading loyalty card: %w", err)
	}
	return v, nil
}

// MemberListInput is the query of GET /v1/loyalties/{campaignId}/members.
type MemberListInput struct {
	Limit *int `json:"limit"`
	Page  *int `json:"page"`
	// Customer keeps the cards of this customer (id or source_id).
	Customer *string `json:"customer"`
	// Code keeps the card with this code; IDs keeps these cards (v_… or
	// codes). With either, unpublished cards are listed too.
	Code *string  `json:"code"`
	IDs  []string `json:"ids"`
	// CreatedBefore … UpdatedAfter bound the cards' times.
	CreatedBefore *time.Time `json:"created_before"`
	CreatedAfter  *time.Time `json:"created_after"`
	UpdatedBefore *time.Time `json:"updated_before"`
	UpdatedAfter  *time.Time `json:"updated_after"`
	// Order is created_at, updated_at or code; - for descending (default
	// -created_at).
	Order *string `json:"order"`
}

// MemberList is a page of members and how many match in all.
type MemberList struct {
	Total int            `json:"total"`
	Data  []*ent.Voucher `json:"data"`
}

// Members pages a program's members: its published cards (those with a
// holder), or any card when codes or ids are asked for (reference U2).
func Members(ctx context.Context, programIDOrName string, in *MemberListInput) (*MemberList, error) {
	if in == nil {
		in = &MemberListInput{}
	}
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	n, offset, err := page.Offset(in.Limit, in.Page)
	if err != nil {
		return nil, err
	}
	order, err := memberOrder(in.Order)
	if err != nil {
		return nil, err
	}
	preds := []predicate.Voucher{voucher.CampaignID(cmp.ID)}
	if in.Code == nil && len(in.IDs) == 0 {
		preds = append(preds, voucher.HolderIDNotNil())
	}
	if in.Code != nil {
		preds = append(preds, voucher.Code(*in.Code))
	}
	if len(in.IDs) > 0 {
		preds = append(preds, voucher.Or(voucher.IDIn(in.IDs...), voucher.CodeIn(in.IDs...)))
	}
	if in.Customer != nil {
		cust, err := customer.ByIDOrSourceID(ctx, *in.Customer)
		if err != nil {
			if e, ok := apperr.As(err); ok && e.Code == 404 {
				return &MemberList{Data: []*ent.Voucher{}}, nil
			}
			return nil, err
		}
		preds = append(preds, voucher.HolderID(cust.ID))
	}
	for _, b := range []struct {
		t    *time.Time
		pred func(time.Time) predicate.Voucher
	}{{in.CreatedBefore, voucher.CreatedAtLT}, {in.CreatedAfter, voucher.CreatedAtGT},
		{in.UpdatedBefore, voucher.UpdatedAtLT}, {in.UpdatedAfter, voucher.UpdatedAtGT}} {
		if b.t != nil {
			preds = append(preds, b.pred(*b.t))
		}
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	total, err := c.Voucher.Query().Where(preds...).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting members: %w", err)
	}
	data, err := campaign.WithVoucherCategories(c.Voucher.Query().Where(preds...)).
		Order(order...).Limit(n).Offset(offset).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing members: %w", err)
	}
	return &MemberList{Total: total, Data: data}, nil
}

// memberOrder is the list order (the ID breaks ties).
func memberOrder(order *string) ([]voucher.OrderOption, error) {
	o := "-created_at"
	if order != nil && *order != "" {
		o = *order
	}
	dir := sql.OrderAsc()
	field := o
	if o[0] == '-' {
		dir, field = sql.OrderDesc(), o[1:]
	}
	by := map[string]func(...sql.OrderTermOption) voucher.OrderOption{
		voucher.FieldCreatedAt: voucher.ByCreatedAt, voucher.FieldUpdatedAt: voucher.ByUpdatedAt, voucher.FieldCode: voucher.ByCode,
	}[field]
	if by == nil {
		return nil, apperr.InvalidQueryParams("Query parameter order must be one of created_at, updated_at, code (- for descending), got %q", o)
	}
	return []voucher.OrderOption{by(dir), voucher.ByID(dir)}, nil
}
