package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// AsyncAction is a durable background job (bulk voucher generation). Rows
// are claimed with FOR UPDATE SKIP LOCKED on PostgreSQL and held by a lease,
// so several server processes share the work and a restart resumes it.
type AsyncAction struct{ ent.Schema }

// Mixin of the AsyncAction.
func (AsyncAction) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{Prefix: pulid.PrefixAsync, Length: 18, Hex: true}, ProjectMixin{IndexedElsewhere: true}, TimeMixin{}}
}

// Fields of the AsyncAction.
func (AsyncAction) Fields() []ent.Field {
	return []ent.Field{
		// type names the job kind as the real service does (e.g.
		// CAMPAIGN.VOUCHERS_GENERATION), so it is a string, not an enum.
		field.String("type").NotEmpty().Immutable(),
		field.Enum("status").Values("ENQUEUED", "IN_PROGRESS", "DONE", "FAILED").Default("ENQUEUED").
			Annotations(entgql.Type("AsyncActionStatus")),
		field.String("campaign_id").Optional().Nillable().Immutable(),
		// export_id names the export an export job writes.
		field.String("export_id").Optional().Nillable().Immutable(),
		field.JSON("params", &jsonfield.GenerationParams{}).Immutable().
			Annotations(entgql.Skip()),
		// total and done count the units of work (vouchers, rows) of the
		// job. total is set once, before the job is committed (a CSV
		// import counts its rows while it stores the file).
		field.Int("total").NonNegative(),
		field.Int("done").Default(0).NonNegative(),
		field.String("failure_reason").Optional().Nillable(),
		field.JSON("result", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
		field.String("request_id").Optional().Nillable().Immutable(),
		field.Int("attempts").Default(0).NonNegative().Annotations(entgql.Skip()),
		field.String("claimed_by").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("lease_until").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("started_at").Optional().Nillable(),
		field.Time("finished_at").Optional().Nillable(),
	}
}

// Indexes of the AsyncAction: workers look for claimable jobs by status;
// GET /v1/async-actions lists the project's newest (its project_id index).
func (AsyncAction) Indexes() []ent.Index {
	return []ent.Index{index.Fields("status", "lease_until"), index.Fields("project_id", "created_at", "id")}
}

// Annotations of the AsyncAction.
func (AsyncAction) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection(), entgql.QueryField()}
}
