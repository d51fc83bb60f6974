package graph

import (
	"context"
	"reflect"
	"strings"

	"github.com/99designs/gqlgen/graphql"
)

// explicitNulls tells a mutation's update inputs which of their fields the
// operation gave as an explicit null, as the REST decoder does for a body
// (rest/internal/httpkit/decode.go): gqlgen leaves a nil pointer for a null and for an
// absent field alike, so every argument whose Go type embeds shape.Nulls
// gets, before its resolver runs, the null members of the argument as
// sent (inline or through variables). Members are named by the Go field's
// json tag — the REST body's name — so the use case reads one set of
// names whichever transport called it: null clears, absent keeps.
type explicitNulls struct{}

var (
	_ graphql.HandlerExtension = explicitNulls{}
	_ graphql.FieldInterceptor = explicitNulls{}
)

// nullRecorder is an input that embeds shape.Nulls.
type nullRecorder interface{ SetNulls(names []string) }

var nullRecorderType = reflect.TypeFor[nullRecorder]()

// ExtensionName names the extension in gqlgen's list.
func (explicitNulls) ExtensionName() string { return "ExplicitNulls" }

// Validate accepts every schema.
func (explicitNulls) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptField records the nulls of a root mutation field's arguments.
func (explicitNulls) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Object != "Mutation" || len(fc.Args) == 0 || !graphql.HasOperationContext(ctx) {
		return next(ctx)
	}
	raw := fc.Field.ArgumentMap(graphql.GetOperationContext(ctx).Variables)
	for name, arg := range fc.Args {
		if filled, ok := withNulls(reflect.ValueOf(arg), raw[name]); ok {
			fc.Args[name] = filled.Interface()
		}
	}
	return next(ctx)
}

// withNulls returns arg with the nulls of raw (its value as sent)
// recorded, and whether arg holds a recorder at all: a pointer or a value
// of an input embedding shape.Nulls, or a list of them.
func withNulls(arg reflect.Value, raw any) (reflect.Value, bool) {
	if !arg.IsValid() {
		return arg, false
	}
	switch {
	case arg.Kind() == reflect.Pointer && arg.Type().Implements(nullRecorderType):
		if !arg.IsNil() {
			record(arg, raw)
		}
		return arg, true
	case arg.Kind() == reflect.Struct && reflect.PointerTo(arg.Type()).Implements(nullRecorderType):
		copied := reflect.New(arg.Type())
		copied.Elem().Set(arg)
		record(copied, raw)
		return copied.Elem(), true
	case arg.Kind() == reflect.Slice:
		items, _ := raw.([]any)
		found := false
		for i := 0; i < arg.Len() && i < len(items); i++ {
			item := arg.Index(i)
			if item.Kind() == reflect.Struct {
				item = item.Addr()
			}
			if _, ok := withNulls(item, items[i]); ok {
				found = true
			}
		}
		return arg, found
	}
	return arg, false
}

// record sets on the recorder ptr the null members of raw.
func record(ptr reflect.Value, raw any) {
	members, _ := raw.(map[string]any)
	ptr.Interface().(nullRecorder).SetNulls(graphqlNulls("", members, ptr.Type().Elem()))
}

// graphqlNulls lists the null members of the input object members (as
// sent) bound to the Go struct t, each by its json path under prefix; a
// member no field of t binds is skipped.
func graphqlNulls(prefix string, members map[string]any, t reflect.Type) []string {
	var nulls []string
	for name, value := range members {
		field, ok := boundField(t, name)
		if !ok {
			continue
		}
		path := prefix + jsonName(field)
		if value == nil {
			nulls = append(nulls, path)
			continue
		}
		nested, isObject := value.(map[string]any)
		ft := field.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if isObject && ft.Kind() == reflect.Struct {
			nulls = append(nulls, graphqlNulls(path+".", nested, ft)...)
		}
	}
	return nulls
}

// boundField finds the field of struct t that gqlgen binds the GraphQL
// input field name to: the exported field whose name equals it ignoring
// case and underscores (gqlgen's rule), embedded structs included.
func boundField(t reflect.Type, name string) (reflect.StructField, bool) {
	want := strings.ReplaceAll(name, "_", "")
	field, ok := t.FieldByNameFunc(func(goName string) bool {
		return strings.EqualFold(strings.ReplaceAll(goName, "_", ""), want)
	})
	return field, ok && field.IsExported()
}

// jsonName is the name of field in the REST body: its json tag's, or the
// Go name without one.
func jsonName(field reflect.StructField) string {
	name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
	if name == "" || name == "-" {
		return field.Name
	}
	return name
}
