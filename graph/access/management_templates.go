package access

import (
	"context"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/template"
)

// Campaign templates of the management API
// (/management/v1/projects/{projectId}/templates/campaigns…): the project's
// list, and a copy into another project (graph/template).

// ManagementCampaignTemplates lists a project's campaign templates.
func ManagementCampaignTemplates(ctx context.Context, projectID string, in *template.ListInput) (*template.List, error) {
	return inManagedProject(ctx, projectID, func(ctx context.Context) (*template.List, error) {
		return template.ListTemplates(ctx, in)
	})
}

// CopyManagementCampaignTemplate copies a project's template into the
// destination project (404 when either project or the template is unknown,
// 409 when the destination has a template of that name).
func CopyManagementCampaignTemplate(ctx context.Context, projectID, templateID string, in template.CopyInput) (*ent.CampaignTemplate, error) {
	return inManagedProject(ctx, projectID, func(src context.Context) (*ent.CampaignTemplate, error) {
		if strings.TrimSpace(in.DestinationProjectID) == "" {
			return nil, apperr.InvalidPayload("Payload must have required property 'destination_project_id'")
		}
		dst, _, err := ManageProject(src, in.DestinationProjectID, "")
		if err != nil {
			return nil, err
		}
		return template.Copy(src, dst, templateID, in)
	})
}
