package loyaltybase

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/loyaltyactivity"
	"github.com/promoengine/promoengine/ent/predicate"
	"github.com/promoengine/promoengine/ent/schema/pulid"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// Activities of programs, card definitions, earning rules, incentives and
// tier structures (GET …/{id}/activities): every create, update, status
// move and delete stores the resource as it is after the change, in the
// same transaction as the change.

// ActivityKind is a resource kind with activities: its id prefix, the
// prefix of its activities' ids, the activity type stem (vl.<stem>.created)
// and the key of the snapshot in data.
type ActivityKind struct{ Prefix, ActivityPrefix, Stem, Key string }

var (
	ProgramActivities        = ActivityKind{pulid.PrefixProgram, "laprg_", "program", "program"}
	CardDefinitionActivities = ActivityKind{pulid.PrefixCardDefinition, "lacdef_", "card_definition", "card_definition"}
	EarningRuleActivities    = ActivityKind{pulid.PrefixEarningRule, "laern_", "earning_rule", "earning_rule"}
	IncentiveActivities      = ActivityKind{pulid.PrefixIncentive, "lainc_", "incentive", "incentive"}
	TierStructureActivities  = ActivityKind{pulid.PrefixTierStructure, "lats_", "tier_structure", "tier_structure"}
	activityKinds            = []ActivityKind{ProgramActivities, CardDefinitionActivities, EarningRuleActivities,
		IncentiveActivities, TierStructureActivities}
)

// ResourceActivityTypes lists the activity types of a kind's resources
// (the stem is program, card_definition, earning_rule, incentive or
// tier_structure).
func ResourceActivityTypes(stem string) []string {
	out := []string{}
	for _, verb := range []string{"created", "updated", "deleted", "activated", "deactivated", "drafted", "assigned", "unassigned"} {
		out = append(out, "vl."+stem+"."+verb)
	}
	return out
}

// RecordActivity stores one activity of resource id with a JSON snapshot.
func RecordActivity(ctx context.Context, kind ActivityKind, id, verb string, snapshot any) error {
	c, src, err := ActivityWriter(ctx)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(snapshot)
	if err != nil {
		return fmt.Errorf("encoding %s snapshot: %w", kind.Stem, err)
	}
	var data map[string]any
	if err := json.Unmarshal(raw, &data); err != nil {
		return fmt.Errorf("decoding %s snapshot: %w", kind.Stem, err)
	}
	delete(data, "project_id") // never shown (docs/security.md)
	delete(data, "edges")
	err = c.LoyaltyActivity.Create().SetID(kind.ActivityPrefix + pulid.Ordered(3)).SetResourceType(kind.Stem).
		SetResourceID(id).SetType("vl." + kind.Stem + "." + verb).SetData(map[string]any{kind.Key: data}).
		SetGroupID(NewGroupID()).SetSource(src).Exec(ctx)
	if err != nil {
		return fmt.Errorf("recording %s activity: %w", kind.Stem, err)
	}
	return nil
}

// LoyaltyActivities pages through the activities of the resource id (a
// program, card definition, earning rule, incentive — linc_ or lben_ — or
// tier structure of the caller's project, also after its delete; 404 when
// the project has neither the resource nor activities of it).
func LoyaltyActivities(ctx context.Context, id string, p PageInput) (*LoyaltyActivityPage, error) {
	id = IncentiveID(id)
	var kind *ActivityKind
	for i := range activityKinds {
		if strings.HasPrefix(id, activityKinds[i].Prefix) {
			kind = &activityKinds[i]
		}
	}
	if kind == nil {
		return nil, apperr.NotFound("resource", id)
	}
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	if err := resourceExists(ctx, *kind, id); err != nil {
		// A deleted resource keeps its history (ending with the delete).
		n, cerr := c.LoyaltyActivity.Query().Where(loyaltyactivity.ResourceID(id)).Limit(1).Count(ctx)
		if cerr != nil || n == 0 {
			return nil, err
		}
	}
	return ActivityPage(ctx, c, loyaltyactivity.ResourceID(id), p)
}

