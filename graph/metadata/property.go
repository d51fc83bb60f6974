package metadata

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
)

// One property definition of a metadata schema (v1 and management
// metadata schemas, custom event schemas), with the options the real
// service documents (management.json, ManagementProjectsMetadataSchemaDefinition):
// type (metadataTypes), optional, array, deleted, object_type, min_length, max_length,
// exact_length (strings), eq (allowed values of strings and numbers), ne,
// lt, lte, gt, gte (numbers). Any other option is refused rather than
// dropped. Metadata validated against a schema (custom events' metadata,
// events.go) must satisfy them: checkMetadataValue.

// metadataOptions are the option names a property definition may carry.
var metadataOptions = []string{"type", "optional", "array", "deleted", "object_type",
	"min_length", "max_length", "exact_length", "eq", "ne", "lt", "lte", "gt", "gte"}

// metadataProperty checks one property definition of a schema and returns
// what is stored of it ("deleted" is an instruction, see mergeProperties).
func metadataProperty(name string, raw any) (jsonfield.MetadataProperty, error) {
	var p jsonfield.MetadataProperty
	def, ok := raw.(map[string]any)
	if !ok {
		return p, apperr.InvalidPayload("Property .properties.%s must be an object", name)
	}
	keys := make([]string, 0, len(def))
	for k := range def {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(metadataOptions, k) {
			return p, apperr.InvalidPayload("Property .properties.%s.%s is not a definition option (options: %s)",
				name, k, strings.Join(metadataOptions, ", "))
		}
	}
	p.Type, _ = def["type"].(string)
	if !slices.Contains(metadataTypes, p.Type) {
		return p, apperr.InvalidPayload("Property .properties.%s.type must be one of %v", name, metadataTypes)
	}
	o := definitionOptions{name: name, def: def, typ: p.Type}
	for _, b := range []struct {
		key string
		to  *bool
	}{{"optional", &p.Optional}, {"array", &p.Array}, {"deleted", new(bool)}} {
		if err := o.boolean(b.key, b.to); err != nil {
			return p, err
		}
	}
	steps := []func() error{
		func() (err error) { p.ObjectType, err = o.objectType(); return },
		func() (err error) { p.MinLength, err = o.length("min_length"); return },
		func() (err error) { p.MaxLength, err = o.length("max_length"); return },
		func() (err error) { p.ExactLength, err = o.length("exact_length"); return },
		func() (err error) { p.Eq, err = o.allowed(); return },
		func() (err error) { p.Ne, err = o.numbers("ne"); return },
		func() (err error) { p.LT, err = o.bound("lt"); return },
		func() (err error) { p.LTE, err = o.bound("lte"); return },
		func() (err error) { p.GT, err = o.bound("gt"); return },
		func() (err error) { p.GTE, err = o.bound("gte"); return },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return p, err
		}
	}
	if p.MinLength != nil && p.MaxLength != nil && *p.MinLength > *p.MaxLength {
		return p, apperr.InvalidPayload("Property .properties.%s.min_length must not exceed max_length", name)
	}
	return p, nil
}

// definitionOptions reads the options of one definition of type typ.
type definitionOptions struct {
	name, typ string
	def       map[string]any
}

func (o definitionOptions) bad(key, format string, args ...any) error {
	return apperr.InvalidPayload("Property .properties.%s.%s "+format, append([]any{o.name, key}, args...)...)
}

// only refuses key on a definition whose type is not among types.
func (o definitionOptions) only(key string, types ...string) error {
	if !slices.Contains(types, o.typ) {
		return o.bad(key, "is available only for the %s type", strings.Join(types, " and "))
	}
	return nil
}

func (o definitionOptions) boolean(key string, to *bool) error {
	v, ok := o.def[key]
	if !ok || v == nil {
		return nil
	}
	b, ok := v.(bool)
	if !ok {
		return o.bad(key, "must be a boolean")
	}
	*to = b
	return nil
}

func (o definitionOptions) objectType() (*string, error) {
	v, ok := o.def["object_type"]
	if !ok || v == nil {
		return nil, nil
	}
	s, ok := v.(string)
	if !ok || s == "" {
		return nil, o.bad("object_type", "must be a non-empty string or null")
	}
	return &s, o.only("object_type", "object")
}

func (o definitionOptions) length(key string) (*int, error) {
	v, ok := o.def[key]
	if !ok || v == nil {
		return nil, nil
	}
	f, ok := metadataNumber(v)
	if !ok || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return nil, o.bad(key, "must be a non-negative integer")
	}
	n := int(f)
	return &n, o.only(key, "string")
}

