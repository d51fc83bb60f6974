package campaign

import (
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/job"
)

// JobHandlers are the handlers of the jobs of campaigns and vouchers, by
// job type; the wiring registers them with the job runner
// (graph/wiring.go). The generation handler also runs jobs of unknown
// types (job.Fallback), as the worker always did.
func JobHandlers() map[string]job.Handler {
	generation := job.Handler{Run: Generate, Finished: EmitGenerationDone}
	return map[string]job.Handler{
		JobVouchersGeneration: generation,
		job.Fallback:          generation,
		JobCampaignDelete: {Run: DeleteCampaignJob,
			Message: func(j *ent.AsyncAction) (string, string) {
				return fmt.Sprintf("The campaign and %d voucher(s) deleted", j.Done), "deleted"
			}},
		JobVouchersImport:            {Run: RunImport, Result: BulkResult},
		JobVouchersBulkUpdate:        {Run: RunBulkUpdate, Result: BulkResult},
		JobVouchersMetadataUpdate:    {Run: RunBulkUpdate, Result: BulkResult},
		JobVouchersImportCSV:         {Run: RunImportVouchersCSV, Result: BulkResult, Finished: job.DeleteUploadWhenFinished},
		JobCampaignVouchersImport:    {Run: RunCampaignImport, Result: BulkResult},
		JobCampaignVouchersImportCSV: {Run: RunCampaignImportCSV, Result: BulkResult, Finished: job.DeleteUploadWhenFinished},
	}
}
