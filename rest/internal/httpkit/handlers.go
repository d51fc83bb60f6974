package httpkit

import (
	"context"
	"net/http"

	"github.com/gin-gonic/gin"
)

// The handler adapters: most REST handlers read a path parameter or a JSON
// body, call one resolver (writes in a transaction) and render the result.
// An Op does the reading (WithQuery: a list's query string), Read, Write,
// WriteStatus and NoContent the rest, so such a handler is one line of its
// Register:
//
//	v1.PUT("/categories/:categoryId", auth, httpkit.Write(httpkit.WithParamAndBody("categoryId", m.UpdateCategory), categoryJSON))

// Call is a resolver call bound to what its request carries; it runs with
// the request's context (Read) or its transaction's (Write).
type Call[T any] func(ctx context.Context) (T, error)

// Op reads what one resolver call needs from the request (path
// parameters, the decoded JSON body) and returns the call. It runs before
// any transaction opens: a body that does not decode is refused (400)
// without one, and a slow upload holds no database writer.
type Op[T any] func(c *gin.Context) (Call[T], error)

// Bound is the Op of fn, which reads the request itself (path parameters;
// nothing decoded).
func Bound[T any](fn func(c *gin.Context, ctx context.Context) (T, error)) Op[T] {
	return func(c *gin.Context) (Call[T], error) {
		return func(ctx context.Context) (T, error) { return fn(c, ctx) }, nil
	}
}

// Decoded decodes the JSON body into an I (DecodeBody: limit, nulls,
// numbers) and binds it to fn, which may read the request's path
// parameters too.
func Decoded[I, T any](fn func(c *gin.Context, ctx context.Context, in I) (T, error)) Op[T] {
	return func(c *gin.Context) (Call[T], error) {
		var in I
		if err := DecodeBody(c, &in); err != nil {
			return nil, err
		}
		return func(ctx context.Context) (T, error) { return fn(c, ctx, in) }, nil
	}
}

// ByParam calls fn with the path parameter name.
func ByParam[T any](name string, fn func(context.Context, string) (T, error)) Op[T] {
	return Bound(func(c *gin.Context, ctx context.Context) (T, error) { return fn(ctx, c.Param(name)) })
}

// ByParams calls fn with the path parameters a and b.
func ByParams[T any](a, b string, fn func(context.Context, string, string) (T, error)) Op[T] {
	return Bound(func(c *gin.Context, ctx context.Context) (T, error) { return fn(ctx, c.Param(a), c.Param(b)) })
}

// WithBody calls fn with the decoded JSON body.
func WithBody[I, T any](fn func(context.Context, I) (T, error)) Op[T] {
	return Decoded(func(_ *gin.Context, ctx context.Context, in I) (T, error) { return fn(ctx, in) })
}

// WithParamAndBody calls fn with the path parameter name and the decoded
// JSON body.
func WithParamAndBody[I, T any](name string, fn func(context.Context, string, I) (T, error)) Op[T] {
	return Decoded(func(c *gin.Context, ctx context.Context, in I) (T, error) { return fn(ctx, c.Param(name), in) })
}

// WithParamsAndBody calls fn with the path parameters a and b and the
// decoded JSON body.
func WithParamsAndBody[I, T any](a, b string, fn func(context.Context, string, string, I) (T, error)) Op[T] {
	return Decoded(func(c *gin.Context, ctx context.Context, in I) (T, error) { return fn(ctx, c.Param(a), c.Param(b), in) })
}

// WithQuery calls fn with what parse reads from the query string (a
// list's limit, page, order and filters; an error there is the request's,
// 400).
func WithQuery[Q, T any](parse func(c *gin.Context) (Q, error), fn func(context.Context, Q) (T, error)) Op[T] {
	return func(c *gin.Context) (Call[T], error) {
		q, err := parse(c)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context) (T, error) { return fn(ctx, q) }, nil
	}
}

// WithParamAndQuery calls fn with the path parameter name and what parse
// reads from the query string (a list under a resource).
func WithParamAndQuery[Q, T any](name string, parse func(c *gin.Context) (Q, error), fn func(context.Context, string, Q) (T, error)) Op[T] {
	return func(c *gin.Context) (Call[T], error) {
		id := c.Param(name)
		return WithQuery(parse, func(ctx context.Context, q Q) (T, error) { return fn(ctx, id, q) })(c)
	}
}

// Read runs the call with the request's context and answers 200 with
// render(result), or the error object.
func Read[T, B any](op Op[T], render func(T) B) gin.HandlerFunc {
	return func(c *gin.Context) {
		out, err := Run(c, op, false)
		if err != nil {
			RenderError(c, err)
			return
		}
		c.PureJSON(http.StatusOK, render(out))
	}
}

// Write runs the call in one transaction of the request (InTx: a failure
// writes nothing) and answers 200 with render(result), or the error object.
func Write[T, B any](op Op[T], render func(T) B) gin.HandlerFunc {
	return WriteStatus(http.StatusOK, op, render)
}

// WriteStatus is Write with another success status (201, or 202 for the
// documents' asynchronous operations).
func WriteStatus[T, B any](status int, op Op[T], render func(T) B) gin.HandlerFunc {
	return func(c *gin.Context) {
		out, err := Run(c, op, true)
		if err != nil {
			RenderError(c, err)
			return
		}
		c.PureJSON(status, render(out))
	}
}

// NoContent runs the call in one transaction and answers 204 without a
// body (a delete), or the error object.
func NoContent[T any](op Op[T]) gin.HandlerFunc {
	return func(c *gin.Context) {
		if _, err := Run(c, op, true); err != nil {
			RenderError(c, err)
			return
		}
		c.Status(http.StatusNoContent)
	}
}

// Run reads the op's request and runs its call, in a transaction if inTx:
// for a handler that does more with the result than render it (a second
// read, a rendering that needs the request).
func Run[T any](c *gin.Context, op Op[T], inTx bool) (T, error) {
	call, err := op(c)
	if err != nil {
		var zero T
		return zero, err
	}
	if inTx {
		return InTx(c, call)
	}
	return call(c.Request.Context())
}
