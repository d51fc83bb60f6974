package qualification

import (
	"strings"
	"testing"

	"entgo.io/ent/dialect"
)

// TestCodeCandidateStatementsStayInTheProject checks every cached form of
// the candidate codes' statement: the hand-written SQL bypasses ent's
// tenancy interceptor, so the vouchers, their campaign and the customer
// must each be filtered by the project, and every placeholder must name
// a value the request binds.
func TestCodeCandidateStatementsStayInTheProject(t *testing.T) {
	for _, d := range []string{dialect.SQLite, dialect.Postgres} {
		for _, form := range []codeCandidateForm{
			{held: true, holderByID: true}, {held: true}, {}, {held: true, before: true}, {before: true},
		} {
			form.dialect = d
			st, err := codeCandidateSQL(form)
			if err != nil {
				t.Fatalf("%+v: %v", form, err)
			}
			want := []string{`"v"."project_id" = `, `"c"."project_id" = "v"."project_id"`}
			if form.held && !form.holderByID {
				want = append(want, `"cu"."project_id" = `)
			}
			text := strings.ReplaceAll(st.text, "`", `"`) // SQLite's quotes
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("%+v: no %s in %s", form, w, st.text)
				}
			}
			bound := map[codeParam]bool{paramProject: true, paramNow: true, paramType: !form.held, paramHolder: form.held,
				paramBefore: form.before}
			for i, p := range st.params {
				if !bound[p] {
					t.Errorf("%+v: placeholder %d takes %q, which this form does not bind", form, i, p)
				}
			}
		}
	}
}
