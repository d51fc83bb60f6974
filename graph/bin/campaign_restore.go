package bin

import (
	"context"
	"fmt"
	"net/http"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/ent/binrecord"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/category"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/validationrule"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/apperr"

	"entgo.io/ent/dialect/sql"
)

// SyncRestoreLimit is the most vouchers a campaign's restore re-creates in
// the request; a campaign with more comes back by a CAMPAIGN.RESTORE job.
const SyncRestoreLimit = 1000

// JobCampaignRestore is the async action type of a large campaign's
// restore.
const JobCampaignRestore = "CAMPAIGN.RESTORE"

// restoreCampaign restores a campaign's entry: the claim (BINNED →
// RESTORING, so of two restores the second finds the entry taken or gone),
// the conflict checks, the campaign's row (disabled until its vouchers are
// back) with its rule assignments and promotion tiers and stacks, then its
// vouchers: here when they are at most SyncRestoreLimit (the entry goes),
// else by a job whose id the answer carries.
func restoreCampaign(ctx context.Context, c *ent.Client, e *ent.BinEntry) (*Entry, error) {
	switch e.State {
	case binentry.StateDELETING:
		return nil, deletionInProgress(e.ID)
	case binentry.StateRESTORING:
		return nil, restoreInProgress(e.ID)
	}
	var snap *Snapshot
	if len(e.Snapshot) > 0 && string(e.Snapshot) != "null" {
		var err error
		if snap, err = decodeSnapshot(e.Snapshot); err != nil {
			return nil, err
		}
	}
	if snap == nil || snap.Campaign == nil || snap.Campaign.Campaign == nil {
		return nil, notRestorable(e.ID, "This campaign was deleted before the bin kept campaigns' vouchers; it can only be deleted")
	}
	n, err := c.BinEntry.Update().Where(binentry.ID(e.ID), binentry.StateEQ(binentry.StateBINNED)).
		SetState(binentry.StateRESTORING).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("claiming the bin entry: %w", err)
	}
	if n == 0 {
		if gone, err := c.BinEntry.Query().Where(binentry.ID(e.ID)).Exist(ctx); err != nil || !gone {
			return nil, apperr.NotFound(ResourceType, e.ID)
		}
		return nil, restoreInProgress(e.ID)
	}
	cs := snap.Campaign
	if err := checkCampaignFree(ctx, c, e.ID, cs.Campaign); err != nil {
		return nil, err
	}
	if err := createCampaign(ctx, c, cs); err != nil {
		return nil, err
	}
	total, err := c.BinRecord.Query().Where(binrecord.EntryID(e.ID)).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting the campaign's vouchers in the bin: %w", err)
	}
	out := entryOf(e)
	if total <= SyncRestoreLimit {
		if _, err := restoreRecords(ctx, c, e.ID, cs.Campaign.ID, total+1); err != nil {
			return nil, err
		}
		return out, finishCampaignRestore(ctx, c, e.ID)
	}
	job, err := c.AsyncAction.Create().SetType(JobCampaignRestore).SetCampaignID(cs.Campaign.ID).
		SetParams(&jsonfield.GenerationParams{}).SetTotal(total).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("scheduling the campaign's restore: %w", err)
	}
	out.AsyncActionID = &job.ID
	return out, nil
}

// checkCampaignFree refuses (409 duplicate_found) a restore whose campaign
// id or name, or one of whose vouchers' ids or codes, is taken now: the
// name and codes stay reserved while binned, so only rows written past the
// API's checks can take them.
func checkCampaignFree(ctx context.Context, c *ent.Client, entryID string, cmp *ent.Campaign) error {
	taken, err := c.Campaign.Query().Where(campaign.Or(campaign.ID(cmp.ID), campaign.Name(cmp.Name))).Exist(ctx)
	if err != nil {
		return fmt.Errorf("checking the restored campaign's name: %w", err)
	}
	if taken {
		return apperr.Duplicate(TypeCampaign, fmt.Sprintf("The campaign cannot be restored: a campaign named %s exists", cmp.Name))
	}
	clash, err := c.BinRecord.Query().Where(binrecord.EntryID(entryID), func(s *sql.Selector) {
		v := sql.Table(voucher.Table)
		byCode := sql.Select(v.C(voucher.FieldID)).From(v).Where(sql.And(
			sql.ColumnsEQ(v.C(voucher.FieldProjectID), s.C(binrecord.FieldProjectID)),
			sql.ColumnsEQ(v.C(voucher.FieldCode), s.C(binrecord.FieldCode))))
		byID := sql.Select(v.C(voucher.FieldID)).From(v).Where(sql.ColumnsEQ(v.C(voucher.FieldID), s.C(binrecord.FieldID)))
		s.Where(sql.Or(sql.Exists(byCode), sql.Exists(byID)))
	}).First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking the restored vouchers' codes: %w", err)
	}
	return apperr.Duplicate(TypeVoucher, fmt.Sprintf("The campaign cannot be restored: its voucher code %s is taken", clash.Code))
}

