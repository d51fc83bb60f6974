package httpkit

import (
	"bytes"
	"encoding/json"

	"github.com/promoengine/promoengine/graph/apperr"
)

// Present reports whether a raw JSON member was sent and is not null.
func Present(raw json.RawMessage) bool {
	return len(raw) > 0 && !bytes.Equal(raw, []byte("null"))
}

// DecodeStringOr decodes raw (Present) as a string into s, or as an
// object into obj (a customer given by id or as the object to upsert);
// errors name the field at path.
func DecodeStringOr(raw json.RawMessage, path string, s *string, obj any) error {
	if raw[0] == '"' {
		return json.Unmarshal(raw, s)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(obj); err != nil {
		return prefixField(path, DecodeError(raw, err))
	}
	return nil
}

// prefixField makes "Property .x" read "Property .path.x" in a nested
// decode error.
func prefixField(path string, err error) error {
	if e, ok := apperr.As(err); ok {
		out := *e
		out.Details = string(bytes.Replace([]byte(e.Details), []byte("Property ."), []byte("Property ."+path+"."), 1))
		if out.Details == e.Details {
			out.Details = "Property ." + path + ": " + e.Details
		}
		return &out
	}
	return err
}
