package bin

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/ent/promotionstack"
	"github.com/promoengine/promoengine/ent/promotiontier"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// recordChunk bounds the rows of one bulk insert (a voucher has ~30
// columns: within SQLite's and PostgreSQL's parameter limits).
const recordChunk = 500

// KeepVouchers is called by the CAMPAIGN.DELETE job before it deletes a
// batch of the campaign's vouchers, in the batch's transaction: when the
// campaign's bin entry is DELETING (a delete without force, made since
// campaigns can be restored), each voucher is stored as a record of the
// entry (the voucher's row and its rule assignments, counters as they are
// now), so the voucher is always either live or a record. A delete with
// force, an older entry or an entry deleted meanwhile keeps nothing.
func KeepVouchers(ctx context.Context, campaignID string, ids []string) error {
	c := ent.FromContext(ctx)
	e, err := deletingEntry(ctx, c, campaignID)
	if err != nil || e == nil || len(ids) == 0 {
		return err
	}
	vouchers, err := c.Voucher.Query().Where(voucher.IDIn(ids...)).All(ctx)
	if err != nil {
		return fmt.Errorf("reading the vouchers kept in the bin: %w", err)
	}
	assigned, err := c.ValidationRuleAssignment.Query().
		Where(validationruleassignment.RelatedObjectIDIn(ids...)).All(ctx)
	if err != nil {
		return fmt.Errorf("reading the rule assignments kept in the bin: %w", err)
	}
	byVoucher := map[string][]*ent.ValidationRuleAssignment{}
	for _, a := range assigned {
		byVoucher[a.RelatedObjectID] = append(byVoucher[a.RelatedObjectID], a)
	}
	rows := make([]*ent.BinRecordCreate, 0, len(vouchers))
	for _, v := range vouchers {
		raw, err := (&Snapshot{Voucher: v, Assignments: byVoucher[v.ID]}).encode()
		if err != nil {
			return err
		}
		rows = append(rows, c.BinRecord.Create().SetID(v.ID).SetEntryID(e.ID).SetCode(v.Code).SetSnapshot(raw))
	}
	for start := 0; start < len(rows); start += recordChunk {
		if err := c.BinRecord.CreateBulk(rows[start:min(start+recordChunk, len(rows))]...).Exec(ctx); err != nil {
			return fmt.Errorf("keeping the campaign's vouchers in the bin: %w", err)
		}
	}
	return nil
}

// KeepCampaign is called by the CAMPAIGN.DELETE job's last step, before it
// deletes the campaign's rule assignments and row (which takes its
// promotion tiers and stacks): the campaign's DELETING entry gets the
// campaign's snapshot and becomes BINNED, restorable.
func KeepCampaign(ctx context.Context, campaignID string) error {
	c := ent.FromContext(ctx)
	e, err := deletingEntry(ctx, c, campaignID)
	if err != nil || e == nil {
		return err
	}
	cmp, err := c.Campaign.Get(ctx, campaignID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the campaign kept in the bin: %w", err)
	}
	if len(e.Snapshot) > 0 {
		before, err := decodeSnapshot(e.Snapshot)
		if err != nil {
			return err
		}
		if before.WasActive != nil {
			cmp.Active, cmp.UpdatedAt = *before.WasActive, before.WasUpdatedAt
		}
	}
	snap := &CampaignSnapshot{Campaign: cmp}
	if snap.Assignments, err = c.ValidationRuleAssignment.Query().
		Where(validationruleassignment.RelatedObjectID(campaignID)).All(ctx); err != nil {
		return fmt.Errorf("reading the campaign's rule assignments: %w", err)
	}
	if snap.Tiers, err = c.PromotionTier.Query().Where(promotiontier.CampaignID(campaignID)).All(ctx); err != nil {
		return fmt.Errorf("reading the campaign's promotion tiers: %w", err)
	}
	if snap.Stacks, err = c.PromotionStack.Query().Where(promotionstack.CampaignID(campaignID)).All(ctx); err != nil {
		return fmt.Errorf("reading the campaign's promotion stacks: %w", err)
	}
	raw, err := (&Snapshot{Campaign: snap}).encode()
	if err != nil {
		return err
	}
	if err := c.BinEntry.UpdateOneID(e.ID).SetSnapshot(raw).SetState(binentry.StateBINNED).Exec(ctx); err != nil {
		return fmt.Errorf("keeping the campaign in the bin: %w", err)
	}
	return nil
}

// deletingEntry is the campaign's DELETING bin entry (nil: none), held
// (PostgreSQL: FOR SHARE) until the transaction ends, so that a delete
// for good of the entry waits for the batch rather than leaving records
// behind.
func deletingEntry(ctx context.Context, c *ent.Client, campaignID string) (*ent.BinEntry, error) {
	q := c.BinEntry.Query().Where(binentry.ResourceTypeEQ(binentry.ResourceTypeCampaign),
		binentry.ResourceID(campaignID), binentry.StateEQ(binentry.StateDELETING), binentry.ParentEntryIDIsNil())
	if store.IsPostgres(ctx) {
		q = q.ForShare()
	}
	e, err := q.First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the campaign's bin entry: %w", err)
	}
	return e, nil
}
