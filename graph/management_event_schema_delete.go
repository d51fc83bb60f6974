package graph

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/graph/apperr"
)

// deleteCustomEventSchema deletes a custom event schema that no earning
// rule uses as its trigger (trigger.custom_event.schema_id). A schema in
// use is refused with 409 resource_in_use naming the rules (whatever their
// status: a draft or inactive rule would otherwise be activated with a
// trigger that can never fire); delete them or change their trigger first.
// The real service documents no refusal (docs/events.md, "Event schemas").
func deleteCustomEventSchema(ctx context.Context, id string) error {
	// Lock the schema (PostgreSQL) so that the check and the delete see the
	// same row; a missing one is 404.
	if _, err := schemaOfKind(ctx, id, true, customEventSchemaType, true); err != nil {
		return err
	}
	c, err := client(ctx)
	if err != nil {
		return err
	}
	const shown = 20
	rules, err := c.EarningRule.Query().
		Where(func(s *sql.Selector) {
			s.Where(sqljson.ValueEQ(s.C(earningrule.FieldTrigger), id, sqljson.Path("custom_event", "schema_id")))
		}).
		Order(earningrule.ByID()).Limit(shown + 1).IDs(ctx)
	if err != nil {
		return fmt.Errorf("looking up earning rules of %s: %w", id, err)
	}
	if len(rules) > 0 {
		more := ""
		if len(rules) > shown {
			rules, more = rules[:shown], " and more"
		}
		return &apperr.Error{Code: http.StatusConflict, Key: "resource_in_use", Message: "Resource in use",
			Details: fmt.Sprintf("Custom event schema %s is the trigger of earning rules %s%s; delete them or change their trigger first",
				id, strings.Join(rules, ", "), more),
			ResourceID: id, ResourceType: customEventSchemaType}
	}
	return deleteSchemaOfKind(ctx, id, true, customEventSchemaType)
}
