package rest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
)

const (
	// IdempotencyKeyHeader makes a POST idempotent (docs/idempotency.md).
	IdempotencyKeyHeader = "Idempotency-Key"
	// IdempotentReplayedHeader marks an answer replayed from the first
	// request with the same key.
	IdempotentReplayedHeader = "Idempotent-Replayed"
	// idempotencyKeyMaxLen bounds a key, in characters.
	idempotencyKeyMaxLen = 255
	// idempotencyMaxResponse bounds a stored answer; a larger one is not
	// stored (the key is released, so a retry acts again).
	idempotencyMaxResponse = 1 << 20
	// idempotencyMaxPath bounds the stored path (the hash covers all of it).
	idempotencyMaxPath = 2048
)

// idempotencyExcluded are the route prefixes whose POSTs ignore the
// header: their answers carry secrets (OAuth tokens, management keys),
// which are never stored.
var idempotencyExcluded = []string{"/v1/oauth/", "/management/"}

// idempotent runs the rest of the request (c.Next) under its
// Idempotency-Key, if it is a POST that has one. The authentication
// middlewares call it in place of c.Next once the viewer is in the
// context, because a key belongs to a project and a credential. The first
// request with a key acts and its answer is stored; a later one with the
// same key, credential and request (method, path, query, body) within 24
// hours gets that answer with Idempotent-Replayed: true; with another
// request, 422 idempotency_key_reused. A request whose key another request
// holds waits for that one's answer, or gets 409 idempotency_key_in_use.
// render writes errors in the transport's shape.
func idempotent(c *gin.Context, render func(*gin.Context, error)) {
	if c.Request.Method != http.MethodPost || idempotencyExcludedRoute(c.FullPath()) {
		c.Next()
		return
	}
	key, ok, err := idempotencyKey(c.Request.Header)
	if !ok {
		c.Next()
		return
	}
	if err != nil {
		render(c, err)
		return
	}
	ctx := c.Request.Context()
	v, _ := viewer.FromContext(ctx)
	body, err := readIdempotentBody(c)
	if err != nil {
		render(c, err)
		return
	}
	target := c.Request.URL.EscapedPath()
	if q := c.Request.URL.RawQuery; q != "" {
		target += "?" + q
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", c.Request.Method, target)
	h.Write(body)
	path := target
	if len(path) > idempotencyMaxPath {
		path = path[:idempotencyMaxPath]
	}
	r := idemRequest{credential: v.AppID, key: key, method: c.Request.Method,
		path: strings.ToValidUTF8(path, "?"), hash: hex.EncodeToString(h.Sum(nil))}

	s := newIdemStore(ctx)
	outcome, row, err := s.claim(ctx, r)
	switch {
	case err != nil && ctx.Err() != nil:
		c.AbortWithStatus(499) // the caller has gone
	case err != nil:
		render(c, err)
	case outcome == claimReplay:
		replayIdempotent(c, row)
	case outcome == claimReused:
		render(c, apperr.New(http.StatusUnprocessableEntity, "idempotency_key_reused", "Idempotency key reused",
			"This Idempotency-Key was used for another request (method, path or body) in the last 24 hours; use a new key for a new request"))
	case outcome == claimInUse:
		e := apperr.New(http.StatusConflict, "idempotency_key_in_use", "Idempotency key in use",
			"Another request with this Idempotency-Key is still being processed; retry later")
		e.RetryAfter = 1
		render(c, e)
	default:
		runIdempotent(c, s, row)
	}
}

func idempotencyExcludedRoute(route string) bool {
	for _, p := range idempotencyExcluded {
		if strings.HasPrefix(route, p) {
			return true
		}
	}
	return false
}

// idempotencyKey returns the request's key; ok is false without the
// header. A key must be sent once, be 1 to 255 characters of UTF-8 and
// contain no control characters.
func idempotencyKey(h http.Header) (key string, ok bool, err error) {
	vals := h.Values(IdempotencyKeyHeader)
	if len(vals) == 0 {
		return "", false, nil
	}
	key = strings.TrimSpace(vals[0])
	switch {
	case len(vals) > 1:
		return "", true, invalidIdempotencyKey("Send the Idempotency-Key header once")
	case key == "", !utf8.ValidString(key), utf8.RuneCountInString(key) > idempotencyKeyMaxLen,
		strings.IndexFunc(key, unicode.IsControl) >= 0:
		return "", true, invalidIdempotencyKey(fmt.Sprintf(
			"The Idempotency-Key header must be 1 to %d characters, without control characters", idempotencyKeyMaxLen))
	}
	return key, true, nil
}

func invalidIdempotencyKey(details string) *apperr.Error {
	return apperr.New(http.StatusBadRequest, "invalid_idempotency_key", "Invalid idempotency key", details)
}

// readIdempotentBody reads the request body (at most the route's limit,
// bodyLimit) and puts it back for the handler.
func readIdempotentBody(c *gin.Context) ([]byte, error) {
	if c.Request.Body == nil || c.Request.Body == http.NoBody {
		return nil, nil
	}
	body, err := readBody(c, bodyLimit(c.FullPath()))
	if err != nil {
		return nil, err
	}
	c.Request.Body = io.NopCloser(bytes.NewReader(body))
	return body, nil
}

// replayIdempotent answers with the stored answer of row.
func replayIdempotent(c *gin.Context, row *ent.IdempotencyKey) {
	if row.ResponseContentType != "" {
		c.Header("Content-Type", row.ResponseContentType)
	}
	c.Header(IdempotentReplayedHeader, "true")
	status := http.StatusOK
	if row.ResponseStatus != nil {
		status = *row.ResponseStatus
	}
	c.Status(status)
	c.Writer.WriteHeaderNow()
	if row.ResponseBody != "" {
		_, _ = c.Writer.WriteString(row.ResponseBody)
	}
	c.Abort()
}

// runIdempotent runs the handlers while the request holds row's key,
// then stores their answer, or releases the key when the answer must not
// be replayed (see storable) or the handler panicked.
func runIdempotent(c *gin.Context, s idemStore, row *ent.IdempotencyKey) {
	ctx := context.WithoutCancel(c.Request.Context())
	rec := &idemRecorder{ResponseWriter: c.Writer}
	c.Writer = rec
	stopLease := s.keepLease(ctx, row)
	done := false
	defer func() {
		stopLease()
		c.Writer = rec.ResponseWriter
		if !done { // a panic: the handler's transaction rolled back
			if err := s.release(ctx, row); err != nil {
				logger(c).ErrorContext(ctx, "idempotency key", "request_id", requestID(c), "error", err.Error())
			}
		}
	}()
	c.Next()
	done = true

	status, body := rec.Status(), rec.buf.Bytes()
	var err error
	if rec.overflow || !storable(status, body, c.FullPath()) {
		err = s.release(ctx, row)
	} else {
		var stored bool
		stored, err = s.finish(ctx, row, status, rec.Header().Get("Content-Type"), string(body))
		if err != nil {
			// Not stored: free the key rather than leave it locked until
			// the lease lapses (a retry acts again).
			err = errors.Join(err, s.release(ctx, row))
		} else if !stored {
			logger(c).WarnContext(ctx, "idempotency key taken over before the answer was stored",
				"request_id", requestID(c), "lease", idempotencyLease.String())
		}
	}
	if err != nil {
		logger(c).ErrorContext(ctx, "idempotency key", "request_id", requestID(c), "error", err.Error())
	}
}
