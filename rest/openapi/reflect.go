package openapi

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// FromGo derives the schema of what encoding/json writes for a T: the
// shared JSON value types (ent/schema/jsonfield) and the graph inputs the
// REST handlers decode request bodies into, so their schemas follow the Go
// types. A field with omitempty is optional; any other is always written,
// and a pointer, slice or map field is null when unset. String types with
// a Values() []string method, or registered in enums, list their values.
func FromGo[T any]() *Schema { return fromType(reflect.TypeFor[T](), map[reflect.Type]bool{}) }

// Input derives a request body's schema from the Go type the handler
// decodes it into: no field is required except required, and null counts
// as absent, so nullable fields are shown without null.
func Input[T any](required ...string) *Schema {
	s := inputOf(FromGo[T]())
	for _, name := range required {
		if _, ok := s.Properties[name]; !ok {
			panic(fmt.Sprintf("openapi: %T has no field %s", *new(T), name))
		}
		s.Required = append(s.Required, name)
	}
	return s
}

// inputOf strips required and null from a response-style schema.
func inputOf(s *Schema) *Schema {
	if s == nil {
		return nil
	}
	s = notNull(s)
	c := *s
	c.Required = nil
	if s.Properties != nil {
		c.Properties = map[string]*Schema{}
		for k, v := range s.Properties {
			c.Properties[k] = inputOf(v)
		}
	}
	c.Items = inputOf(s.Items)
	c.AdditionalProperties = inputOf(s.AdditionalProperties)
	return &c
}

var (
	timeType      = reflect.TypeFor[time.Time]()
	rawType       = reflect.TypeFor[json.RawMessage]()
	numberType    = reflect.TypeFor[json.Number]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
	textType      = reflect.TypeFor[encoding.TextMarshaler]()
	valuesType    = reflect.TypeFor[interface{ Values() []string }]()
)

// enums lists the values of string types that have no Values method
// (ent's enum types), keyed by type; see enums.go.
var enums = map[reflect.Type][]string{}

func fromType(t reflect.Type, seen map[reflect.Type]bool) *Schema {
	switch {
	case t.Kind() == reflect.Pointer:
		return fromType(t.Elem(), seen).Null()
	case t == timeType:
		return DateTime()
	case t == rawType:
		return Any()
	case t == numberType:
		return Number()
	case t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType),
		t.Implements(textType) || reflect.PointerTo(t).Implements(textType):
		panic(fmt.Sprintf("openapi: %s has its own JSON encoding; describe it by hand", t))
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return Array(fromType(t.Elem(), seen)).Null()
	case reflect.Map:
		return MapOf(fromType(t.Elem(), seen)).Null()
	case reflect.Interface:
		return Any()
	case reflect.String:
		if t.Implements(valuesType) {
			return Enum(reflect.Zero(t).Interface().(interface{ Values() []string }).Values()...)
		}
		if values, ok := enums[t]; ok {
			return Enum(values...)
		}
		return String()
	case reflect.Bool:
		return Boolean()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Integer()
	case reflect.Float32, reflect.Float64:
		return Number()
	case reflect.Struct:
		if seen[t] {
			panic(fmt.Sprintf("openapi: %s is recursive; describe it by hand", t))
		}
		seen[t] = true
		defer delete(seen, t)
		s := Object()
		addFields(s, t, seen)
		return s
	}
	panic(fmt.Sprintf("openapi: no schema for %s", t))
}

// addFields adds the JSON fields of struct type t to s (embedded structs'
// fields inline, as encoding/json writes them).
func addFields(s *Schema, t reflect.Type, seen map[reflect.Type]bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addFields(s, ft, seen)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fs := fromType(f.Type, seen)
		if strings.Contains(","+opts+",", ",omitempty,") {
			// Omitted when empty: never null, sometimes absent.
			fs = notNull(fs)
			s.Properties[name] = fs
			continue
		}
		s.Properties[name] = fs
		s.Required = append(s.Required, name)
	}
}

// notNull undoes Null.
func notNull(s *Schema) *Schema {
	if len(s.AnyOf) == 2 && s.AnyOf[1].Type == "null" {
		return s.AnyOf[0]
	}
	if t, ok := s.Type.([]string); ok && len(t) == 2 && t[1] == "null" {
		c := *s
		c.Type = t[0]
		if len(c.Enum) > 0 && c.Enum[len(c.Enum)-1] == nil {
			c.Enum = c.Enum[:len(c.Enum)-1]
		}
		return &c
	}
	return s
}
