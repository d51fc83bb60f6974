package loyaltyv1

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
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
	// Code keeps the card with this code; IDs keeps these cards (v_…).
	// With either, unpublished cards are listed too.
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
// holder), or any card when codes or ids are asked for (reference U2);
// the voucher list of graph/campaign, limited to the program.
func Members(ctx context.Context, programIDOrName string, in *MemberListInput) (*MemberList, error) {
	if in == nil {
		in = &MemberListInput{}
	}
	cmp, err := Program(ctx, programIDOrName)
	if err != nil {
		return nil, err
	}
	res, err := campaign.ListVouchers(ctx, &campaign.VoucherListInput{Limit: in.Limit, Page: in.Page, CampaignID: &cmp.ID,
		Customer: in.Customer, Code: in.Code, IDs: in.IDs, CreatedBefore: in.CreatedBefore, CreatedAfter: in.CreatedAfter,
		UpdatedBefore: in.UpdatedBefore, UpdatedAfter: in.UpdatedAfter, Order: in.Order,
		HeldOnly: in.Code == nil && len(in.IDs) == 0})
	if err != nil {
		return nil, err
	}
	return &MemberList{Total: res.Total, Data: res.Data}, nil
}
