package bin

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	entgo "entgo.io/ent"

	"github.com/promoengine/promoengine/ent"
)

// Snapshot is what a delete without force removed, kept in the bin entry
// so that Restore can re-create it: a voucher with its validation-rule
// assignments, a product with its SKUs, a SKU, or a campaign (whose
// vouchers are the entry's records, each a voucher's snapshot). The rows
// are the ent entities as JSON (every column under its own name).
type Snapshot struct {
	Voucher     *ent.Voucher                    `json:"voucher,omitempty"`
	Assignments []*ent.ValidationRuleAssignment `json:"assignments,omitempty"`
	Product     *ent.Product                    `json:"product,omitempty"`
	Skus        []*ent.Sku                      `json:"skus,omitempty"`
	// Campaign is a campaign as its deletion job's last step found it.
	Campaign *CampaignSnapshot `json:"campaign,omitempty"`
	// WasActive is a campaign's active flag before its delete disabled
	// it (written by the delete, the campaign comes back so).
	WasActive *bool `json:"was_active,omitempty"`
	// WasUpdatedAt is a campaign's updated_at before its delete.
	WasUpdatedAt *time.Time `json:"was_updated_at,omitempty"`
}

// CampaignSnapshot is a campaign's row (with active as before the delete)
// and what its deletion removes with it: its validation-rule assignments
// and its promotion tiers and stacks. Its settings (voucher profile,
// loyalty, referral and gift settings, category, metadata) are columns of
// the row.
type CampaignSnapshot struct {
	Campaign    *ent.Campaign                   `json:"campaign"`
	Assignments []*ent.ValidationRuleAssignment `json:"assignments,omitempty"`
	Tiers       []*ent.PromotionTier            `json:"tiers,omitempty"`
	Stacks      []*ent.PromotionStack           `json:"stacks,omitempty"`
}

// encode is the snapshot as stored (nil: none).
func (s *Snapshot) encode() (json.RawMessage, error) {
	if s == nil {
		return nil, nil
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encoding the bin snapshot: %w", err)
	}
	return raw, nil
}

// decodeSnapshot reads a stored snapshot.
func decodeSnapshot(raw json.RawMessage) (*Snapshot, error) {
	s := &Snapshot{}
	if err := json.Unmarshal(raw, s); err != nil {
		return nil, fmt.Errorf("decoding the bin snapshot: %w", err)
	}
	return s, nil
}

// fillMutation sets every stored column of row (an ent entity) on a create
// mutation, except the id (the caller sets it) and the project (stamped by
// the project mixin from the request's viewer). Nil values stay unset; a
// pointer is dereferenced when the mutation takes the value type.
func fillMutation(m entgo.Mutation, row any) error {
	v := reflect.ValueOf(row).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "" || name == "-" || name == "id" || name == "project_id" || name == "edges" {
			continue
		}
		value := v.Field(i)
		switch value.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
			if value.IsNil() {
				continue
			}
		}
		if err := m.SetField(name, value.Interface()); err == nil {
			continue
		} else if value.Kind() != reflect.Pointer {
			return fmt.Errorf("restoring %s.%s: %w", m.Type(), name, err)
		}
		if err := m.SetField(name, value.Elem().Interface()); err != nil {
			return fmt.Errorf("restoring %s.%s: %w", m.Type(), name, err)
		}
	}
	return nil
}
