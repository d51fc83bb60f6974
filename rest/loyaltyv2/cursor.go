package loyaltyv2

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"entgo.io/contrib/entgql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// cursorTTL is how long a v2 list cursor can be used.
const cursorTTL = time.Hour

// v2Cursor is the cursor object of a v2 list page.
type v2Cursor struct {
	Next      string            `json:"next"`
	ExpiresAt httpkit.Timestamp `json:"expires_at"`
}

// v2List is the v2 list envelope.
type v2List[T any] struct {
	Data   []T       `json:"data"`
	Cursor *v2Cursor `json:"cursor"`
	Object string    `json:"object"`
}

// cursorPayload is what an opaque cursor carries: the keyset position (the
// GraphQL connection's end cursor: created_at and id of the last row), the
// expiry, and a fingerprint of the list it belongs to (resource, order,
// filters), so it cannot continue a different list.
type cursorPayload struct {
	After       string `json:"a"`
	Expires     int64  `json:"e"`
	Fingerprint string `json:"f"`
}

func invalidCursor() *apperr.Error {
	return apperr.New(http.StatusBadRequest, "invalid_or_expired_cursor", "Invalid or expired cursor",
		"The cursor is malformed, was changed, belongs to another list or has expired; start again without it")
}

// fingerprint hashes the parts that define a list.
func fingerprint(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:12])
}

// listFingerprint is the fingerprint of a generic v2 list: its kind, its
// order and the request's path parameters.
func listFingerprint(c *gin.Context, kind string, page v2Page) string {
	parts := []string{kind, page.orderName()}
	for _, p := range c.Params {
		parts = append(parts, p.Key+"="+p.Value)
	}
	return fingerprint(parts...)
}

// sealCursor makes the opaque cursor: prefix + base64url(payload) + "." +
// base64url(HMAC-SHA256(secret, prefix + payload)).
func sealCursor(secret []byte, prefix string, p cursorPayload) (string, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	body := base64.RawURLEncoding.EncodeToString(raw)
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(prefix + body))
	return prefix + body + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), nil
}

// unsealCursor checks a cursor's prefix, signature, fingerprint and expiry
// (at now) and returns its payload.
func unsealCursor(secret []byte, prefix, token, fp string, now time.Time) (cursorPayload, error) {
	var p cursorPayload
	rest, ok := strings.CutPrefix(token, prefix)
	if !ok {
		return p, invalidCursor()
	}
	body, sig, ok := strings.Cut(rest, ".")
	if !ok {
		return p, invalidCursor()
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(prefix + body))
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, mac.Sum(nil)) {
		return p, invalidCursor()
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || json.Unmarshal(raw, &p) != nil || p.Fingerprint != fp || now.UnixMilli() > p.Expires {
		return p, invalidCursor()
	}
	return p, nil
}

// signCursor makes the cursor continuing after the given keyset position.
func signCursor(c *gin.Context, prefix string, after *entgql.Cursor[string], fp string) (*v2Cursor, error) {
	secret, err := access.CursorSecret(c.Request.Context())
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	after.MarshalGQL(&buf)
	pos, err := strconv.Unquote(buf.String())
	if err != nil {
		return nil, err
	}
	expires := time.Now().Add(cursorTTL).UTC().Truncate(time.Millisecond)
	next, err := sealCursor(secret, prefix, cursorPayload{After: pos, Expires: expires.UnixMilli(), Fingerprint: fp})
	if err != nil {
		return nil, err
	}
	return &v2Cursor{Next: next, ExpiresAt: httpkit.Timestamp(expires)}, nil
}

// openCursor returns the keyset position a valid cursor carries.
func openCursor(c *gin.Context, prefix, token, fp string) (*entgql.Cursor[string], error) {
	secret, err := access.CursorSecret(c.Request.Context())
	if err != nil {
		return nil, err
	}
	p, err := unsealCursor(secret, prefix, token, fp, time.Now())
	if err != nil {
		return nil, err
	}
	var after entgql.Cursor[string]
	if after.UnmarshalGQL(p.After) != nil {
		return nil, invalidCursor()
	}
	return &after, nil
}
