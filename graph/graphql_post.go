package graph

import (
	"context"
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// postTransport is gqlgen's POST transport (transport.POST, whose answers
// it keeps) with two shortcuts:
//   - it executes the request guardHTTP has already read and decoded
//     (checkPostBody) instead of reading and decoding the body again;
//   - it writes an answer that has only data as {"data":…} directly.
//     transport.POST passes every answer through encoding/json, which
//     re-validates and copies the data gqlgen has already serialised
//     (json.RawMessage): 5-8% of the server's CPU for a page of 50
//     vouchers. Answers with errors or extensions still go through it.
type postTransport struct{ transport.POST }

var _ graphql.Transport = postTransport{}

type postParamsKey struct{}

// withPostParams keeps a POST body's decoded request for postTransport.
func withPostParams(ctx context.Context, params *graphql.RawParams) context.Context {
	return context.WithValue(ctx, postParamsKey{}, params)
}

// Do implements graphql.Transport.
func (t postTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	params, ok := r.Context().Value(postParamsKey{}).(*graphql.RawParams)
	if !ok {
		t.POST.Do(w, r, exec)
		return
	}
	ctx := r.Context()
	contentType := responseContentType(r)
	w.Header().Set("Content-Type", contentType)
	now := graphql.Now()
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: now, End: now}
	rc, opErr := exec.CreateOperationContext(ctx, params)
	if opErr != nil {
		w.WriteHeader(statusForErrors(contentType, opErr))
		writeResponse(w, exec.DispatchError(graphql.WithOperationContext(ctx, rc), opErr))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, rc)
	writeResponse(w, responses(ctx)) // with the status unavailableStatus may have set
}

// writeResponse writes resp as transport.POST would, without encoding/json
// when it carries data alone. The answer is written whole, in one call and
// with its Content-Length: net/http then sends a page of 50 vouchers
// (12 KB) in two socket writes, where the answer written in three pieces
// and chunked took three.
func writeResponse(w http.ResponseWriter, resp *graphql.Response) {
	var b []byte
	if resp != nil && len(resp.Errors) == 0 && resp.Label == "" && resp.Path == nil && resp.HasNext == nil &&
		len(resp.Extensions) == 0 && len(resp.Data) > 0 {
		b = make([]byte, 0, len(`{"data":}`)+len(resp.Data))
		b = append(append(append(b, `{"data":`...), resp.Data...), '}')
	} else {
		var err error
		if b, err = json.Marshal(resp); err != nil {
			b = marshalErrors(gqlerror.Errorf("internal error"))
		}
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}

// responseContentType is transport.POST's choice of content type: JSON
// unless the client accepts only application/graphql-response+json.
func responseContentType(r *http.Request) string {
	const graphqlJSON = "application/graphql-response+json"
	accept := r.Header.Get("Accept")
	if accept == "" {
		return "application/json"
	}
	for part := range strings.SplitSeq(accept, ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "*/*", "application/*", "application/json":
			return "application/json"
		case graphqlJSON:
			return graphqlJSON
		}
	}
	return graphqlJSON
}

// statusForErrors is transport.POST's status for an operation that could
// not start: a protocol error (parse, validation) is 422, or 400 under
// application/graphql-response+json.
func statusForErrors(contentType string, errs gqlerror.List) int {
	if errcode.GetErrorKind(errs) != errcode.KindProtocol {
		return http.StatusOK
	}
	if contentType == "application/graphql-response+json" {
		return http.StatusBadRequest
	}
	return http.StatusUnprocessableEntity
}
