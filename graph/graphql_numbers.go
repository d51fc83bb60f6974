package graph

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/promoengine/promoengine/ent/schema/jsonnum"
	"github.com/promoengine/promoengine/graph/apperr"
)

// NumberRange refuses, before anything executes, an operation whose
// variables hold a number that no field can hold, bound to Int, Float or a
// free-form scalar (Map) alike: jsonnum's rule, the one REST applies to
// its bodies (integers fit int64, other numbers are finite float64). The
// answer is a GraphQL error with extensions code 400 and key
// invalid_payload naming the value ($in.metadata.k). Without it a Map
// variable kept 1e400 as sent and stored it, and every later read of the
// resource failed.
//
// Literals in the query text need no check here: gqlparser's validation
// (ValuesOfCorrectType) converts every literal of an argument or input
// object with strconv.ParseInt/ParseFloat(…, 64), Map values inside an
// input object included, and refuses the operation (400
// invalid_graphql_request) when that fails (TestGraphQLRefusesNumberOutOfRange).
type NumberRange struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = NumberRange{}

// ExtensionName implements graphql.HandlerExtension.
func (NumberRange) ExtensionName() string { return "NumberRange" }

// Validate implements graphql.HandlerExtension.
func (NumberRange) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters implements graphql.OperationParameterMutator:
// it checks the variables as decoded (numbers kept as json.Number) before
// gqlgen coerces them.
func (NumberRange) MutateOperationParameters(_ context.Context, params *graphql.RawParams) *gqlerror.Error {
	names := make([]string, 0, len(params.Variables))
	for name := range params.Variables {
		names = append(names, name)
	}
	sort.Strings(names) // the same variable is named on every try
	for _, name := range names {
		if path, lit, bad := badNumber(params.Variables[name]); bad {
			slices.Reverse(path)
			return numberRefused("Variable $"+name+strings.Join(path, ""), lit)
		}
	}
	return nil
}

func numberRefused(what, lit string) *gqlerror.Error {
	shown := lit
	if len(shown) > 40 {
		shown = shown[:37] + "..."
	}
	return refuse(apperr.InvalidPayload("%s must be %s, got %s", what, jsonnum.Reason(lit), shown))
}

// badNumber finds a number in a decoded variable value that breaks the
// rule; the path (".metadata.k", "[1]") is built on the way back, so a
// value that keeps the rule costs no allocation.
func badNumber(v any) (path []string, lit string, bad bool) {
	switch t := v.(type) {
	case json.Number:
		if s := t.String(); !jsonnum.IsLiteral(s) || !jsonnum.Valid(s) {
			return nil, s, true
		}
	case map[string]any:
		for k, child := range t {
			if p, lit, bad := badNumber(child); bad {
				return append(p, "."+k), lit, true
			}
		}
	case []any:
		for i, child := range t {
			if p, lit, bad := badNumber(child); bad {
				return append(p, "["+strconv.Itoa(i)+"]"), lit, true
			}
		}
	}
	return nil, "", false
}
