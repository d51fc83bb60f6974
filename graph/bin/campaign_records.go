package bin

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/ent/binrecord"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/graph/job"
)

// JobHandlers are the bin's job handlers, by type; the wiring registers
// them with the job runner.
func JobHandlers() map[string]job.Handler {
	return map[string]job.Handler{
		JobCampaignRestore: {Run: RestoreCampaignJob,
			Message: func(j *ent.AsyncAction) (string, string) {
				return fmt.Sprintf("The campaign and %d voucher(s) restored", j.Done), "restored"
			}},
	}
}

// RestoreCampaignJob re-creates the vouchers of the job's campaign from its
// RESTORING bin entry's records, one committed batch at a time (each batch
// inserts its vouchers and deletes their records: a restart resumes with
// the records left, never twice the same voucher), then enables the
// campaign as it was and deletes the entry.
func RestoreCampaignJob(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	if j.CampaignID == nil {
		return fmt.Errorf("job %s names no campaign", j.ID)
	}
	campaignID := *j.CampaignID
	e, err := ent.FromContext(ctx).BinEntry.Query().Where(binentry.ResourceTypeEQ(binentry.ResourceTypeCampaign),
		binentry.ResourceID(campaignID), binentry.StateEQ(binentry.StateRESTORING), binentry.ParentEntryIDIsNil()).First(ctx)
	if ent.IsNotFound(err) {
		return nil // finished before a restart
	}
	if err != nil {
		return fmt.Errorf("reading the restored campaign's bin entry: %w", err)
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := w.CommitBatch(ctx, j, func(ctx context.Context) (int, error) {
			return restoreRecords(ctx, ent.FromContext(ctx), e.ID, campaignID, w.BatchSize)
		})
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
	}
	_, err = w.CommitBatch(ctx, j, func(ctx context.Context) (int, error) {
		return 0, finishCampaignRestore(ctx, ent.FromContext(ctx), e.ID)
	})
	return err
}

// restoreRecords re-creates up to n vouchers of the entry's records (same
// id, code and fields, with their rule assignments whose rule still
// exists, linked to their publications again), deletes those records and counts the vouchers in the campaign;
// it reports how many records it took. A voucher whose category was
// deleted meanwhile comes back without it. A voucher whose id or code was
// taken meanwhile (only possible past the API: the codes stay reserved)
// is not re-created.
func restoreRecords(ctx context.Context, c *ent.Client, entryID, campaignID string, n int) (int, error) {
	recs, err := c.BinRecord.Query().Where(binrecord.EntryID(entryID)).
		Order(ent.Asc(binrecord.FieldID)).Limit(n).All(ctx)
	if err != nil || len(recs) == 0 {
		return 0, wrapRecords(err)
	}
	snaps := make([]*Snapshot, len(recs))
	ids, codes := make([]string, len(recs)), make([]string, len(recs))
	var categories []*string
	for i, r := range recs {
		if snaps[i], err = decodeSnapshot(r.Snapshot); err != nil {
			return 0, err
		}
		if snaps[i].Voucher == nil {
			return 0, fmt.Errorf("bin record %s holds no voucher", r.ID)
		}
		ids[i], codes[i] = r.ID, r.Code
		categories = append(categories, snaps[i].Voucher.CategoryID)
	}
	taken, err := c.Voucher.Query().Where(voucher.Or(voucher.IDIn(ids...), voucher.CodeIn(codes...))).
		Select(voucher.FieldID, voucher.FieldCode).All(ctx)
	if err != nil {
		return 0, wrapRecords(err)
	}
	skip := map[string]bool{}
	for _, v := range taken {
		skip[v.ID], skip[v.Code] = true, true
	}
	live, err := liveCategories(ctx, c, categories...)
	if err != nil {
		return 0, err
	}
	vouchers := make([]*ent.VoucherCreate, 0, len(recs))
	restored := make([]*ent.Voucher, 0, len(recs))
	var assignments []*ent.ValidationRuleAssignment
	for _, s := range snaps {
		v := *s.Voucher
		if skip[v.ID] || skip[v.Code] {
			continue
		}
		if v.CategoryID != nil && !live[*v.CategoryID] {
			v.CategoryID = nil
		}
		create := c.Voucher.Create().SetID(v.ID)
		if err := fillMutation(create.Mutation(), &v); err != nil {
			return 0, err
		}
		vouchers, restored = append(vouchers, create), append(restored, &v)
		assignments = append(assignments, s.Assignments...)
	}
	for start := 0; start < len(vouchers); start += recordChunk {
		if err := c.Voucher.CreateBulk(vouchers[start:min(start+recordChunk, len(vouchers))]...).Exec(ctx); err != nil {
			return 0, restoreConflict(TypeVoucher, err)
		}
	}
	if err := relinkPublications(ctx, c, restored); err != nil {
		return 0, err
	}
	if err := createAssignments(ctx, c, assignments); err != nil {
		return 0, err
	}
	if _, err := c.BinRecord.Delete().Where(binrecord.IDIn(ids...)).Exec(ctx); err != nil {
		return 0, wrapRecords(err)
	}
	if err := c.Campaign.Update().Where(campaign.ID(campaignID)).AddVouchersCount(len(vouchers)).Exec(ctx); err != nil {
		return 0, fmt.Errorf("counting the restored vouchers: %w", err)
	}
	return len(recs), nil
}

// finishCampaignRestore enables the restored campaign as it was before its
// delete (active, updated_at) and deletes its bin entry (the name is the
// campaign's again).
func finishCampaignRestore(ctx context.Context, c *ent.Client, entryID string) error {
	e, err := c.BinEntry.Get(ctx, entryID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the restored campaign's bin entry: %w", err)
	}
	snap, err := decodeSnapshot(e.Snapshot)
	if err != nil {
		return err
	}
	if snap.Campaign != nil && snap.Campaign.Campaign != nil {
		was := snap.Campaign.Campaign
		upd := c.Campaign.UpdateOneID(e.ResourceID).SetActive(was.Active)
		if was.UpdatedAt != nil {
			upd.SetUpdatedAt(*was.UpdatedAt)
		} else {
			upd.ClearUpdatedAt()
		}
		if err := upd.Exec(ctx); err != nil {
			return fmt.Errorf("enabling the restored campaign: %w", err)
		}
	}
	if err := c.BinEntry.DeleteOneID(entryID).Exec(ctx); err != nil {
		return fmt.Errorf("deleting the restored campaign's bin entry: %w", err)
	}
	return nil
}

func wrapRecords(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("restoring the campaign's vouchers: %w", err)
}
