package loyaltyv2

import (
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/graph/loyalty"
	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// A program's card definition, earning rule and tier structure lists
// (GET /v2/loyalties/programs/{id}/card-definitions|earning-rules|
// tier-structures): keyset pages (limit, order, cursor) of assignment
// objects, as the reference documents them. The time of an assignment is
// not stored: created_at (and the order) is the assigned resource's.

// programCardDefinitionBody is a program_card_definition assignment.
type programCardDefinitionBody struct {
	CardType         string            `json:"card_type"`
	CardDefinitionID string            `json:"card_definition_id"`
	CreatedAt        httpkit.Timestamp `json:"created_at"`
	Object           string            `json:"object"`
}

// programEarningRuleBody is a program_earning_rule assignment.
type programEarningRuleBody struct {
	EarningRuleID string            `json:"earning_rule_id"`
	CreatedAt     httpkit.Timestamp `json:"created_at"`
	Object        string            `json:"object"`
}

// programTierStructureBody is a program_tier_structure assignment.
type programTierStructureBody struct {
	TierStructureID string            `json:"tier_structure_id"`
	CreatedAt       httpkit.Timestamp `json:"created_at"`
	Object          string            `json:"object"`
}

func programCardDefinitionJSON(d *ent.CardDefinition) programCardDefinitionBody {
	return programCardDefinitionBody{CardType: string(d.Type), CardDefinitionID: d.ID,
		CreatedAt: httpkit.Timestamp(d.CreatedAt), Object: "program_card_definition"}
}

func programEarningRuleJSON(r *ent.EarningRule) programEarningRuleBody {
	return programEarningRuleBody{EarningRuleID: r.ID, CreatedAt: httpkit.Timestamp(r.CreatedAt), Object: "program_earning_rule"}
}

func programTierStructureJSON(t *ent.TierStructure) programTierStructureBody {
	return programTierStructureBody{TierStructureID: t.ID, CreatedAt: httpkit.Timestamp(t.CreatedAt), Object: "program_tier_structure"}
}

// registerProgramAssignmentLists adds the three lists; the cursor prefixes
// are the documents' (lcrscdefa_, lcrserna_, lcrstsa_).
func registerProgramAssignmentLists(v2 *gin.RouterGroup, root *graph.Resolver) {
	q := root.Query()
	program := "/programs/:programId"
	v2.GET(program+"/card-definitions", keysetList("lcrscdefa_", "program-card-definitions", func(c *gin.Context, p loyaltybase.PageInput) ([]programCardDefinitionBody, func(programCardDefinitionBody) string, bool, error) {
		page, err := loyalty.ProgramCardDefinitionsPage(c.Request.Context(), c.Param("programId"), p)
		if err != nil {
			return nil, nil, false, err
		}
		return mapAll(page.Data, programCardDefinitionJSON), func(b programCardDefinitionBody) string { return b.CardDefinitionID }, page.HasMore, nil
	}))
	v2.GET(program+"/earning-rules", keysetList("lcrserna_", "program-earning-rules", func(c *gin.Context, p loyaltybase.PageInput) ([]programEarningRuleBody, func(programEarningRuleBody) string, bool, error) {
		page, err := loyalty.ProgramEarningRulesPage(c.Request.Context(), c.Param("programId"), p)
		if err != nil {
			return nil, nil, false, err
		}
		return mapAll(page.Data, programEarningRuleJSON), func(b programEarningRuleBody) string { return b.EarningRuleID }, page.HasMore, nil
	}))
	v2.GET(program+"/tier-structures", keysetList("lcrstsa_", "program-tier-structures", func(c *gin.Context, p loyaltybase.PageInput) ([]programTierStructureBody, func(programTierStructureBody) string, bool, error) {
		page, err := q.ProgramTierStructures(c.Request.Context(), c.Param("programId"), p)
		if err != nil {
			return nil, nil, false, err
		}
		return mapAll(page.Data, programTierStructureJSON), func(b programTierStructureBody) string { return b.TierStructureID }, page.HasMore, nil
	}))
}
