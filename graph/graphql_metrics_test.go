package graph

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/promoengine/promoengine/graph/internal/observe"
)

func TestGraphQLMetricsBoundOperationNames(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := NewGraphQLMetrics(reg)
	respond := func(name string, op bool, errs ...*gqlerror.Error) {
		ctx := context.Background()
		if op {
			ctx = graphql.WithOperationContext(ctx, &graphql.OperationContext{Operation: &ast.OperationDefinition{Name: name}})
		}
		m.InterceptResponse(ctx, func(context.Context) *graphql.Response { return &graphql.Response{Errors: errs} })
	}
	respond("Campaigns", true)
	respond("Campaigns", true, gqlerror.Errorf("boom"))
	respond("", true)
	respond("Ignored", false) // never became an operation
	respond(strings.Repeat("N", 65), true)
	for i := range MaxGraphQLOperationNames + 10 {
		respond(fmt.Sprintf("Op%d", i), true)
	}
	count := func(op, outcome string) float64 {
		var out dto.Metric
		if err := m.ops.WithLabelValues(op, outcome).Write(&out); err != nil {
			t.Fatal(err)
		}
		return out.GetCounter().GetValue()
	}
	for _, c := range []struct {
		op, outcome string
		want        float64
	}{
		{"Campaigns", "ok", 1}, {"Campaigns", "error", 1}, {OperationAnonymous, "ok", 1}, {OperationInvalid, "ok", 1},
		// The long name, and the names past the bound (Campaigns took one place).
		{OperationOther, "ok", 1 + 11},
		{"Op0", "ok", 1}, {fmt.Sprintf("Op%d", MaxGraphQLOperationNames-2), "ok", 1},
	} {
		if got := count(c.op, c.outcome); got != c.want {
			t.Errorf("%s/%s = %v, want %v", c.op, c.outcome, got, c.want)
		}
	}
	families, err := reg.Gather()
	if err != nil || len(families) != 1 {
		t.Fatalf("gathered %d families: %v", len(families), err)
	}
	if n := len(families[0].GetMetric()); n != MaxGraphQLOperationNames+4 {
		t.Errorf("%d series, want the %d names plus anonymous, invalid, other and Campaigns' error", n, MaxGraphQLOperationNames)
	}
	// A nil extension counts nothing and passes the response on.
	var none *GraphQLMetrics
	if resp := none.InterceptResponse(context.Background(), func(context.Context) *graphql.Response { return &graphql.Response{} }); resp == nil {
		t.Error("nil extension lost the response")
	}
}

func TestValidRequestID(t *testing.T) {
	for id, want := range map[string]bool{
		"a": true, "req-1.2_3:4": true, strings.Repeat("z", observe.MaxRequestIDLength): true,
		"": false, strings.Repeat("z", observe.MaxRequestIDLength+1): false, "a b": false, "a\nb": false,
		"a/b": false, `a"b`: false, "é": false, "a;b": false,
	} {
		if got := observe.ValidRequestID(id); got != want {
			t.Errorf("ValidRequestID(%q) = %v, want %v", id, got, want)
		}
	}
}
