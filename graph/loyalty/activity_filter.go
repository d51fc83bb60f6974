package loyalty

import (
	"reflect"
	"slices"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema"
	"github.com/promoengine/promoengine/graph/apperr"
)

// MaxFilterValues bounds the values of one "in" condition of an activity
// list filter: the real service refuses a $in of more than 100 entries.
// GET …/activities (REST) and the cardActivities / rewardActivities fields
// (GraphQL) share it.
const MaxFilterValues = 100

// checkCardActivityWhere refuses a card activity filter with an "in" list
// longer than MaxFilterValues or a type outside schema.CardActivityTypes.
func checkCardActivityWhere(w *ent.CardActivityWhereInput) error {
	if w == nil {
		return nil
	}
	return checkActivityWhere(reflect.ValueOf(w).Elem(), schema.CardActivityTypes)
}

// checkRewardActivityWhere is checkCardActivityWhere for reward activities
// (types from RewardActivityTypes).
func checkRewardActivityWhere(w *ent.RewardActivityWhereInput) error {
	if w == nil {
		return nil
	}
	return checkActivityWhere(reflect.ValueOf(w).Elem(), RewardActivityTypes)
}

// typeConditions are the where-input fields whose values are activity
// types and must be among the known ones.
var typeConditions = []string{"Type", "TypeNEQ", "TypeIn", "TypeNotIn"}

// checkActivityWhere walks an entgql where-input struct (and its Not, Or
// and And terms, and the where-inputs of edges, e.g. hasCardWith): every
// list condition (…In, …NotIn) holds at most MaxFilterValues values, and
// every type condition of the activity (not of an edge: types is nil
// there) names a type of types. Errors have key invalid_query_params, as
// REST's filter errors.
func checkActivityWhere(w reflect.Value, types []string) error {
	t := w.Type()
	for i := range t.NumField() {
		name, f := t.Field(i).Name, w.Field(i)
		switch {
		case name == "Not":
			if !f.IsNil() {
				if err := checkActivityWhere(f.Elem(), types); err != nil {
					return err
				}
			}
		case name == "Or" || name == "And" || strings.HasPrefix(name, "Has") && strings.HasSuffix(name, "With"):
			terms := types
			if name != "Or" && name != "And" {
				terms = nil // an edge's where-input: its own fields
			}
			for j := range f.Len() {
				if term := f.Index(j); !term.IsNil() {
					if err := checkActivityWhere(term.Elem(), terms); err != nil {
						return err
					}
				}
			}
		case f.Kind() == reflect.Slice && (strings.HasSuffix(name, "In") || strings.HasSuffix(name, "NotIn")):
			if f.Len() > MaxFilterValues {
				return apperr.InvalidQueryParams("Filter %s ($in) must have at most %d items, got %d",
					lowerFirst(name), MaxFilterValues, f.Len())
			}
		}
		if types != nil && slices.Contains(typeConditions, name) {
			if err := checkTypeValues(name, f, types); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkTypeValues checks the values of one type condition (a *string or a
// []string field).
func checkTypeValues(name string, f reflect.Value, types []string) error {
	var values []string
	switch f.Kind() {
	case reflect.Pointer:
		if !f.IsNil() {
			values = []string{f.Elem().String()}
		}
	case reflect.Slice:
		values = f.Interface().([]string)
	}
	for _, v := range values {
		if !slices.Contains(types, v) {
			return apperr.InvalidQueryParams("Filter %s: activity type must be one of %s, got %q",
				lowerFirst(name), strings.Join(types, ", "), v)
		}
	}
	return nil
}

// lowerFirst turns a where-input Go field name into its GraphQL name
// (TypeIn → typeIn, IDIn → idIn).
func lowerFirst(s string) string {
	if strings.HasPrefix(s, "ID") {
		return "id" + s[2:]
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// RewardActivityTypes are the reward activity types (the reference
// document's list; deleted, assigned and unassigned come from #31's deletes
// and program reward batches).
var RewardActivityTypes = []string{
	"vl.reward.created", "vl.reward.updated", "vl.reward.deleted", "vl.reward.assigned",
	"vl.reward.unassigned", "vl.reward.activated", "vl.reward.deactivated", "vl.reward.drafted",
}
