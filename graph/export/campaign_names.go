package export

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	entcampaign "github.com/promoengine/promoengine/ent/campaign"
)

// campaignNames reads the names of the project's campaigns ids (one query
// for a page of rows), only when names (the export's columns) has
// "campaign"; a deleted campaign has no name.
func campaignNames(ctx context.Context, c *ent.Client, projectID string, ids, names []string) (map[string]string, error) {
	out := map[string]string{}
	if len(ids) == 0 || !slices.Contains(names, "campaign") {
		return out, nil
	}
	slices.Sort(ids)
	rows, err := c.Campaign.Query().Where(entcampaign.ProjectID(projectID), entcampaign.IDIn(slices.Compact(ids)...)).
		Select(entcampaign.FieldID, entcampaign.FieldName).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading campaign names: %w", err)
	}
	for _, cmp := range rows {
		out[cmp.ID] = cmp.Name
	}
	return out, nil
}