// createCampaign re-creates the campaign's row, disabled and with no
// voucher counted (the restore of its vouchers counts them and the last
// step enables it as it was), then its rule assignments whose rule still
// exists and its promotion tiers and stacks. A category deleted meanwhile
// is left out.
func createCampaign(ctx context.Context, c *ent.Client, cs *CampaignSnapshot) error {
	row := *cs.Campaign
	live, err := liveCategories(ctx, c, row.CategoryID)
	if err != nil {
		return err
	}
	if row.CategoryID != nil && !live[*row.CategoryID] {
		row.CategoryID = nil
	}
	create := c.Campaign.Create().SetID(row.ID)
	if err := fillMutation(create.Mutation(), &row); err != nil {
		return err
	}
	if err := create.SetActive(false).SetVouchersCount(0).Exec(ctx); err != nil {
		return restoreConflict(TypeCampaign, err)
	}
	if err := createAssignments(ctx, c, cs.Assignments); err != nil {
		return err
	}
	for _, t := range cs.Tiers {
		tier := *t
		if tier.CategoryID != nil {
			if live, err = liveCategories(ctx, c, tier.CategoryID); err != nil {
				return err
			} else if !live[*tier.CategoryID] {
				tier.CategoryID = nil
			}
		}
		create := c.PromotionTier.Create().SetID(tier.ID)
		if err := fillMutation(create.Mutation(), &tier); err != nil {
			return err
		}
		if err := create.Exec(ctx); err != nil {
			return restoreConflict("promotion_tier", err)
		}
	}
	for _, s := range cs.Stacks {
		create := c.PromotionStack.Create().SetID(s.ID)
		if err := fillMutation(create.Mutation(), s); err != nil {
			return err
		}
		if err := create.Exec(ctx); err != nil {
			return restoreConflict("promotion_stack", err)
		}
	}
	return nil
}

// createAssignments re-creates rule assignments whose rule still exists.
func createAssignments(ctx context.Context, c *ent.Client, as []*ent.ValidationRuleAssignment) error {
	if len(as) == 0 {
		return nil
	}
	ruleIDs := make([]string, 0, len(as))
	for _, a := range as {
		ruleIDs = append(ruleIDs, a.RuleID)
	}
	live, err := c.ValidationRule.Query().Where(validationrule.IDIn(ruleIDs...)).IDs(ctx)
	if err != nil {
		return fmt.Errorf("reading the restored rule assignments' rules: %w", err)
	}
	alive := make(map[string]bool, len(live))
	for _, id := range live {
		alive[id] = true
	}
	rows := make([]*ent.ValidationRuleAssignmentCreate, 0, len(as))
	for _, a := range as {
		if !alive[a.RuleID] {
			continue // the rule was deleted meanwhile
		}
		create := c.ValidationRuleAssignment.Create().SetID(a.ID)
		if err := fillMutation(create.Mutation(), a); err != nil {
			return err
		}
		rows = append(rows, create)
	}
	for start := 0; start < len(rows); start += recordChunk {
		if err := c.ValidationRuleAssignment.CreateBulk(rows[start:min(start+recordChunk, len(rows))]...).Exec(ctx); err != nil {
			return restoreConflict("validation_rules_assignment", err)
		}
	}
	return nil
}

// liveCategories reports which of the category ids still exist.
func liveCategories(ctx context.Context, c *ent.Client, ids ...*string) (map[string]bool, error) {
	var want []string
	for _, id := range ids {
		if id != nil {
			want = append(want, *id)
		}
	}
	out := map[string]bool{}
	if len(want) == 0 {
		return out, nil
	}
	live, err := c.Category.Query().Where(category.IDIn(want...)).IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the restored rows' categories: %w", err)
	}
	for _, id := range live {
		out[id] = true
	}
	return out, nil
}

// CheckNotRestoring refuses (409 restore_in_progress) the delete of a
// campaign whose restore job still runs.
func CheckNotRestoring(ctx context.Context, campaignID string) error {
	c := ent.FromContext(ctx)
	busy, err := c.AsyncAction.Query().Where(asyncaction.CampaignID(campaignID), asyncaction.Type(JobCampaignRestore),
		asyncaction.StatusIn(asyncaction.StatusENQUEUED, asyncaction.StatusIN_PROGRESS)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("reading the campaign's restore: %w", err)
	}
	if busy {
		e := apperr.New(http.StatusConflict, "restore_in_progress", "Campaign is being restored",
			"The campaign's vouchers are being restored from the trash bin; try again when its restore job is done")
		e.ResourceID, e.ResourceType = campaignID, TypeCampaign
		return e
	}
	return nil
}

// deletionInProgress is the 409 of a campaign's entry whose deletion job
// still runs.
func deletionInProgress(id string) *apperr.Error {
	e := apperr.New(http.StatusConflict, "deletion_in_progress", "Campaign deletion in progress",
		"The campaign's deletion job is still running; restore it when the job is done")
	e.ResourceID, e.ResourceType = id, ResourceType
	return e
}

// restoreInProgress is the 409 of an entry whose restore job runs.
func restoreInProgress(id string) *apperr.Error {
	e := apperr.New(http.StatusConflict, "restore_in_progress", "Bin entry is being restored",
		"The campaign's restore job is running; the entry goes when it is done")
	e.ResourceID, e.ResourceType = id, ResourceType
	return e
}
