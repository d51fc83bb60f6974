// Package referral is the referral codes' holders
// (/v1/referrals[/{campaignId}]/members/{memberId}/holders): a referral
// code (a voucher of a REFERRAL_PROGRAM campaign) has its referrer — the
// customer it was published to — and the referees assigned to it.
package referral

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/referralholder"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	campaigns "github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Holder roles.
const (
	RoleReferrer = "REFERRER"
	RoleReferee  = "REFEREE"
)

// maxHolders bounds the referees one request assigns.
const maxHolders = 100

// Holder is a redeemable_holder of a referral code: its referrer (derived
// from the code's publication) or a referee.
type Holder struct {
	ID          string         `json:"id"`
	CreatedAt   time.Time      `json:"created_at"`
	VoucherID   string         `json:"redeemable_id"`
	CustomerID  string         `json:"customer_id"`
	HolderRole  string         `json:"holder_role"`
	CampaignID  string         `json:"campaign_id"`
	VoucherType string         `json:"voucher_type"`
	Metadata    map[string]any `json:"metadata"`
}

// HoldersInput assigns referees (customers, upserted) to a referral code;
// Metadata is copied to each holder.
type HoldersInput struct {
	Holders  []*customer.CustomerInput `json:"holders"`
	Metadata map[string]any            `json:"metadata"`
}

// HolderListInput pages a code's holders: limit 1-100 (default 10),
// order id or -id (the referees' order; the referrer comes first),
// starting_after_id.
type HolderListInput struct {
	Limit           *int    `json:"limit"`
	Order           *string `json:"order"`
	StartingAfterID *string `json:"starting_after_id"`
	// HolderRole keeps only the REFERRER or the REFEREE entries
	// (filters[holder_role][conditions][$is]).
	HolderRole *string `json:"holder_role"`
}

// HolderList is a page of a code's holders.
type HolderList struct {
	Data    []*Holder `json:"data"`
	Total   int       `json:"total"`
	HasMore bool      `json:"has_more"`
}

// referrerID is the stable id of a code's referrer entry.
func referrerID(v *ent.Voucher) string {
	return pulid.PrefixReferralHolder + strings.TrimPrefix(v.ID, pulid.PrefixVoucher)
}

// referralCode finds a referral code by code or v_ id, in the named
// campaign when campaignRef is set.
func referralCode(ctx context.Context, campaignRef *string, member string) (*ent.Voucher, error) {
	var cmpID string
	if campaignRef != nil && *campaignRef != "" {
		cmp, err := campaigns.ByIDOrName(ctx, *campaignRef)
		if err != nil {
			return nil, err
		}
		if cmp.CampaignType != campaign.CampaignTypeREFERRAL_PROGRAM {
			return nil, apperr.NotFound("campaign", *campaignRef)
		}
		cmpID = cmp.ID
	}
	v, err := campaigns.VoucherByCodeOrID(ctx, member)
	if err != nil {
		return nil, err
	}
	if v.CampaignID == nil || (cmpID != "" && *v.CampaignID != cmpID) {
		return nil, apperr.NotFound("voucher", member)
	}
	if cmpID == "" {
		cmp, err := campaigns.ByIDOrName(ctx, *v.CampaignID)
		if err != nil {
			return nil, err
		}
		if cmp.CampaignType != campaign.CampaignTypeREFERRAL_PROGRAM {
			return nil, apperr.NotFound("voucher", member)
		}
	}
	return v, nil
}

func referrerOf(v *ent.Voucher) *Holder {
	if v.HolderID == nil {
		return nil
	}
	return &Holder{ID: referrerID(v), CreatedAt: v.CreatedAt, VoucherID: v.ID, CustomerID: *v.HolderID, HolderRole: RoleReferrer,
		CampaignID: *v.CampaignID, VoucherType: string(v.Type)}
}

func refereeOf(v *ent.Voucher, h *ent.ReferralHolder) *Holder {
	return &Holder{ID: h.ID, CreatedAt: h.CreatedAt, VoucherID: v.ID, CustomerID: h.CustomerID, HolderRole: RoleReferee,
		CampaignID: h.CampaignID, VoucherType: string(v.Type), Metadata: h.Metadata}
}

