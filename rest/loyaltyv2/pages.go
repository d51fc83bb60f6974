package loyaltyv2

import (
	"net/http"

	"entgo.io/contrib/entgql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/graph/loyalty/loyaltybase"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// keysetList serves a v2 list (limit, order, cursor; filters[…] refused
// with a 400) over a graph/loyalty
// keyset page: the cursor carries the last row's id, signed and bound to
// the list (kind and path parameters). fetch returns the rendered rows,
// the id of each, and whether more follow.
func keysetList[B any](prefix, kind string, fetch func(c *gin.Context, p loyaltybase.PageInput) ([]B, func(B) string, bool, error)) gin.HandlerFunc {
	return keysetListBy("created_at", true, prefix, kind, fetch)
}

// keysetListBy is keysetList ordered by field (order=field ascending,
// -field descending; desc is the default).
func keysetListBy[B any](field string, desc bool, prefix, kind string, fetch func(c *gin.Context, p loyaltybase.PageInput) ([]B, func(B) string, bool, error)) gin.HandlerFunc {
	page := keysetPage(field, desc, prefix, kind, fetch)
	return func(c *gin.Context) {
		if err := httpkit.NotSupported(queryOf(c), "this list", "filters"); err != nil {
			httpkit.RenderError(c, err)
			return
		}
		page(c)
	}
}

// keysetPage is keysetListBy for a list that reads its own filters (the
// order payments): it leaves filters[…] to fetch.
func keysetPage[B any](field string, desc bool, prefix, kind string, fetch func(c *gin.Context, p loyaltybase.PageInput) ([]B, func(B) string, bool, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		page, err := parseV2PageBy(queryOf(c), field, desc)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		fp := listFingerprint(c, kind, page)
		in := loyaltybase.PageInput{Limit: page.Limit, Asc: !page.Desc}
		if page.Cursor != "" {
			after, err := openCursor(c, prefix, page.Cursor, fp)
			if err != nil {
				httpkit.RenderError(c, err)
				return
			}
			in.After = &after.ID
		}
		items, id, more, err := fetch(c, in)
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		if items == nil {
			items = []B{}
		}
		out := v2List[B]{Data: items, Object: "list"}
		if more && len(items) > 0 {
			last := &entgql.Cursor[string]{ID: id(items[len(items)-1])}
			if out.Cursor, err = signCursor(c, prefix, last, fp); err != nil {
				httpkit.RenderError(c, err)
				return
			}
		}
		c.PureJSON(http.StatusOK, out)
	}
}
