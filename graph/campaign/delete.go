package campaign

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/ent/redemption"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/sessionlock"
	"github.com/promoengine/promoengine/ent/validationruleassignment"
	"github.com/promoengine/promoengine/ent/voucher"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/bin"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
	jobrun "github.com/promoengine/promoengine/graph/job"
)

// JobCampaignDelete is the async action type of a campaign deletion.
const JobCampaignDelete = "CAMPAIGN.DELETE"

// DeleteCampaign schedules the deletion of a campaign with all its
// Vouchers (and their redemptions, transactions, session locks, rule
// assignments and publication links) as a background job, and disables the
// campaign at once so its codes stop validating while the job runs.
// Without force=true the campaign is moved to the trash bin first: a bin
// entry keeps its name reserved, the job keeps each voucher as a record of
// the entry and the campaign's row as its snapshot, for a restore
// (docs/trash-bin.md). A campaign whose restore job still runs is a 409. A deletion already
// scheduled is returned again instead of a second one (and no second
// bin entry is made).
func DeleteCampaign(ctx context.Context, idOrName string, force *bool) (*ent.AsyncAction, error) {
	cmp, err := ByIDOrName(ctx, idOrName)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := store.LockKey(ctx, "campaign-delete:"+cmp.ID); err != nil {
		return nil, err
	}
	if err := bin.CheckNotRestoring(ctx, cmp.ID); err != nil {
		return nil, err
	}
	scheduled := c.AsyncAction.Query().Where(asyncaction.CampaignID(cmp.ID), asyncaction.Type(JobCampaignDelete),
		asyncaction.StatusIn(asyncaction.StatusENQUEUED, asyncaction.StatusIN_PROGRESS))
	if job, err := scheduled.First(ctx); err == nil {
		return job, nil
	} else if !ent.IsNotFound(err) {
		return nil, fmt.Errorf("looking up campaign deletion: %w", err)
	}
	count, err := c.Voucher.Query().Where(voucher.CampaignID(cmp.ID)).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting the campaign's vouchers: %w", err)
	}
	if !bin.Skip(force) {
		name, active := cmp.Name, cmp.Active
		if err := bin.Move(ctx, bin.Resource{Type: bin.TypeCampaign, ID: cmp.ID, Name: cmp.Name, Reserved: &name,
			Snapshot: &bin.Snapshot{WasActive: &active, WasUpdatedAt: cmp.UpdatedAt}, Deleting: true}); err != nil {
			return nil, err
		}
	}
	if err := c.Campaign.UpdateOne(cmp).SetActive(false).Exec(ctx); err != nil {
		return nil, fmt.Errorf("disabling campaign: %w", err)
	}
	job, err := c.AsyncAction.Create().SetType(JobCampaignDelete).SetCampaignID(cmp.ID).
		SetParams(&jsonfield.GenerationParams{}).SetTotal(count).SetNillableRequestID(RequestIDPtr(ctx)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("scheduling campaign deletion: %w", err)
	}
	return job, nil
}

// DeleteCampaignJob deletes the job's campaign one committed batch of
// Vouchers at a time, then the campaign itself. A restart resumes it.
func DeleteCampaignJob(ctx context.Context, w *jobrun.Worker, job *ent.AsyncAction) error {
	if job.CampaignID == nil {
		return fmt.Errorf("job %s names no campaign", job.ID)
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := w.CommitBatch(ctx, job, func(ctx context.Context) (int, error) {
			return deleteVoucherBatch(ctx, *job.CampaignID, w.BatchSize)
		})
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
	}
	_, err := w.CommitBatch(ctx, job, func(ctx context.Context) (int, error) {
		c := ent.FromContext(ctx)
		if _, err := deleteVoucherBatch(ctx, *job.CampaignID, w.BatchSize); err != nil {
			return 0, err
		}
		if err := bin.KeepCampaign(ctx, *job.CampaignID); err != nil {
			return 0, err
		}
		if _, err := c.ValidationRuleAssignment.Delete().Where(
			validationruleassignment.RelatedObjectID(*job.CampaignID)).Exec(ctx); err != nil {
			return 0, fmt.Errorf("deleting the campaign's rule assignments: %w", err)
		}
		if err := emitCampaignDeleted(ctx, *job.CampaignID); err != nil {
			return 0, err
		}
		if _, err := c.Campaign.Delete().Where(campaign.ID(*job.CampaignID)).Exec(ctx); err != nil {
			return 0, fmt.Errorf("deleting campaign: %w", err)
		}
		return 0, nil
	})
	return err
}

// deleteVoucherBatch deletes up to n vouchers of a campaign with what
// hangs on them and reports how many it deleted.
func deleteVoucherBatch(ctx context.Context, campaignID string, n int) (int, error) {
	c := ent.FromContext(ctx)
	ids, err := c.Voucher.Query().Where(voucher.CampaignID(campaignID)).Order(ent.Asc(voucher.FieldID)).Limit(n).IDs(ctx)
	if err != nil || len(ids) == 0 {
		return 0, store.WrapErr("listing the campaign's vouchers", err)
	}
	if err := bin.KeepVouchers(ctx, campaignID, ids); err != nil {
		return 0, err
	}
	return len(ids), deleteVouchers(ctx, c, ids)
}

// deleteVouchers deletes vouchers with their redemptions, transactions,
// session locks, validation-rule assignments and publication links; the
// publications keep what the vouchers looked like (keepPublishedVouchers).
// The caller keeps campaign counters right.
func deleteVouchers(ctx context.Context, c *ent.Client, ids []string) error {
	if err := keepPublishedVouchers(ctx, c, ids); err != nil {
		return err
	}
	steps := []struct {
		what string
		run  func() (int, error)
	}{
		{"redemptions", func() (int, error) { return c.Redemption.Delete().Where(redemption.VoucherIDIn(ids...)).Exec(ctx) }},
		{"transactions", func() (int, error) {
			return c.VoucherTransaction.Delete().Where(vouchertransaction.VoucherIDIn(ids...)).Exec(ctx)
		}},
		{"session locks", func() (int, error) { return c.SessionLock.Delete().Where(sessionlock.VoucherIDIn(ids...)).Exec(ctx) }},
		{"rule assignments", func() (int, error) {
			return c.ValidationRuleAssignment.Delete().Where(validationruleassignment.RelatedObjectIDIn(ids...)).Exec(ctx)
		}},
		{"publication links", func() (int, error) {
			return c.Voucher.Update().Where(voucher.IDIn(ids...)).ClearPublications().Save(ctx)
		}},
		{"vouchers", func() (int, error) { return c.Voucher.Delete().Where(voucher.IDIn(ids...)).Exec(ctx) }},
	}
	for _, s := range steps {
		if _, err := s.run(); err != nil {
			return fmt.Errorf("deleting %s: %w", s.what, err)
		}
	}
	page.ForgetProjectTotals(ctx, redemption.Table) // the project's redemptions are counted again
	return nil
}
