package loyaltyv2

import (
	"net/http"

	"entgo.io/contrib/entgql"
	"github.com/gin-gonic/gin"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
	"github.com/promoengine/promoengine/rest/internal/httpkit"
)

// fetchPage reads one page of a connection: limit rows after the keyset
// position, ordered by created_at in dir.
type fetchPage[B any] func(c *gin.Context, after *entgql.Cursor[string], limit int, dir entgql.OrderDirection) ([]B, entgql.PageInfo[string], error)

// listV2 serves a v2 list (limit, order, cursor; filters[…] refused with
// a 400, httpkit.NotSupported) of the
// resources fetch returns, already rendered. kind names the list in the
// cursor fingerprint, together with the path parameters.
func listV2[B any](prefix, kind string, fetch fetchPage[B]) gin.HandlerFunc {
	return func(c *gin.Context) {
		page, err := parseV2Page(queryOf(c))
		if err == nil {
			err = httpkit.NotSupported(queryOf(c), "this list", "filters")
		}
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		fp := listFingerprint(c, kind, page)
		var after *entgql.Cursor[string]
		if page.Cursor != "" {
			if after, err = openCursor(c, prefix, page.Cursor, fp); err != nil {
				httpkit.RenderError(c, err)
				return
			}
		}
		items, info, err := fetch(c, after, page.Limit, page.direction())
		if err != nil {
			httpkit.RenderError(c, err)
			return
		}
		if items == nil {
			items = []B{}
		}
		out := v2List[B]{Data: items, Object: "list"}
		if info.HasNextPage && info.EndCursor != nil {
			if out.Cursor, err = signCursor(c, prefix, info.EndCursor, fp); err != nil {
				httpkit.RenderError(c, err)
				return
			}
		}
		c.PureJSON(http.StatusOK, out)
	}
}

// nodes renders the nodes of a connection's edges.
func nodes[E any, N any, B any](edges []E, node func(E) N, render func(N) B) []B {
	out := make([]B, len(edges))
	for i, e := range edges {
		out[i] = render(node(e))
	}
	return out
}

// registerLoyaltyLists adds the v2 list routes of the loyalty resources.
func registerLoyaltyLists(v2 *gin.RouterGroup, root *graph.Resolver) {
	q := root.Query()
	v2.GET("/programs", listV2("lcrsprg_", "programs", func(c *gin.Context, after *entgql.Cursor[string], limit int, dir entgql.OrderDirection) ([]programBody, entgql.PageInfo[string], error) {
		conn, err := q.LoyaltyPrograms(c.Request.Context(), after, &limit, nil, nil,
			&ent.LoyaltyProgramOrder{Field: ent.LoyaltyProgramOrderFieldCreatedAt, Direction: dir}, nil)
		if err != nil {
			return nil, entgql.PageInfo[string]{}, err
		}
		return nodes(conn.Edges, func(e *ent.LoyaltyProgramEdge) *ent.LoyaltyProgram { return e.Node }, programJSON), conn.PageInfo, nil
	}))
	v2.GET("/card-definitions", listV2("lcrscdef_", "card-definitions", func(c *gin.Context, after *entgql.Cursor[string], limit int, dir entgql.OrderDirection) ([]cardDefinitionBody, entgql.PageInfo[string], error) {
		conn, err := q.CardDefinitions(c.Request.Context(), after, &limit, nil, nil,
			&ent.CardDefinitionOrder{Field: ent.CardDefinitionOrderFieldCreatedAt, Direction: dir}, nil)
		if err != nil {
			return nil, entgql.PageInfo[string]{}, err
		}
		return nodes(conn.Edges, func(e *ent.CardDefinitionEdge) *ent.CardDefinition { return e.Node }, cardDefinitionJSON), conn.PageInfo, nil
	}))
	v2.GET("/rewards", listV2("lcrsrew_", "rewards", func(c *gin.Context, after *entgql.Cursor[string], limit int, dir entgql.OrderDirection) ([]map[string]any, entgql.PageInfo[string], error) {
		conn, err := q.Rewards(c.Request.Context(), after, &limit, nil, nil,
			&ent.RewardOrder{Field: ent.RewardOrderFieldCreatedAt, Direction: dir}, nil)
		if err != nil {
			return nil, entgql.PageInfo[string]{}, err
		}
		return nodes(conn.Edges, func(e *ent.RewardEdge) *ent.Reward { return e.Node }, rewardJSON), conn.PageInfo, nil
	}))
	v2.GET("/earning-rules", listV2("lcrsern_", "earning-rules", func(c *gin.Context, after *entgql.Cursor[string], limit int, dir entgql.OrderDirection) ([]earningRuleBody, entgql.PageInfo[string], error) {
		conn, err := q.EarningRules(c.Request.Context(), after, &limit, nil, nil,
			&ent.EarningRuleOrder{Field: ent.EarningRuleOrderFieldCreatedAt, Direction: dir}, nil)
		if err != nil {
			return nil, entgql.PageInfo[string]{}, err
		}
		return nodes(conn.Edges, func(e *ent.EarningRuleEdge) *ent.EarningRule { return e.Node }, earningRuleJSON), conn.PageInfo, nil
	}))
	v2.GET("/incentives", listV2("lcrsinc_", "incentives", incentivePage(root, incentiveJSON)))
	v2.GET("/programs/:programId/members", listV2("lcrsmbr_", "members", func(c *gin.Context, after *entgql.Cursor[string], limit int, dir entgql.OrderDirection) ([]memberBody, entgql.PageInfo[string], error) {
		ctx := c.Request.Context()
		p, err := q.LoyaltyProgram(ctx, c.Param("programId"))
		if err != nil {
			return nil, entgql.PageInfo[string]{}, err
		}
		conn, err := root.LoyaltyProgram().Members(ctx, p, after, &limit, nil, nil,
			&ent.LoyaltyMemberOrder{Field: ent.LoyaltyMemberOrderFieldCreatedAt, Direction: dir}, nil)
		if err != nil {
			return nil, entgql.PageInfo[string]{}, err
		}
		out := make([]memberBody, 0, len(conn.Edges))
		for _, e := range conn.Edges {
			m, err := withCards(ctx, e.Node)
			if err != nil {
				return nil, entgql.PageInfo[string]{}, err
			}
			out = append(out, m)
		}
		return out, conn.PageInfo, nil
	}))
}
