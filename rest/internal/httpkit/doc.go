// Package httpkit is the shared HTTP kit of the REST layer's packages:
// what every area's Gin handlers need besides their own JSON shapes. It
// renders errors as the Voucherify error object (with the request's id),
// decodes JSON bodies the way the official SDKs need (body limit, nulls,
// numbers), reads query parameters, writes timestamps and v1 lists, turns
// a resolver call's outcome into a response (Answer; the handler adapters
// Read, Write, WriteStatus and NoContent over an Op that reads the
// request) and authenticates management keys.
//
// It imports no REST area: rest, rest/management and the areas that move
// out of rest after it import the kit, never the other way round
// (graph/internal/layering, docs/architecture.md "Splitting rest").
package httpkit
