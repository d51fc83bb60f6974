package template

import (
	"context"

	"github.com/promoengine/promoengine/ent"
)

// CopyInput is the body of the management API's
// POST /management/v1/projects/{projectId}/templates/campaigns/{id}/copy.
type CopyInput struct {
	Name                 string  `json:"name"`
	Description          *string `json:"description"`
	DestinationProjectID string  `json:"destination_project_id"`
}

// Copy stores a copy of the template id of the project of src, under a
// new name, in the project of dst (both contexts share the transaction).
// Its rules stay definitions: they become rules of the destination
// project when the copy is used.
func Copy(src, dst context.Context, id string, in CopyInput) (*ent.CampaignTemplate, error) {
	if err := checkText(&in.Name, in.Description); err != nil {
		return nil, err
	}
	t, snap, err := load(src, id)
	if err != nil {
		return nil, err
	}
	return insert(dst, in.Name, in.Description, t.CampaignType, snap)
}
