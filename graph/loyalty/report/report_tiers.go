package report

import (
	"context"
	"fmt"
	"sort"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/tiertransaction"
)

// TierReport is a row of the program tiers report: the tier moves of one
// tier per period (Date "" in the summary). Joins, upgrades and
// downgrades count the moves into the tier, lefts the LEFT moves out of
// it, prolongs the PROLONGED rows the daily job writes at a tier's expiry.
type TierReport struct {
	Date, TierStructureID, TierID      string
	Joins, Upgrades, Downgrades, Lefts int64
	// Prolongs counts the PROLONGED rows (the daily job's, tier_schedule.go).
	Prolongs int64
}

// ProgramTiersReport counts the program's tier transactions per period of
// r (nil: the all-time summary) and tier: one GROUP BY per period, rows
// only for tiers with moves (bounded by the program's tiers).
func ProgramTiersReport(ctx context.Context, programID string, r *ReportRange) ([]*TierReport, error) {
	c, ps, err := programReport(ctx, programID, r)
	if err != nil {
		return nil, err
	}
	var out []*TierReport
	for _, p := range ps {
		q := c.TierTransaction.Query().Where(tiertransaction.ProgramID(programID))
		if p.from != nil {
			q.Where(tiertransaction.CreatedAtGTE(*p.from), tiertransaction.CreatedAtLT(*p.to))
		}
		var groups []struct {
			Structure string  `json:"tier_structure_id"`
			From      *string `json:"from_tier_id"`
			To        *string `json:"to_tier_id"`
			Type      string  `json:"type"`
			Count     int64   `json:"count"`
		}
		err := q.GroupBy(tiertransaction.FieldTierStructureID, tiertransaction.FieldFromTierID, tiertransaction.FieldToTierID,
			tiertransaction.FieldType).Aggregate(ent.As(ent.Count(), "count")).Scan(ctx, &groups)
		if err != nil {
			return nil, fmt.Errorf("counting tier transactions: %w", err)
		}
		rows := map[[2]string]*TierReport{}
		row := func(structure, tier string) *TierReport {
			k := [2]string{structure, tier}
			if rows[k] == nil {
				rows[k] = &TierReport{Date: p.label, TierStructureID: structure, TierID: tier}
			}
			return rows[k]
		}
		for _, g := range groups {
			switch {
			case g.Type == "LEFT" && g.From != nil:
				row(g.Structure, *g.From).Lefts += g.Count
			case g.To == nil:
			case g.Type == "JOINED":
				row(g.Structure, *g.To).Joins += g.Count
			case g.Type == "UPGRADED":
				row(g.Structure, *g.To).Upgrades += g.Count
			case g.Type == "DOWNGRADED":
				row(g.Structure, *g.To).Downgrades += g.Count
			case g.Type == "PROLONGED":
				row(g.Structure, *g.To).Prolongs += g.Count
			}
		}
		period := make([]*TierReport, 0, len(rows))
		for _, r := range rows {
			period = append(period, r)
		}
		sort.Slice(period, func(i, j int) bool {
			a, b := period[i], period[j]
			return a.TierStructureID < b.TierStructureID || a.TierStructureID == b.TierStructureID && a.TierID < b.TierID
		})
		out = append(out, period...)
	}
	return out, nil
}
