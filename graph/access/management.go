package access

import (
	"context"
	"fmt"
	"slices"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
)

// ManageProject is where every management operation on one project starts
// (the caller has authenticated a management key). It returns the project
// — 404 when it does not exist, 402 when the project lacks need ("" needs
// no feature) — and a context whose viewer is that project, so the data
// layer scopes everything that follows to it.
func ManageProject(ctx context.Context, projectID, need string) (context.Context, *ent.Project, error) {
	p, err := ManagedProject(ctx, projectID)
	if err != nil {
		return nil, nil, err
	}
	if need != "" && !slices.Contains(p.Features, need) {
		return nil, nil, apperr.MissingFeature(need)
	}
	return viewer.NewContext(ctx, viewer.Viewer{ProjectID: p.ID, User: true}), p, nil
}

// SetProjectFeatures enables and disables features of a project (operator
// command `promoengine project features`) and returns the project.
func SetProjectFeatures(ctx context.Context, projectID string, enable, disable []string) (*ent.Project, error) {
	p, err := ManagedProject(ctx, projectID)
	if err != nil {
		return nil, err
	}
	on, unknown := feature.Normalize(enable)
	off, unknownOff := feature.Normalize(disable)
	if unknown == "" {
		unknown = unknownOff
	}
	if unknown != "" {
		return nil, apperr.InvalidPayload("Unknown feature %q (known: %v)", unknown, feature.All)
	}
	next := slices.DeleteFunc(append(slices.Clone(p.Features), on...), func(f string) bool {
		return slices.Contains(off, f)
	})
	next, _ = feature.Normalize(next)
	p, err = p.Update().SetFeatures(next).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating project features: %w", err)
	}
	return p, nil
}
