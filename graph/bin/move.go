package bin

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/binentry"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Resource types of bin entries (the documented resource_type values).
const (
	TypeCampaign = "campaign"
	TypeVoucher  = "voucher"
	TypeProduct  = "product"
	TypeSku      = "sku"
)

// Resource is what a bin entry remembers of a deleted resource.
type Resource struct {
	// Type is TypeCampaign, TypeVoucher, TypeProduct or TypeSku.
	Type string
	// ID is the resource's id.
	ID string
	// Name is the campaign's name, the voucher's code, the product's or
	// SKU's name (the resource_name shown).
	Name string
	// Reserved is the name kept taken while binned: the campaign name,
	// the voucher code, the product's or SKU's source_id (nil: none).
	Reserved *string
	// ParentID is the voucher's campaign or the SKU's product (nil: none).
	ParentID *string
	// Reserves are resources deleted with this one whose names stay
	// reserved with it (a product's SKUs): hidden entries, not listed,
	// deleted with this entry.
	Reserves []Resource
	// Snapshot is what the delete removes, for a restore (nil: the
	// resource cannot be restored).
	Snapshot *Snapshot
	// Deleting marks a campaign whose deletion job is about to run: the
	// entry is DELETING until the job's last step (KeepVouchers,
	// KeepCampaign).
	Deleting bool
}

// Move records r in the request's project bin; the caller deletes the
// resource's rows in the same transaction.
func Move(ctx context.Context, r Resource) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	snapshot, err := r.Snapshot.encode()
	if err != nil {
		return err
	}
	create := c.BinEntry.Create().SetResourceType(binentry.ResourceType(r.Type)).SetResourceID(r.ID).
		SetResourceName(r.Name).SetNillableReservedName(r.Reserved).SetNillableResourceParentID(r.ParentID)
	if snapshot != nil {
		create.SetSnapshot(snapshot)
	}
	if r.Deleting {
		create.SetState(binentry.StateDELETING)
	}
	entry, err := create.Save(ctx)
	if err != nil {
		return fmt.Errorf("moving %s %s to the bin: %w", r.Type, r.ID, err)
	}
	if len(r.Reserves) == 0 {
		return nil
	}
	rows := make([]*ent.BinEntryCreate, len(r.Reserves))
	for i, h := range r.Reserves {
		rows[i] = c.BinEntry.Create().SetResourceType(binentry.ResourceType(h.Type)).SetResourceID(h.ID).
			SetResourceName(h.Name).SetNillableReservedName(h.Reserved).SetNillableResourceParentID(h.ParentID).
			SetParentEntryID(entry.ID)
	}
	if err := c.BinEntry.CreateBulk(rows...).Exec(ctx); err != nil {
		return fmt.Errorf("reserving the names of %s %s in the bin: %w", r.Type, r.ID, err)
	}
	return nil
}

// Skip reports whether a delete with this force flag goes past the bin
// (force=true deletes for good; absent or false moves to the bin).
func Skip(force *bool) bool { return force != nil && *force }

// NameOf is the resource_name of a product or SKU: its name, else its
// source_id, else its id.
func NameOf(name, sourceID *string, id string) string {
	switch {
	case name != nil && *name != "":
		return *name
	case sourceID != nil:
		return *sourceID
	}
	return id
}
