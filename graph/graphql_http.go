package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/promoengine/promoengine/graph/apperr"
)

// allowedMethods is the Allow header of the GraphQL endpoint.
const allowedMethods = "GET, POST, OPTIONS"

// maxShapedErrorBytes bounds the error responses errorShaper rewrites;
// larger ones (never seen from gqlgen's transports) pass through as written.
const maxShapedErrorBytes = 1 << 20

// guardHTTP puts the GraphQL server srv behind the checks gqlgen's
// transports would answer without extensions.code and key, or with the
// request body echoed in the message, and makes sure every error response
// carries code and key:
//   - a method other than GET, POST, OPTIONS or HEAD: 405 method_not_allowed;
//   - a POST whose content type is neither JSON nor multipart/form-data
//     (file uploads, which gqlgen's MultipartForm transport reads): 415
//     unsupported_media_type (gqlgen: 400 "transport not supported");
//   - a POST body over the reader's limit (http.MaxBytesReader, set by the
//     router): 413 payload_too_large;
//   - a POST body that is not a JSON GraphQL request: 400 invalid_json or
//     invalid_graphql_request with a short message (gqlgen puts the whole
//     body into the message);
//   - anything else gqlgen answers with a status of 400 or more and an
//     error without a key (a mutation sent by GET, undecodable GET
//     variables, an unsupported transport) gets code and key added by
//     errorShaper; gqlgen's 406 for a mutation over GET becomes the 405 the
//     GraphQL-over-HTTP spec asks for.
func guardHTTP(srv http.Handler, present graphql.ErrorPresenterFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError := func(e *apperr.Error) {
			if e.Code == http.StatusMethodNotAllowed {
				w.Header().Set("Allow", allowedMethods)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(e.Code)
			writeErrors(w, present(r.Context(), e))
		}
		switch r.Method {
		case http.MethodGet, http.MethodOptions, http.MethodHead:
		case http.MethodPost:
			if isMultipart(r) {
				break // the MultipartForm transport; its errors are shaped below
			}
			params, e := checkPostBody(r)
			if e != nil {
				writeError(e)
				return
			}
			r = r.WithContext(withPostParams(r.Context(), params))
		default:
			writeError(apperr.New(http.StatusMethodNotAllowed, "method_not_allowed", "Method not allowed",
				"GraphQL is served over GET (queries only) and POST"))
			return
		}
		shaper := &errorShaper{ResponseWriter: w, r: r, present: present}
		srv.ServeHTTP(shaper, r.WithContext(withResponseWriter(r.Context(), shaper)))
		shaper.finish()
	})
}

// isMultipart reports whether r is a multipart/form-data request (the
// GraphQL multipart request spec, for file uploads).
func isMultipart(r *http.Request) bool {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mediaType == "multipart/form-data"
}

// checkPostBody reads and checks a POST body, puts it back for gqlgen and
// returns it decoded (for postTransport).
func checkPostBody(r *http.Request) (*graphql.RawParams, *apperr.Error) {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return nil, apperr.New(http.StatusUnsupportedMediaType, "unsupported_media_type", "Unsupported media type",
			"Send GraphQL requests as JSON with Content-Type: application/json")
	}
	if r.Body == nil {
		r.Body = http.NoBody
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, apperr.New(http.StatusRequestEntityTooLarge, "payload_too_large", "Payload too large",
				fmt.Sprintf("The request body must be at most %d bytes", tooLarge.Limit))
		}
		return nil, apperr.New(http.StatusBadRequest, "invalid_payload", "Invalid payload", "The request body could not be read")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	// Decoded as gqlgen's POST transport decodes it, so that what passes
	// here decodes there too.
	var params graphql.RawParams
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&params); err != nil {
		return nil, bodyError(err)
	}
	return &params, nil
}

// bodyError describes a body that is not a JSON GraphQL request without
// quoting any of it.
func bodyError(err error) *apperr.Error {
	const prefix = "The request body is not a valid GraphQL request: "
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return apperr.New(http.StatusBadRequest, "invalid_json", "Invalid request payload JSON format",
			fmt.Sprintf(prefix+"JSON could not be decoded (syntax error at byte %d)", syntax.Offset))
	case errors.As(err, &typ) && typ.Field != "":
		return apperr.New(http.StatusBadRequest, "invalid_graphql_request", "Invalid GraphQL request",
			fmt.Sprintf(prefix+"property %s has the wrong type", typ.Field))
	case errors.As(err, &typ):
		return apperr.New(http.StatusBadRequest, "invalid_graphql_request", "Invalid GraphQL request",
			prefix+"it must be a JSON object")
	}
	return apperr.New(http.StatusBadRequest, "invalid_json", "Invalid request payload JSON format",
		prefix+"JSON could not be decoded")
}