// AddHolders serves REST POST /v1/referrals[/{campaignId}]/members/{memberId}/holders
// and addReferralHolders: the customers (upserted) become referees of the
// code, all or none. The code must have been published to its referrer.
func AddHolders(ctx context.Context, campaignRef *string, member string, in HoldersInput) ([]*Holder, error) {
	if len(in.Holders) == 0 {
		return nil, apperr.InvalidPayload("Property .holders must NOT have fewer than 1 items")
	}
	if len(in.Holders) > maxHolders {
		return nil, apperr.InvalidPayload("Property .holders must NOT have more than %d items", maxHolders)
	}
	var out []*Holder
	err := store.WithinTx(ctx, func(ctx context.Context) error {
		v, err := referralCode(ctx, campaignRef, member)
		if err != nil {
			return err
		}
		if v.HolderID == nil {
			return apperr.New(http.StatusBadRequest, "not_published", "Not published",
				"Referral code must be first published to Referrer before assigning it to Referee")
		}
		if err := store.LockKey(ctx, "referral_holders:"+v.ID); err != nil {
			return err
		}
		c, err := store.Client(ctx)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, h := range in.Holders {
			if h == nil {
				return apperr.InvalidPayload("Property .holders must hold customer objects")
			}
			cust, err := customer.ResolveCustomer(ctx, h)
			if err != nil {
				return err
			}
			if seen[cust.ID] {
				e := apperr.Duplicate("customer", fmt.Sprintf("Customer %s is given more than once", cust.ID))
				e.ResourceID = cust.ID
				return e
			}
			seen[cust.ID] = true
			taken := cust.ID == *v.HolderID
			if !taken {
				if taken, err = c.ReferralHolder.Query().Where(referralholder.VoucherID(v.ID), referralholder.CustomerID(cust.ID)).Exist(ctx); err != nil {
					return fmt.Errorf("reading holders: %w", err)
				}
			}
			if taken {
				return &apperr.Error{Code: http.StatusConflict, Key: "holder_assignement_duplication", Message: "Duplicated holder assignment",
					Details: "Customer is already assigned to given redeemable", ResourceID: cust.ID, ResourceType: "customer"}
			}
			create := c.ReferralHolder.Create().SetVoucherID(v.ID).SetCampaignID(*v.CampaignID).SetCustomerID(cust.ID)
			if in.Metadata != nil {
				create.SetMetadata(in.Metadata)
			}
			row, err := create.Save(ctx)
			if err != nil {
				return store.WrapErr("assigning referee", err)
			}
			out = append(out, refereeOf(v, row))
		}
		return nil
	})
	return out, err
}

// Holders serves REST GET /v1/referrals[/{campaignId}]/members/{memberId}/holders
// and referralHolders: the referrer first (on the first page), then the
// referees by id.
func Holders(ctx context.Context, campaignRef *string, member string, in *HolderListInput) (*HolderList, error) {
	if in == nil {
		in = &HolderListInput{}
	}
	limit, err := page.Limit(in.Limit)
	if err != nil {
		return nil, err
	}
	desc, err := page.IDOrder(in.Order)
	if err != nil {
		return nil, err
	}
	role := ""
	if in.HolderRole != nil && *in.HolderRole != "" {
		if role = *in.HolderRole; role != RoleReferrer && role != RoleReferee {
			return nil, apperr.InvalidQueryParams("Filter holder_role must be REFERRER or REFEREE")
		}
	}
	v, err := referralCode(ctx, campaignRef, member)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.ReferralHolder.Query().Where(referralholder.VoucherID(v.ID))
	if role == RoleReferrer {
		q.Where(referralholder.IDIn())
	}
	referees, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting holders: %w", err)
	}
	out := &HolderList{Data: []*Holder{}, Total: referees}
	ref := referrerOf(v)
	if role == RoleReferee {
		ref = nil
	}
	if ref != nil {
		out.Total++
	}
	after := ""
	if in.StartingAfterID != nil {
		after = *in.StartingAfterID
	}
	if after == "" && ref != nil {
		out.Data = append(out.Data, ref)
		limit--
	}
	if after != "" && (ref == nil || after != ref.ID) {
		if desc {
			q.Where(referralholder.IDLT(after))
		} else {
			q.Where(referralholder.IDGT(after))
		}
	}
	order := ent.Asc(referralholder.FieldID)
	if desc {
		order = ent.Desc(referralholder.FieldID)
	}
	rows, err := q.Order(order).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing holders: %w", err)
	}
	if len(rows) > limit {
		rows, out.HasMore = rows[:limit], true
	}
	for _, h := range rows {
		out.Data = append(out.Data, refereeOf(v, h))
	}
	return out, nil
}

// RemoveHolder serves REST DELETE /v1/referrals[/{campaignId}]/members/{memberId}/holders/{holderId}
// and removeReferralHolder: a referee leaves the code; the referrer cannot.
func RemoveHolder(ctx context.Context, campaignRef *string, member, holderID string) (string, error) {
	v, err := referralCode(ctx, campaignRef, member)
	if err != nil {
		return "", err
	}
	if ref := referrerOf(v); ref != nil && ref.ID == holderID {
		return "", apperr.Forbidden("You can not remove Referrer assignment")
	}
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	n, err := c.ReferralHolder.Delete().Where(referralholder.ID(holderID), referralholder.VoucherID(v.ID)).Exec(ctx)
	if err != nil {
		return "", store.WrapErr("removing holder", err)
	}
	if n == 0 {
		return "", apperr.NotFound("redeemable_holder", holderID)
	}
	return holderID, nil
}
