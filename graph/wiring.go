package graph

import (
	"github.com/promoengine/promoengine/graph/customer"

	jobrun "github.com/promoengine/promoengine/graph/job"

	"fmt"

	"github.com/promoengine/promoengine/ent"
)

// JobVouchersGeneration is the async action type of bulk voucher generation.
const JobVouchersGeneration = "CAMPAIGN.VOUCHERS_GENERATION"

// Wiring: the calls that would point upwards — a lower domain reacting
// to something of a higher one — are registered here, at program start.
func init() {
	// Custom events and segment entries earn loyalty points.
	customer.Earning = ruleEarning{}

	// The job types every worker runs, and who runs them.
	generation := jobrun.Handler{Run: generate, Finished: emitGenerationDone}
	jobrun.Register(JobVouchersGeneration, generation)
	jobrun.Register(jobrun.Fallback, generation)
	jobrun.Register(JobCampaignDelete, jobrun.Handler{Run: deleteCampaignJob,
		Message: func(job *ent.AsyncAction) (string, string) {
			return fmt.Sprintf("The campaign and %d voucher(s) deleted", job.Done), "deleted"
		}})
	jobrun.Register(JobVouchersImport, jobrun.Handler{Run: runImport, Result: bulkResult})
	jobrun.Register(JobVouchersBulkUpdate, jobrun.Handler{Run: runBulkUpdate, Result: bulkResult})
	jobrun.Register(JobExportVoucherTransactions, jobrun.Handler{Run: runExport, Failed: failExport,
		Message: func(job *ent.AsyncAction) (string, string) {
			return fmt.Sprintf("%d row(s) exported", job.Done), "generated"
		}})
}