// errorShaper holds back a response of status 400 or more until the
// handler is done, then adds code, key and request_id to each of its
// errors that has no key (see guardHTTP). Other responses pass straight
// through.
type errorShaper struct {
	http.ResponseWriter
	r       *http.Request
	present graphql.ErrorPresenterFunc
	status  int
	held    bytes.Buffer
	holding bool
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *errorShaper) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// WriteHeader implements http.ResponseWriter.
func (s *errorShaper) WriteHeader(status int) {
	if s.status != 0 {
		return
	}
	s.status = status
	if status >= http.StatusBadRequest {
		s.holding = true
		return
	}
	s.ResponseWriter.WriteHeader(status)
}

// Write implements http.ResponseWriter.
func (s *errorShaper) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.WriteHeader(http.StatusOK)
	}
	if !s.holding {
		return s.ResponseWriter.Write(p)
	}
	if s.held.Len()+len(p) > maxShapedErrorBytes {
		s.release(s.status, s.held.Bytes())
		return s.ResponseWriter.Write(p)
	}
	return s.held.Write(p)
}

// finish writes a held response, shaped.
func (s *errorShaper) finish() {
	if s.holding {
		status, body := s.shape()
		s.release(status, body)
	}
}

// release stops holding and writes status and body.
func (s *errorShaper) release(status int, body []byte) {
	s.holding = false
	if status == http.StatusMethodNotAllowed {
		s.Header().Set("Allow", allowedMethods)
	}
	s.ResponseWriter.WriteHeader(status)
	_, _ = s.ResponseWriter.Write(body)
}

// shape returns the held response's status and body with code and key on
// every error.
func (s *errorShaper) shape() (int, []byte) {
	status, body := s.status, s.held.Bytes()
	if status == http.StatusNotAcceptable {
		// gqlgen's GET transport answers a mutation with 406 (its only 406).
		status = http.StatusMethodNotAllowed
	}
	fallback := statusError(status, "")
	var doc map[string]json.RawMessage
	var errs []map[string]any
	if json.Unmarshal(body, &doc) != nil || json.Unmarshal(doc["errors"], &errs) != nil || len(errs) == 0 {
		s.Header().Set("Content-Type", "application/json")
		return status, marshalErrors(s.present(s.r.Context(), fallback))
	}
	changed := status != s.status
	for _, e := range errs {
		ext, _ := e["extensions"].(map[string]any)
		if _, keyed := ext["key"]; keyed {
			continue
		}
		msg, _ := e["message"].(string)
		presented := s.present(s.r.Context(), statusError(status, msg))
		e["message"], e["extensions"] = presented.Message, presented.Extensions
		changed = true
	}
	if !changed {
		return status, body
	}
	raw, err := json.Marshal(errs)
	if err != nil {
		return status, body
	}
	doc["errors"] = raw
	out, err := json.Marshal(doc)
	if err != nil {
		return status, body
	}
	return status, out
}

// statusError is the error for an unkeyed error response of status with
// message msg (the status text when empty).
func statusError(status int, msg string) *apperr.Error {
	if msg == "" {
		msg = http.StatusText(status)
	}
	switch {
	case status == http.StatusMethodNotAllowed:
		return apperr.New(status, "method_not_allowed", msg, "")
	case status == http.StatusRequestEntityTooLarge:
		return apperr.New(status, "payload_too_large", msg, "")
	case status == http.StatusUnsupportedMediaType:
		return apperr.New(status, "unsupported_media_type", msg, "")
	case status >= http.StatusInternalServerError:
		return apperr.Internal()
	case status == http.StatusBadRequest, status == http.StatusUnprocessableEntity:
		return apperr.New(status, "invalid_graphql_request", msg, "")
	}
	return apperr.New(status, strings.ReplaceAll(strings.ToLower(http.StatusText(status)), " ", "_"), msg, "")
}

// writeErrors writes a GraphQL response made of errs.
func writeErrors(w io.Writer, errs ...*gqlerror.Error) {
	_, _ = w.Write(marshalErrors(errs...))
}

func marshalErrors(errs ...*gqlerror.Error) []byte {
	b, err := json.Marshal(graphql.Response{Errors: errs})
	if err != nil {
		return []byte(`{"errors":[{"message":"Internal server error","extensions":{"code":500,"key":"internal_error"}}]}`)
	}
	return b
}
