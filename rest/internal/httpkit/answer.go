package httpkit

import "github.com/gin-gonic/gin"

// Answer renders a resolver call's outcome: the error, or status with
// render(out) as the body (no body when render is nil).
func Answer[T any](c *gin.Context, status int, out T, err error, render func(T) any) {
	if err != nil {
		RenderError(c, err)
		return
	}
	if render == nil {
		c.Status(status)
		return
	}
	c.PureJSON(status, render(out))
}

// ListOf renders items as a v1 list of all of them.
func ListOf[T, B any](items []T, one func(T) B) any {
	out := make([]B, len(items))
	for i, it := range items {
		out[i] = one(it)
	}
	return NewList(out, len(out))
}