// ActivityPage reads one keyset page of the activities matching of.
func ActivityPage(ctx context.Context, c *ent.Client, of predicate.LoyaltyActivity, p PageInput) (*LoyaltyActivityPage, error) {
	rows, more, err := KeysetPage(p, func(after string) (time.Time, error) {
		a, err := c.LoyaltyActivity.Query().Where(loyaltyactivity.ID(after), of).Only(ctx)
		if err != nil {
			return time.Time{}, err
		}
		return a.CreatedAt, nil
	}, func(where []predicate.LoyaltyActivity, order []loyaltyactivity.OrderOption, n int) ([]*ent.LoyaltyActivity, error) {
		return c.LoyaltyActivity.Query().Where(of).Where(where...).Order(order...).Limit(n).All(ctx)
	})
	if err != nil {
		return nil, err
	}
	return &LoyaltyActivityPage{Data: rows, HasMore: more}, nil
}

// resourceExists answers 404 for an id the caller's project has no live
// resource of.
func resourceExists(ctx context.Context, kind ActivityKind, id string) error {
	var err error
	switch kind {
	case ProgramActivities:
		_, err = Program(ctx, id)
	case CardDefinitionActivities:
		_, err = CardDefinition(ctx, id)
	case EarningRuleActivities:
		_, err = EarningRule(ctx, id)
	case IncentiveActivities:
		_, err = IncentiveByID(ctx, id)
	default:
		_, err = TierStructure(ctx, id)
	}
	return err
}

// KeysetPage reads one keyset page (keyset.go): at returns the created_at
// of the row a page starts after (a missing row is an invalid cursor), run
// reads n rows with the page's conditions and order.
func KeysetPage[T any, P ~func(*sql.Selector), O ~func(*sql.Selector)](p PageInput, at func(after string) (time.Time, error), run func(where []P, order []O, n int) ([]T, error)) ([]T, bool, error) {
	limit, err := p.Size()
	if err != nil {
		return nil, false, err
	}
	var where []P
	if p.After != nil {
		t, err := at(*p.After)
		if ent.IsNotFound(err) {
			return nil, false, apperr.InvalidQueryParams("Query parameter cursor does not name a row of this list")
		}
		if err != nil {
			return nil, false, fmt.Errorf("reading cursor row: %w", err)
		}
		where = append(where, P(p.after(t, *p.After)))
	}
	var order []O
	for _, o := range p.keyOrder() {
		order = append(order, O(o))
	}
	rows, err := run(where, order, limit+1)
	if err != nil {
		return nil, false, fmt.Errorf("reading page: %w", err)
	}
	data, more := Trim(rows, limit)
	return data, more, nil
}

// Logged returns a function that records an activity of the resource a
// write returns (when it succeeded): `return Logged(ctx, kind, verb,
// idOf)(upd.Save(ctx))`.
func Logged[T any](ctx context.Context, kind ActivityKind, verb string, id func(T) string) func(T, error) (T, error) {
	return func(v T, err error) (T, error) {
		if err != nil {
			return v, err
		}
		return v, RecordActivity(ctx, kind, id(v), verb, v)
	}
}

// StatusVerb names the activity of a move to status.
func StatusVerb[S ~string](to S) string {
	switch to {
	case "ACTIVE":
		return "activated"
	case "INACTIVE":
		return "deactivated"
	case "DRAFT":
		return "drafted"
	}
	return "updated"
}

// ids of the resources with activities.
func ProgramIDOf(p *ent.LoyaltyProgram) string        { return p.ID }
func CardDefinitionIDOf(d *ent.CardDefinition) string { return d.ID }
func EarningRuleIDOf(r *ent.EarningRule) string       { return r.ID }
func IncentiveIDOf(i *ent.Incentive) string           { return i.ID }
