package template

import (
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/graph/internal/listfilter"
)

// filterColumns are the filters of the template list.
var filterColumns = map[string]listfilter.Kind{
	"id": listfilter.String, "name": listfilter.String, "campaign_type": listfilter.String,
}

// filters turns the filters query object into a predicate over id, name
// and campaign_type.
func filters(f map[string]any) (predicate.CampaignTemplate, error) {
	p, err := listfilter.Build(f, filterColumns)
	if err != nil {
		return nil, err
	}
	return predicate.CampaignTemplate(p), nil
}
