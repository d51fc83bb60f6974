package openapi

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Op describes one operation for API.Add. Summary and Auth are required;
// everything else has a sensible zero value.
type Op struct {
	// Summary is a short imperative title ("List campaigns"); the
	// operationId is its camelCase form (listCampaigns).
	Summary     string
	Description string
	// Auth says which credentials the route takes.
	Auth Auth
	// PathParams describe the path's {parameters} (all strings); a
	// parameter without an entry is still documented.
	PathParams map[string]string
	Query      []Param
	Headers    []Param
	// Body is the JSON request body; Form a form-encoded one.
	Body         *Schema
	Form         *Schema
	BodyRequired bool
	FormType     string // Form's media type; "": application/x-www-form-urlencoded
	// Status is the success status (0: 200). Response is its JSON body
	// (nil: none); ResponseType the media type of a body that is not JSON
	// (its content is not described).
	Status       int
	Response     *Schema
	ResponseType string
	// Also lists other responses (a second success status, a documented
	// failure with a body other than the error object).
	Also []Response
	// Errors lists error statuses worth naming beyond the ones every
	// operation of its kind has (400, 401, 403, 404, 429); any other error
	// is the default response, the error object.
	Errors []int
}

// Response is one more documented response of an operation.
type Response struct {
	Status      int
	Description string
	Schema      *Schema // JSON body; nil: none
}

// Param is a query or header parameter.
type Param struct {
	Name        string
	Description string
	Required    bool
	Schema      *Schema
	// Style is the serialisation of an object parameter (deepObject for
	// filters[...]); empty: the default.
	Style string
}

// Query is an optional query parameter.
func Query(name string, s *Schema, description string) Param {
	return Param{Name: name, Schema: s, Description: description}
}

// operation is the serialised OpenAPI operation object.
type operation struct {
	Tags        []string               `json:"tags,omitempty"`
	Summary     string                 `json:"summary"`
	Description string                 `json:"description,omitempty"`
	OperationID string                 `json:"operationId"`
	Parameters  []parameter            `json:"parameters,omitempty"`
	RequestBody *requestBody           `json:"requestBody,omitempty"`
	Responses   map[string]*response   `json:"responses"`
	Security    *[]map[string][]string `json:"security,omitempty"`
}

type parameter struct {
	Name        string  `json:"name"`
	In          string  `json:"in"`
	Description string  `json:"description,omitempty"`
	Required    bool    `json:"required,omitempty"`
	Style       string  `json:"style,omitempty"`
	Explode     *bool   `json:"explode,omitempty"`
	Schema      *Schema `json:"schema"`
}

type requestBody struct {
	Required bool                  `json:"required,omitempty"`
	Content  map[string]*mediaType `json:"content"`
}

type mediaType struct {
	Schema *Schema `json:"schema,omitempty"`
}

type response struct {
	Ref         string                `json:"$ref,omitempty"`
	Description string                `json:"description,omitempty"`
	Headers     map[string]*header    `json:"headers,omitempty"`
	Content     map[string]*mediaType `json:"content,omitempty"`
}

func (op Op) build(a *API, method, path string) (*operation, error) {
	if op.Summary == "" {
		return nil, errors.New("no summary")
	}
	if op.Auth == authUnset {
		return nil, errors.New("no Auth (use Public for routes without credentials)")
	}
	o := &operation{Summary: op.Summary, Description: op.Description,
		OperationID: operationID(op.Summary), Responses: map[string]*response{}}
	if a.tag != "" {
		o.Tags = []string{a.tag}
	}
	names := pathParam.FindAllStringSubmatch(path, -1)
	for _, m := range names {
		o.Parameters = append(o.Parameters, parameter{Name: m[1], In: "path", Required: true,
			Description: op.PathParams[m[1]], Schema: String()})
	}
	for name := range op.PathParams {
		if !strings.Contains(path, "{"+name+"}") {
			return nil, fmt.Errorf("path parameter %s is not in the path", name)
		}
	}
	for _, p := range op.Query {
		qp := parameter{Name: p.Name, In: "query", Required: p.Required, Description: p.Description,
			Schema: p.Schema, Style: p.Style}
		if p.Style == "deepObject" {
			explode := true
			qp.Explode = &explode
		}
		o.Parameters = append(o.Parameters, qp)
	}
	headers := append([]Param(nil), op.Headers...)
	if method == http.MethodPost && op.Auth.idempotent() {
		headers = append(headers, idempotencyKey)
	}
	for _, p := range headers {
		o.Parameters = append(o.Parameters, parameter{Name: p.Name, In: "header", Required: p.Required,
			Description: p.Description, Schema: p.Schema})
	}
	switch {
	case op.Body != nil && op.Form != nil:
		return nil, errors.New("both a JSON and a form body")
	case op.Body != nil:
		o.RequestBody = &requestBody{Required: op.BodyRequired,
			Content: map[string]*mediaType{"application/json": {Schema: op.Body}}}
	case op.Form != nil:
		formType := op.FormType
		if formType == "" {
			formType = "application/x-www-form-urlencoded"
		}
		o.RequestBody = &requestBody{Required: true,
			Content: map[string]*mediaType{formType: {Schema: op.Form}}}
	}
	status := op.Status
	if status == 0 {
		status = http.StatusOK
	}
	o.Responses[strconv.Itoa(status)] = op.Auth.success(http.StatusText(status), op.Response, op.ResponseType)
	for _, r := range op.Also {
		desc := r.Description
		if desc == "" {
			desc = http.StatusText(r.Status)
		}
		o.Responses[strconv.Itoa(r.Status)] = op.Auth.success(desc, r.Schema, "")
	}
	for _, code := range op.errorStatuses(len(names) > 0) {
		key := strconv.Itoa(code)
		if _, taken := o.Responses[key]; !taken {
			o.Responses[key] = a.errorResponseRef(code)
		}
	}
	o.Responses["default"] = &response{Ref: "#/components/responses/Error"}
	sec := op.Auth.security(a.opts.Scopes, method, path)
	o.Security = &sec
	return o, nil
}

// errorStatuses are the error statuses the operation names.
func (op Op) errorStatuses(hasPathParams bool) []int {
	set := map[int]bool{}
	if op.Body != nil || op.Form != nil || len(op.Query) > 0 {
		set[http.StatusBadRequest] = true
	}
	for _, code := range op.Auth.errorStatuses() {
		set[code] = true
	}
	if hasPathParams {
		set[http.StatusNotFound] = true
	}
	for _, code := range op.Errors {
		set[code] = true
	}
	out := make([]int, 0, len(set))
	for code := range set {
		out = append(out, code)
	}
	sort.Ints(out)
	return out
}

// schemas are the schemas the operation uses (for reference checks).
func (o *operation) schemas() []*Schema {
	var out []*Schema
	for _, p := range o.Parameters {
		out = append(out, p.Schema)
	}
	if o.RequestBody != nil {
		for _, m := range o.RequestBody.Content {
			out = append(out, m.Schema)
		}
	}
	for _, r := range o.Responses {
		for _, m := range r.Content {
			out = append(out, m.Schema)
		}
	}
	return out
}

// operationID turns "List campaigns" into listCampaigns.
func operationID(summary string) string {
	var b strings.Builder
	upper := false
	for i, r := range summary {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if i == 0 {
				r = unicode.ToLower(r)
			} else if upper {
				r = unicode.ToUpper(r)
			}
			b.WriteRune(r)
			upper = false
		default:
			upper = true
		}
	}
	return b.String()
}
