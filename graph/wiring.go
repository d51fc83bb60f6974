package graph

import (
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/campaign"
	"github.com/promoengine/promoengine/graph/customer"
	"github.com/promoengine/promoengine/graph/job"
)

// Wiring: the calls that would point upwards — a lower domain reacting
// to something of a higher one — are registered here, at program start.
func init() {
	// Custom events and segment entries earn loyalty points.
	customer.Earning = ruleEarning{}
	// A deleted category leaves the project's stacking rules.
	campaign.OnCategoryDeleted = forgetStackingCategory

	// The job types every worker runs, and who runs them.
	for typ, h := range campaign.JobHandlers() {
		job.Register(typ, h)
	}
	job.Register(JobExportVoucherTransactions, job.Handler{Run: runExport, Failed: failExport,
		Message: func(j *ent.AsyncAction) (string, string) {
			return fmt.Sprintf("%d row(s) exported", j.Done), "generated"
		}})
}
