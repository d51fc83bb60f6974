package customer

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/promoengine/promoengine/ent/earningrule"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// RefuseIfTriggerOf refuses deleting a resource that earning rules use as
// their trigger (the trigger's JSON member at path holds id): 409
// resource_in_use naming up to 20 of the rules, whatever their status — a
// draft or inactive rule would otherwise be activated with a trigger that
// can never fire. what names the resource in the message ("Custom event
// schema", "Segment"). The caller locks the resource first (PostgreSQL),
// as checkTriggerReferences does when a rule names it, so a rule created
// meanwhile is seen.
func RefuseIfTriggerOf(ctx context.Context, id, resourceType, what string, path ...string) error {
	c, err := store.Client(ctx)
	if err != nil {
		return err
	}
	const shown = 20
	rules, err := c.EarningRule.Query().
		Where(func(s *sql.Selector) {
			s.Where(sqljson.ValueEQ(s.C(earningrule.FieldTrigger), id, sqljson.Path(path...)))
		}).
		Order(earningrule.ByID()).Limit(shown + 1).IDs(ctx)
	if err != nil {
		return fmt.Errorf("looking up earning rules of %s: %w", id, err)
	}
	if len(rules) == 0 {
		return nil
	}
	more := ""
	if len(rules) > shown {
		rules, more = rules[:shown], " and more"
	}
	return &apperr.Error{Code: http.StatusConflict, Key: "resource_in_use", Message: "Resource in use",
		Details: fmt.Sprintf("%s %s is the trigger of earning rules %s%s; delete them or change their trigger first",
			what, id, strings.Join(rules, ", "), more),
		ResourceID: id, ResourceType: resourceType}
}
