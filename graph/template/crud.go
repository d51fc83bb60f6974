package template

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/campaigntemplate"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/page"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// resourceType names templates in errors.
const resourceType = "campaign_template"

// Template serves REST GET /v1/templates/campaigns/{id} and
// campaignTemplate: a template of the caller's project (404 otherwise).
func Template(ctx context.Context, id string) (*ent.CampaignTemplate, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	t, err := c.CampaignTemplate.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound(resourceType, id)
	}
	if err != nil {
		return nil, fmt.Errorf("reading campaign template: %w", err)
	}
	return t, nil
}

// UpdateTemplate serves REST PUT /v1/templates/campaigns/{id} and
// updateCampaignTemplate: its name and description.
func UpdateTemplate(ctx context.Context, id string, in UpdateTemplateInput) (*ent.CampaignTemplate, error) {
	if err := in.RefuseNull("name"); err != nil {
		return nil, err
	}
	if err := checkText(in.Name, in.Description); err != nil {
		return nil, err
	}
	t, err := Template(ctx, id)
	if err != nil {
		return nil, err
	}
	upd := t.Update().SetNillableName(in.Name)
	switch {
	case in.ClearDescription || (in.Description == nil && in.IsNull("description")):
		upd.ClearDescription()
	case in.Description != nil:
		upd.SetDescription(*in.Description)
	}
	saved, err := upd.Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, duplicateName(*in.Name)
	}
	if err != nil {
		return nil, fmt.Errorf("updating campaign template: %w", err)
	}
	return saved, nil
}

// DeleteTemplate serves REST DELETE /v1/templates/campaigns/{id} and
// deleteCampaignTemplate; campaigns made from it stay.
func DeleteTemplate(ctx context.Context, id string) (string, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return "", err
	}
	n, err := c.CampaignTemplate.Delete().Where(campaigntemplate.ID(id)).Exec(ctx)
	if err != nil {
		return "", fmt.Errorf("deleting campaign template: %w", err)
	}
	if n == 0 {
		return "", apperr.NotFound(resourceType, id)
	}
	return id, nil
}

// ListTemplates serves REST GET /v1/templates/campaigns and
// campaignTemplates: a page in id order (creation order), after
// starting_after_id when given.
func ListTemplates(ctx context.Context, in *ListInput) (*List, error) {
	if in == nil {
		in = &ListInput{}
	}
	limit, err := page.Limit(in.Limit)
	if err != nil {
		return nil, err
	}
	desc, err := page.IDOrder(in.Order)
	if err != nil {
		return nil, err
	}
	where, err := filters(in.Filters)
	if err != nil {
		return nil, err
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	q := c.CampaignTemplate.Query().Where(where)
	out := &List{}
	if in.IncludeTotal != nil && *in.IncludeTotal {
		n, err := q.Clone().CountAtMost(ctx, ent.TotalCountCap)
		if err != nil {
			return nil, fmt.Errorf("counting campaign templates: %w", err)
		}
		out.Total = &n
	}
	if after := in.StartingAfterID; after != nil && *after != "" {
		if desc {
			q.Where(campaigntemplate.IDLT(*after))
		} else {
			q.Where(campaigntemplate.IDGT(*after))
		}
	}
	order := ent.Asc(campaigntemplate.FieldID)
	if desc {
		order = ent.Desc(campaigntemplate.FieldID)
	}
	data, err := q.Order(order).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing campaign templates: %w", err)
	}
	if len(data) > limit {
		data, out.HasMore = data[:limit], true
	}
	out.Data = data
	return out, nil
}
