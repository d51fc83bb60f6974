package httpkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent/schema/jsonnum"
	"github.com/promoengine/promoengine/graph/apperr"
)

// MaxBodyBytes bounds every JSON request body.
const MaxBodyBytes = 1 << 20

// DecodeBody reads the JSON body into dst the way the official SDKs need:
// an empty body (sent with a JSON content type) or a literal null counts as
// {}; null for an optional field counts as absent; unknown fields are
// ignored. Malformed JSON and wrong types are 400s naming the field.
func DecodeBody(c *gin.Context, dst any) error {
	body, err := ReadBody(c, MaxBodyBytes)
	if err != nil {
		return err
	}
	return DecodeJSON(body, dst)
}

// ReadBody reads the request body, at most limit bytes: a longer one is a
// 413 payload_too_large, one that cannot be read a 400.
func ReadBody(c *gin.Context, limit int64) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, apperr.New(http.StatusRequestEntityTooLarge, "payload_too_large", "Payload too large",
				fmt.Sprintf("The request body must be at most %d bytes", limit))
		}
		return nil, apperr.New(http.StatusBadRequest, "invalid_payload", "Invalid payload", "The request body could not be read")
	}
	return body, nil
}

// DecodeJSON is DecodeBody's decoding of an already read body.
func DecodeJSON(body []byte, dst any) error {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || bytes.Equal(body, []byte("null")) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		return DecodeError(body, err)
	}
	if dec.More() {
		return invalidJSON("Unexpected data after the JSON object")
	}
	if err := checkNumbers(body); err != nil {
		return err
	}
	recordNulls(body, dst)
	return nil
}

// NullRecorder is an update input that embeds shape.Nulls.
type NullRecorder interface{ SetNulls(names []string) }

// recordNulls tells an update input (one embedding shape.Nulls) which of
// the body's members were an explicit null: null clears a field, an absent
// key leaves it. A member of a nested object is named by its path
// ("address.city", "redemption.quantity").
func recordNulls(body []byte, dst any) {
	rec, ok := dst.(NullRecorder)
	if !ok {
		return
	}
	rec.SetNulls(jsonNulls("", body))
}

// jsonNulls lists the null members of the JSON object raw, each named by
// its path under prefix; a value that is not an object has none.
func jsonNulls(prefix string, raw []byte) []string {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return nil
	}
	var nulls []string
	for name, value := range members {
		value = bytes.TrimSpace(value)
		switch {
		case bytes.Equal(value, []byte("null")):
			nulls = append(nulls, prefix+name)
		case len(value) > 0 && value[0] == '{':
			nulls = append(nulls, jsonNulls(prefix+name+".", value)...)
		}
	}
	return nulls
}

// checkNumbers refuses a body with a number that no field can hold
// (jsonnum's rule: integers fit int64, other numbers are finite float64),
// wherever it is — metadata included — so nothing unreadable is stored.
// Typed fields have already refused theirs while decoding; this finds the
// rest (metadata and other free-form objects keep numbers as sent).
func checkNumbers(body []byte) error {
	var bad *jsonnum.Error
	if errors.As(jsonnum.Check(body), &bad) {
		return apperr.InvalidPayload("Property %s must be %s, got %s", propertyPath(bad.Path), bad.Reason(), bad.Short())
	}
	return nil
}

// propertyPath writes a JSON path the way error details name properties:
// ".metadata.k", "[0].amount".
func propertyPath(path string) string {
	if strings.HasPrefix(path, "[") {
		return path
	}
	return "." + path
}

func invalidJSON(details string) *apperr.Error {
	return apperr.New(http.StatusBadRequest, "invalid_json", "Invalid request payload JSON format", details)
}

// DecodeError turns a json decoding failure into an error naming the field.
func DecodeError(body []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var parse *time.ParseError
	switch {
	case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF):
		return invalidJSON(fmt.Sprintf("The request body is not valid JSON: %v", err))
	case errors.As(err, &typ):
		if typ.Field == "" {
			return apperr.InvalidPayload("Payload must be a JSON object")
		}
		return apperr.InvalidPayload("Property .%s must be %s, got %s", typ.Field, jsonTypeName(typ.Type.String()), typ.Value)
	case errors.As(err, &parse):
		field := findStringField(body, parse.Value)
		return apperr.InvalidPayload("Property .%s must be an ISO 8601 date-time (e.g. 2024-01-31T00:00:00Z), got %q", field, parse.Value)
	}
	return apperr.InvalidPayload("The request body does not match the expected shape: %v", err)
}

// jsonTypeName names a Go type the way the API documents types.
func jsonTypeName(goType string) string {
	t := strings.TrimLeft(goType, "*[]")
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "a boolean"
	case t == "string", strings.HasSuffix(t, "Type"), strings.HasSuffix(t, "Status"):
		return "a string"
	case strings.HasPrefix(t, "map"):
		return "an object"
	}
	return "an object"
}

// findStringField returns the dotted path of the first string value equal
// to value in a JSON document, to name the field a parse error came from.
func findStringField(body []byte, value string) string {
	var doc any
	if json.Unmarshal(body, &doc) != nil {
		return "?"
	}
	var walk func(v any, path string) (string, bool)
	walk = func(v any, path string) (string, bool) {
		switch t := v.(type) {
		case map[string]any:
			for k, child := range t {
				p := k
				if path != "" {
					p = path + "." + k
				}
				if found, ok := walk(child, p); ok {
					return found, true
				}
			}
		case []any:
			for i, child := range t {
				if found, ok := walk(child, fmt.Sprintf("%s[%d]", path, i)); ok {
					return found, true
				}
			}
		case string:
			return path, t == value
		}
		return "", false
	}
	if p, ok := walk(doc, ""); ok {
		return p
	}
	return "?"
}
