package job

import (
	"context"
	"fmt"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/campaign"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// The end of a job (jobs.go): its outcome, and the status of its campaign
// or export.

// finish records the job's outcome and the campaign's generation status.
func (w *Worker) finish(ctx context.Context, job *ent.AsyncAction, failure error) error {
	return store.InTx(ctx, func(ctx context.Context) (err error) {
		c := ent.FromContext(ctx)
		job, err := c.AsyncAction.Get(ctx, job.ID)
		if err != nil {
			return fmt.Errorf("finishing job: %w", err)
		}
		h := handlerFor(job.Type)
		defer func() { // the event shows the campaign and job as finished
			if err == nil && h.Finished != nil {
				err = h.Finished(ctx, job.ID, failure)
			}
		}()
		upd := c.AsyncAction.UpdateOne(job).SetFinishedAt(time.Now().UTC()).ClearClaimedBy().ClearLeaseUntil()
		status := campaign.VouchersGenerationStatusDONE
		if failure != nil && h.Failed != nil {
			if err := h.Failed(ctx, c, job, failure); err != nil {
				return fmt.Errorf("finishing job: %w", err)
			}
		}
		message, counted := fmt.Sprintf("%d voucher(s) generated successfully", job.Done), "generated"
		if h.Message != nil {
			message, counted = h.Message(job)
		}
		if failure != nil {
			status = campaign.VouchersGenerationStatusFAILED
			upd.SetStatus(asyncaction.StatusFAILED).SetFailureReason(failure.Error()).
				SetResult(map[string]any{"message": failure.Error(), counted: job.Done})
		} else {
			upd.SetStatus(asyncaction.StatusDONE).
				SetResult(map[string]any{"message": message, counted: job.Done})
		}
		if h.Result != nil {
			if res := h.Result(job, failure); res != nil {
				upd.SetResult(res)
			}
		}
		if err := upd.Exec(ctx); err != nil {
			return fmt.Errorf("finishing job: %w", err)
		}
		if job.CampaignID == nil {
			return nil
		}
		// The campaign stays IN_PROGRESS while another job still runs for it.
		busy, err := c.AsyncAction.Query().Where(asyncaction.CampaignID(*job.CampaignID), asyncaction.IDNEQ(job.ID),
			asyncaction.StatusIn(asyncaction.StatusENQUEUED, asyncaction.StatusIN_PROGRESS)).Exist(ctx)
		if err != nil {
			return fmt.Errorf("finishing job: %w", err)
		}
		if busy {
			return nil
		}
		cmp := c.Campaign.Update().Where(campaign.ID(*job.CampaignID)).SetVouchersGenerationStatus(status)
		if failure != nil {
			cmp.Where(campaign.CreationStatusNEQ(campaign.CreationStatusDONE)).SetCreationStatus(campaign.CreationStatusFAILED)
		}
		if err := cmp.Exec(ctx); err != nil {
			return fmt.Errorf("finishing job: %w", err)
		}
		if failure == nil {
			return c.Campaign.Update().Where(campaign.ID(*job.CampaignID), campaign.CreationStatusEQ(campaign.CreationStatusIN_PROGRESS)).
				SetCreationStatus(campaign.CreationStatusDONE).Exec(ctx)
		}
		return nil
	})
}
