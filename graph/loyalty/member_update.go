package loyalty

import (
	"context"
	"fmt"
	"maps"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
)

// UpdateLoyaltyMemberInput is the body of PUT …/programs/{id}/members/{memberId}:
// metadata keys merge into the stored ones (omitted keys stay); Clear
// (REST: "metadata": null) removes them all.
type UpdateLoyaltyMemberInput struct {
	Metadata map[string]any `json:"metadata"`
	Clear    bool           `json:"-"`
	// Nulls: "metadata": null (REST) or metadata: null (GraphQL) clears
	// like Clear.
	shape.Nulls
}

// maxMemberMetadataKeys bounds a member's metadata after the merge.
const maxMemberMetadataKeys = 100

// UpdateLoyaltyMember merges (or clears) a member's metadata.
func UpdateLoyaltyMember(ctx context.Context, programID, memberID string, in UpdateLoyaltyMemberInput) (*ent.LoyaltyMember, error) {
	in.Clear = in.Clear || in.IsNull("metadata")
	if in.Metadata == nil && !in.Clear {
		return nil, apperr.InvalidPayload("Payload must have required property 'metadata'")
	}
	m, err := loyaltybase.Member(ctx, programID, memberID)
	if err != nil {
		return nil, err
	}
	md := map[string]any{}
	if !in.Clear {
		maps.Copy(md, m.Metadata)
		maps.Copy(md, in.Metadata)
	}
	if len(md) > maxMemberMetadataKeys {
		return nil, apperr.InvalidPayload("Property .metadata must have at most %d keys after the merge, got %d", maxMemberMetadataKeys, len(md))
	}
	out, err := m.Update().SetMetadata(md).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("updating member: %w", err)
	}
	return out, nil
}
