package export

import (
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/job"
)

// JobHandlers are the handlers of export jobs, by job type; the wiring
// registers them with the job runner (graph/wiring.go).
func JobHandlers() map[string]job.Handler {
	return map[string]job.Handler{
		JobExportVoucherTransactions: {Run: RunExport, Failed: FailExport, Message: rowsExported},
		JobExportOrders:              {Run: RunOrdersExport, Failed: FailExport, Message: rowsExported},
		JobExportCustomers:           {Run: RunCustomersExport, Failed: FailExport, Message: rowsExported},
		JobExportVouchers:            {Run: RunVouchersExport, Failed: FailExport, Message: rowsExported},
		JobExportPointsExpiration:    {Run: RunPointsExpirationExport, Failed: FailExport, Message: rowsExported},
		JobExportRedemptions:         {Run: RunRedemptionsExport, Failed: FailExport, Message: rowsExported},
		JobExportPublications:        {Run: RunPublicationsExport, Failed: FailExport, Message: rowsExported},
	}
}

// rowsExported is an export job's result message.
func rowsExported(j *ent.AsyncAction) (string, string) {
	return fmt.Sprintf("%d row(s) exported", j.Done), "generated"
}
