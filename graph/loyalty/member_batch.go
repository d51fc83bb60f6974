package loyalty

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/customer"
	"github.com/promoengine/promoengine/ent/loyaltymember"
	"github.com/promoengine/promoengine/ent/loyaltyprogram"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
	"github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// Member batches (POST /v2/loyalties/programs/{programId}/members/batch),
// as the August document describes them: the request checks the program
// (404; 423 unless ACTIVE) and the list's size, stores the entries with an
// async action and answers its id; the worker enrols them a batch of
// job.BulkBatch per committed transaction (graph/job/bulk.go: a job
// resumes after its last committed batch, so an entry is never handled
// twice), each entry through CreateLoyaltyMember — the use case of a
// single member, whose per-customer lock and existence check keep two
// processes from enrolling one customer twice. A failing entry (unknown
// customer, bad status, already a member, a duplicate of an earlier entry)
// is reported in the job's result and skipped; the others are enrolled.

// JobMembersBatch is the async action type of a member batch.
const JobMembersBatch = "LOYALTY.MEMBERS_BATCH_CREATE"

// MemberBatchEntry is one entry of a member batch: the customer by
// customer_identification (customer_id or customer_source_id) or by a
// top-level customer_id, and the member's status and metadata.
type MemberBatchEntry struct {
	CustomerIdentification *ExamineIdentification `json:"customer_identification"`
	CustomerID             *string                `json:"customer_id"`
	Status                 *loyaltymember.Status  `json:"status"`
	Metadata               map[string]any         `json:"metadata"`
}

// memberBatchJob is what the job stores: the program and its entries.
type memberBatchJob struct {
	ProgramID string            `json:"program_id"`
	Entry     *MemberBatchEntry `json:"entry"`
}

// BatchCreateMembers schedules the enrolment of entries in the program.
func BatchCreateMembers(ctx context.Context, programID string, entries []*MemberBatchEntry) (*ent.AsyncAction, error) {
	p, err := loyaltybase.Program(ctx, programID)
	if err != nil {
		return nil, err
	}
	if p.Status != loyaltyprogram.StatusACTIVE {
		return nil, loyaltybase.Locked423("program_not_active", "Program not active", fmt.Sprintf("Program %s is %s", programID, p.Status))
	}
	if err := job.CheckBulkSize(len(entries)); err != nil {
		return nil, err
	}
	rows := make([]memberBatchJob, len(entries))
	for i, e := range entries {
		if e == nil {
			return nil, apperr.InvalidPayload("Property [%d] must be an object", i)
		}
		rows[i] = memberBatchJob{ProgramID: p.ID, Entry: e}
	}
	return job.Schedule(ctx, JobMembersBatch, nil, rows, len(rows))
}

// JobHandlers are the loyalty area's job handlers by type, registered at
// wiring (graph/wiring.go).
func JobHandlers() map[string]job.Handler {
	return map[string]job.Handler{JobMembersBatch: {Run: runMembersBatch, Result: func(j *ent.AsyncAction, failure error) map[string]any {
		return job.BulkResult(j, failure, "results", "member", "created")
	}}}
}

// runMembersBatch enrols the job's entries a batch per transaction; each
// entry's outcome is listed under results (index, status, member_id or the
// error).
func runMembersBatch(ctx context.Context, w *job.Worker, j *ent.AsyncAction) error {
	rows, err := job.Items[memberBatchJob](j, "member")
	if err != nil {
		return err
	}
	return job.RunRows(ctx, w, j, "results", func(ctx context.Context, i int) (job.RowOutcome, error) {
		m, err := createBatchMember(ctx, rows[i].ProgramID, rows[i].Entry)
		if err == nil {
			return job.RowOutcome{Entry: map[string]any{"index": i, "status": "CREATED", "member_id": m.ID,
				"customer_id": m.CustomerID}}, nil
		}
		return job.RowFailure(err, func(e *apperr.Error) map[string]any {
			entry := job.ErrorEntry(e)
			entry["index"], entry["status"] = i, "FAILED"
			return entry
		})
	})
}

// createBatchMember resolves an entry's customer and enrols it.
func createBatchMember(ctx context.Context, programID string, e *MemberBatchEntry) (*ent.LoyaltyMember, error) {
	customerID := e.CustomerID
	if id := e.CustomerIdentification; id != nil {
		switch {
		case id.Type == nil:
			return nil, apperr.InvalidPayload("Property .customer_identification.type is required")
		case *id.Type == "customer_id":
			customerID = id.CustomerID
		case *id.Type == "customer_source_id":
			if id.CustomerSourceID == nil || *id.CustomerSourceID == "" {
				return nil, apperr.InvalidPayload("Property .customer_identification.customer_source_id is required when type is customer_source_id")
			}
			c, err := store.Client(ctx)
			if err != nil {
				return nil, err
			}
			cust, err := c.Customer.Query().Where(customer.SourceID(*id.CustomerSourceID)).Only(ctx)
			if err := loyaltybase.NotFound(err, "customer", *id.CustomerSourceID); err != nil {
				return nil, err
			}
			customerID = &cust.ID
		default:
			return nil, apperr.InvalidPayload("Property .customer_identification.type must be customer_id or customer_source_id, got %q", *id.Type)
		}
	}
	return CreateLoyaltyMember(ctx, programID, loyaltybase.CreateLoyaltyMemberInput{CustomerID: customerID, Status: e.Status, Metadata: e.Metadata})
}

// ExamineIdentification names the customer to examine.
type ExamineIdentification struct {
	Type             *string `json:"type"`
	CustomerID       *string `json:"customer_id"`
	CustomerSourceID *string `json:"customer_source_id"`
	MemberID         *string `json:"member_id"`
}