func (o definitionOptions) bound(key string) (*float64, error) {
	v, ok := o.def[key]
	if !ok || v == nil {
		return nil, nil
	}
	f, ok := metadataNumber(v)
	if !ok {
		return nil, o.bad(key, "must be a number")
	}
	return &f, o.only(key, "number")
}

func (o definitionOptions) numbers(key string) ([]float64, error) {
	v, ok := o.def[key]
	if !ok || v == nil {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, o.bad(key, "must be an array of numbers")
	}
	out := make([]float64, len(items))
	for i, it := range items {
		if out[i], ok = metadataNumber(it); !ok {
			return nil, o.bad(key, "must be an array of numbers")
		}
	}
	return out, o.only(key, "number")
}

// allowed reads eq: strings for a string property, numbers for a number.
func (o definitionOptions) allowed() ([]any, error) {
	v, ok := o.def["eq"]
	if !ok || v == nil {
		return nil, nil
	}
	if err := o.only("eq", "string", "number"); err != nil {
		return nil, err
	}
	items, ok := v.([]any)
	if !ok {
		return nil, o.bad("eq", "must be an array of %ss", o.typ)
	}
	out := make([]any, len(items))
	for i, it := range items {
		if o.typ == "number" {
			f, ok := metadataNumber(it)
			if !ok {
				return nil, o.bad("eq", "must be an array of numbers")
			}
			out[i] = f
			continue
		}
		s, ok := it.(string)
		if !ok {
			return nil, o.bad("eq", "must be an array of strings")
		}
		out[i] = s
	}
	return out, nil
}

// metadataNumber reads a JSON number as decoded by REST (json.Number),
// GraphQL (int64, float64, json.Number) or from storage (float64).
func metadataNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

// CheckMetadataValue checks a present, non-null metadata value against its
// schema property: its type (each element's for an array property) and
// the property's constraints. Errors are 400 invalid_payload naming the
// metadata property.
func CheckMetadataValue(name string, p jsonfield.MetadataProperty, v any) error {
	if !p.Array {
		return checkMetadataScalar(name, p, v)
	}
	items, ok := v.([]any)
	if !ok {
		return apperr.InvalidPayload("Property .metadata.%s must be an array of %s values", name, p.Type)
	}
	for i, it := range items {
		if err := checkMetadataScalar(fmt.Sprintf("%s[%d]", name, i), p, it); err != nil {
			return err
		}
	}
	return nil
}

func checkMetadataScalar(name string, p jsonfield.MetadataProperty, v any) error {
	bad := func(format string, args ...any) error {
		return apperr.InvalidPayload("Property .metadata.%s "+format, append([]any{name}, args...)...)
	}
	switch p.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return bad("must be a string")
		}
		n := utf8.RuneCountInString(s)
		switch {
		case p.ExactLength != nil && n != *p.ExactLength:
			return bad("must be exactly %d characters long", *p.ExactLength)
		case p.MinLength != nil && n < *p.MinLength:
			return bad("must be at least %d characters long", *p.MinLength)
		case p.MaxLength != nil && n > *p.MaxLength:
			return bad("must be at most %d characters long", *p.MaxLength)
		case len(p.Eq) > 0 && !slices.Contains(p.Eq, any(s)):
			return bad("must be one of %v", p.Eq)
		}
	case "number":
		f, ok := metadataNumber(v)
		if !ok {
			return bad("must be a number")
		}
		return checkMetadataNumber(p, f, bad)
	case "boolean":
		if _, ok := v.(bool); !ok {
			return bad("must be a boolean")
		}
	case "object":
		if _, ok := v.(map[string]any); !ok {
			return bad("must be an object")
		}
	default: // date, datetime, geopoint, image_url (formats.go)
		if problem := metadataFormatProblem(p.Type, v); problem != "" {
			return bad("%s", problem)
		}
	}
	return nil
}

func checkMetadataNumber(p jsonfield.MetadataProperty, f float64, bad func(string, ...any) error) error {
	switch {
	case len(p.Eq) > 0 && !slices.ContainsFunc(p.Eq, func(e any) bool { g, _ := metadataNumber(e); return g == f }):
		return bad("must be one of %v", p.Eq)
	case slices.Contains(p.Ne, f):
		return bad("must not be %v", f)
	case p.LT != nil && !(f < *p.LT):
		return bad("must be less than %v", *p.LT)
	case p.LTE != nil && !(f <= *p.LTE):
		return bad("must be less than or equal to %v", *p.LTE)
	case p.GT != nil && !(f > *p.GT):
		return bad("must be greater than %v", *p.GT)
	case p.GTE != nil && !(f >= *p.GTE):
		return bad("must be greater than or equal to %v", *p.GTE)
	}
	return nil
}
