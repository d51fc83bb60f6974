package openapi

import "maps"

// Schema is the subset of JSON Schema 2020-12 (OpenAPI 3.1's dialect) the
// document uses. Build schemas with the helpers below rather than by hand.
type Schema struct {
	Ref         string `json:"$ref,omitempty"`
	Type        any    `json:"type,omitempty"` // a type name, or a list of them (["string", "null"])
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Enum        []any  `json:"enum,omitempty"`
	Pattern     string `json:"pattern,omitempty"`
	MinLength   *int   `json:"minLength,omitempty"`
	MaxLength   *int   `json:"maxLength,omitempty"`
	Minimum     *int64 `json:"minimum,omitempty"`
	Maximum     *int64 `json:"maximum,omitempty"`
	MaxItems    *int   `json:"maxItems,omitempty"`
	Default     any    `json:"default,omitempty"`

	Properties           map[string]*Schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *Schema            `json:"additionalProperties,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	OneOf                []*Schema          `json:"oneOf,omitempty"`
	AnyOf                []*Schema          `json:"anyOf,omitempty"`
}

// String is a string.
func String() *Schema { return &Schema{Type: "string"} }

// Integer is an integer.
func Integer() *Schema { return &Schema{Type: "integer"} }

// Number is any JSON number.
func Number() *Schema { return &Schema{Type: "number"} }

// Boolean is true or false.
func Boolean() *Schema { return &Schema{Type: "boolean"} }

// DateTime is an ISO 8601 timestamp (2022-09-30T16:30:32.924Z).
func DateTime() *Schema { return &Schema{Type: "string", Format: "date-time"} }

// Date is an ISO 8601 date (2022-09-30).
func Date() *Schema { return &Schema{Type: "string", Format: "date"} }

// Enum is a string that is one of values.
func Enum(values ...string) *Schema {
	s := String()
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

// Const is a string that is always value (the "object" fields).
func Const(value string) *Schema { return Enum(value) }

// BoolConst is a boolean that is always value.
func BoolConst(value bool) *Schema { return &Schema{Type: "boolean", Enum: []any{value}} }

// Array is a JSON array of items.
func Array(items *Schema) *Schema { return &Schema{Type: "array", Items: items} }

// Ref points to the named schema of the document's components.
func Ref(name string) *Schema { return &Schema{Ref: "#/components/schemas/" + name} }

// FreeObject is an object whose keys the caller chooses (metadata, filters).
func FreeObject() *Schema { return &Schema{Type: "object"} }

// MapOf is an object whose values all have the schema values.
func MapOf(values *Schema) *Schema { return &Schema{Type: "object", AdditionalProperties: values} }

// Any is any JSON value.
func Any() *Schema { return &Schema{} }

// OneOf is exactly one of the schemas.
func OneOf(schemas ...*Schema) *Schema { return &Schema{OneOf: schemas} }

// AnyOf is at least one of the schemas.
func AnyOf(schemas ...*Schema) *Schema { return &Schema{AnyOf: schemas} }

// Prop is one property of an object: its name, schema and whether it is
// always present.
type Prop struct {
	Name     string
	Schema   *Schema
	Required bool
}

// Req is a property that is always present (it may still be null when its
// schema allows null).
func Req(name string, s *Schema) Prop { return Prop{Name: name, Schema: s, Required: true} }

// Opt is a property that may be absent.
func Opt(name string, s *Schema) Prop { return Prop{Name: name, Schema: s} }

// Object is an object with the given properties. Other keys are not
// forbidden by the document (clients should ignore keys they do not know),
// but the test harness rejects keys the document does not list.
func Object(props ...Prop) *Schema {
	s := &Schema{Type: "object", Properties: map[string]*Schema{}}
	for _, p := range props {
		s.Properties[p.Name] = p.Schema
		if p.Required {
			s.Required = append(s.Required, p.Name)
		}
	}
	return s
}

// With returns a copy of the object schema s with more properties (a
// property of the same name is replaced).
func (s *Schema) With(props ...Prop) *Schema {
	c := *s
	c.Properties = maps.Clone(s.Properties)
	if c.Properties == nil {
		c.Properties = map[string]*Schema{}
	}
	c.Required = append([]string(nil), s.Required...)
	for _, p := range props {
		if _, ok := c.Properties[p.Name]; ok {
			c.Required = remove(c.Required, p.Name)
		}
		c.Properties[p.Name] = p.Schema
		if p.Required {
			c.Required = append(c.Required, p.Name)
		}
	}
	return &c
}

// Without returns a copy of the object schema s without the named
// properties.
func (s *Schema) Without(names ...string) *Schema {
	c := *s
	c.Properties = maps.Clone(s.Properties)
	c.Required = append([]string(nil), s.Required...)
	for _, n := range names {
		delete(c.Properties, n)
		c.Required = remove(c.Required, n)
	}
	return &c
}

// Optional returns a copy of the object schema s in which no property is
// required (a request body whose fields all have defaults, an update).
func (s *Schema) Optional() *Schema {
	c := *s
	c.Required = nil
	return &c
}

// Null returns s that may also be null.
func (s *Schema) Null() *Schema {
	if s.Ref != "" || s.Type == nil {
		return &Schema{AnyOf: []*Schema{s, {Type: "null"}}}
	}
	c := *s
	if t, ok := s.Type.(string); ok {
		c.Type = []string{t, "null"}
	}
	if len(c.Enum) > 0 {
		c.Enum = append(append([]any(nil), c.Enum...), nil)
	}
	return &c
}

// Desc returns a copy of s with a description.
func (s *Schema) Desc(text string) *Schema {
	if s.Ref != "" {
		// A $ref's siblings are allowed in 3.1; keep the reference intact.
		return &Schema{Ref: s.Ref, Description: text}
	}
	c := *s
	c.Description = text
	return &c
}

// Range returns a copy of the integer schema s bounded to [min, max].
func (s *Schema) Range(min, max int64) *Schema {
	c := *s
	c.Minimum, c.Maximum = &min, &max
	return &c
}

// Length returns a copy of the string schema s of min to max characters
// (max 0: no maximum).
func (s *Schema) Length(min, max int) *Schema {
	c := *s
	c.MinLength = &min
	if max > 0 {
		c.MaxLength = &max
	}
	return &c
}

// AtMost returns a copy of the array schema s with at most n items.
func (s *Schema) AtMost(n int) *Schema {
	c := *s
	c.MaxItems = &n
	return &c
}

func remove(list []string, name string) []string {
	out := list[:0]
	for _, n := range list {
		if n != name {
			out = append(out, n)
		}
	}
	return out
}
