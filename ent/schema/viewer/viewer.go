// Package viewer carries who is making a request through the context: the
// project whose data the request may see and the credential that proved it.
// The ProjectMixin reads it to scope every query and stamp every insert, so
// tenancy is enforced in the data layer, not remembered by handlers.
package viewer

import "context"

// Viewer is the authenticated caller of one request.
type Viewer struct {
	// ProjectID scopes every project-owned read and write.
	ProjectID string
	// AppID is the application key that authenticated the request (for an
	// OAuth token: the key that issued it).
	AppID string
	// TokenID is the OAuth token that authenticated the request ("" for
	// application keys).
	TokenID string
	// Scopes narrow what an OAuth token may call; nil (application keys)
	// means everything the key may call.
	Scopes []string
	// Client marks a request through the client-side API (/client/v1):
	// what it does is recorded with the CLIENT_API channel.
	Client bool
	// NamedChannel is the channel the caller named (the SDKs' and
	// integrations' X-Voucherify-Channel header), "" when none.
	NamedChannel string
	// User marks a request of the management API (the dashboard's user).
	User bool
}

// TransactionSource is the source a voucher transaction made by the
// viewer records: the channel the caller named, USER for the management
// API, CLIENT_API for the client-side API, API otherwise.
func (v Viewer) TransactionSource() string {
	switch {
	case v.NamedChannel != "":
		return v.NamedChannel
	case v.User:
		return "USER"
	}
	return v.Channel()
}

// TransactionSourceOf is the TransactionSource of ctx's viewer, API when
// there is none (background jobs).
func TransactionSourceOf(ctx context.Context) string {
	if v, ok := FromContext(ctx); ok {
		return v.TransactionSource()
	}
	return "API"
}

// Channel is how what the viewer does is recorded: "CLIENT_API" for the
// client-side API, "API" otherwise.
func (v Viewer) Channel() string {
	if v.Client {
		return "CLIENT_API"
	}
	return "API"
}

type viewerKey struct{}
type systemKey struct{}

// NewContext returns a context that carries v.
func NewContext(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// FromContext returns the viewer of ctx and whether there is one.
func FromContext(ctx context.Context) (Viewer, bool) {
	v, ok := ctx.Value(viewerKey{}).(Viewer)
	return v, ok && v.ProjectID != ""
}

// NewSystemContext returns a context allowed to read across projects. It is
// for narrow internal work only (credential lookups, background job claims);
// writes under it must name their project explicitly. A viewer that ctx
// carries is hidden in the returned context.
func NewSystemContext(ctx context.Context) context.Context {
	return context.WithValue(context.WithValue(ctx, viewerKey{}, Viewer{}), systemKey{}, true)
}

// IsSystem reports whether ctx was made by NewSystemContext.
func IsSystem(ctx context.Context) bool {
	v, _ := ctx.Value(systemKey{}).(bool)
	return v
}
