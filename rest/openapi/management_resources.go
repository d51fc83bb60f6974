package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/access"
	"github.com/promoengine/promoengine/graph/redemption/stacking"
)

// managementResources documents the management routes beyond projects'
// create/list/get/update (management.go): deleting a project, and a
// project's branding, users, metadata schemas, custom event schemas and
// stacking rules (rest/management/*.go).
func managementResources(a *API) {
	a.Tag("Management resources", "A project's branding, users, schemas and stacking rules, with management keys.")
	project := map[string]string{"projectId": "The project's ID."}
	with := func(name, desc string) map[string]string {
		return map[string]string{"projectId": "The project's ID.", name: desc}
	}
	base := "/management/v1/projects/{projectId}"
	a.Add("DELETE "+base, Op{Summary: "Delete a project", Auth: Management, PathParams: project,
		Description: "Deletes the project with all its data; its keys and tokens stop working (docs/security.md).",
		Status:      http.StatusNoContent})

	branding := a.Schema("Branding", Object(
		Req("id", String()),
		Req("brand", FromGo[jsonfield.Brand]()),
		Req("address", FromGo[jsonfield.Address]()),
		Req("contact", FromGo[jsonfield.Contact]()),
		Req("cockpits", FromGo[jsonfield.Cockpits]()),
	))
	brandingID := with("brandingId", "The brand configuration's ID.")
	a.Add("GET "+base+"/branding", Op{Summary: "List brands", Auth: Management, PathParams: project,
		Response: V1List("data", branding, true), Errors: []int{402}})
	a.Add("GET "+base+"/branding/{brandingId}", Op{Summary: "Get a brand", Auth: Management, PathParams: brandingID,
		Response: branding, Errors: []int{402}})
	a.Add("PUT "+base+"/branding/{brandingId}", Op{Summary: "Update a brand", Auth: Management, PathParams: brandingID,
		Description: "Only what is sent changes; null clears a nullable field.",
		Body: Object(
			Opt("brand", Input[jsonfield.Brand]()),
			Opt("address", Input[jsonfield.Address]()),
			Opt("contact", Input[jsonfield.Contact]()),
			Opt("cockpits", Input[jsonfield.Cockpits]()),
		), BodyRequired: true, Response: branding, Errors: []int{402}})
	a.Add("DELETE "+base+"/branding/{brandingId}", Op{Summary: "Delete a brand", Auth: Management,
		PathParams: brandingID, Status: http.StatusNoContent, Errors: []int{402}})

	user := a.Schema("ProjectUser", Object(
		Req("id", String()),
		Req("login", String()),
		Req("email", String()),
		Req("first_name", String()),
		Req("last_name", String()),
		Req("projects", MapOf(String()).Desc("Role by project ID (ADMIN, USER, ...).")),
		Req("is_owner", Boolean()),
	))
	userID := with("userId", "The user's ID.")
	a.Add("POST "+base+"/users", Op{Summary: "Assign a user", Auth: Management, PathParams: project,
		Description: "Gives an existing user (by id or login, not both) a role in the project.",
		Body:        Input[access.AssignUserInput]("role"), BodyRequired: true, Response: user, Errors: []int{402, 409}})
	a.Add("GET "+base+"/users/{userId}", Op{Summary: "Get a project user", Auth: Management, PathParams: userID,
		Response: user, Errors: []int{402}})
	a.Add("PUT "+base+"/users/{userId}", Op{Summary: "Update a project user's role", Auth: Management,
		PathParams: userID, Body: Object(Req("role", String())), BodyRequired: true, Response: user, Errors: []int{402}})
	a.Add("DELETE "+base+"/users/{userId}", Op{Summary: "Unassign a user", Auth: Management, PathParams: userID,
		Description: "A user keeps at least one project: unassigning it from its only one is a 400.",
		Status:      http.StatusNoContent, Errors: []int{402}})

	properties := MapOf(notNull(FromGo[jsonfield.MetadataProperty]()))
	schema := a.Schema("ManagementMetadataSchema", Object(
		Req("id", String()),
		Req("related_object", String()),
		Req("properties", properties),
		Req("allow_defined_only", Boolean()),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("metadata_schema")),
	))
	schemaID := with("schemaId", "The metadata schema's ID.")
	schemaInput := Object(
		Opt("related_object", String()),
		Opt("properties", FreeObject().Desc(`Definitions by name: {type, optional, array, object_type, min_length, max_length, exact_length, eq, ne, lt, lte, gt, gte}; other options are refused; on update {"deleted": true} removes one.`)),
		Opt("allow_defined_only", Boolean().Desc("Only false is supported.")),
	)
	a.Add("POST "+base+"/metadata-schemas", Op{Summary: "Create a project metadata schema", Auth: Management,
		PathParams: project, Body: schemaInput, BodyRequired: true, Response: schema, Errors: []int{409}})
	a.Add("GET "+base+"/metadata-schemas", Op{Summary: "List project metadata schemas", Auth: Management,
		PathParams: project, Response: V1List("data", schema, true)})
	a.Add("GET "+base+"/metadata-schemas/{schemaId}", Op{Summary: "Get a project metadata schema", Auth: Management,
		PathParams: schemaID, Response: schema})
	a.Add("PUT "+base+"/metadata-schemas/{schemaId}", Op{Summary: "Update a project metadata schema", Auth: Management,
		PathParams: schemaID, Body: schemaInput, BodyRequired: true, Response: schema})
	a.Add("DELETE "+base+"/metadata-schemas/{schemaId}", Op{Summary: "Delete a project metadata schema",
		Auth: Management, PathParams: schemaID, Status: http.StatusNoContent})

	eventSchema := a.Schema("CustomEventSchema", Object(
		Req("id", String()),
		Req("name", String().Desc("The custom event's name.")),
		Req("schema", Object(Req("properties", properties))),
		Req("created_at", DateTime()),
		Req("updated_at", DateTime().Null()),
		Req("object", Const("custom-event-schema")),
	))
	eventID := with("schemaId", "The custom event schema's ID.")
	eventInput := Object(Opt("name", String()), Opt("schema", Object(Opt("properties", FreeObject()))))
	a.Add("POST "+base+"/custom-event-schemas", Op{Summary: "Create a custom event schema", Auth: Management,
		PathParams: project, Body: eventInput, BodyRequired: true, Response: eventSchema, Errors: []int{409}})
	a.Add("GET "+base+"/custom-event-schemas", Op{Summary: "List custom event schemas", Auth: Management,
		PathParams: project, Response: V1List("data", eventSchema, true)})
	a.Add("GET "+base+"/custom-event-schemas/{schemaId}", Op{Summary: "Get a custom event schema", Auth: Management,
		PathParams: eventID, Response: eventSchema})
	a.Add("PUT "+base+"/custom-event-schemas/{schemaId}", Op{Summary: "Update a custom event schema", Auth: Management,
		PathParams: eventID, Body: eventInput, BodyRequired: true, Response: eventSchema})
	a.Add("DELETE "+base+"/custom-event-schemas/{schemaId}", Op{Summary: "Delete a custom event schema",
		Auth: Management, PathParams: eventID, Status: http.StatusNoContent, Errors: []int{http.StatusConflict},
		Description: "Refused (409 resource_in_use, naming the rules) while an earning rule uses the schema as its trigger."})

	rules := a.Schema("ManagementStackingRules", FromGo[stacking.StackingRules]())
	rulesID := with("stackingRulesId", "The stacking rules' ID.")
	rulesInput := Input[stacking.StackingRulesInput]()
	a.Add("POST "+base+"/stacking-rules", Op{Summary: "Create stacking rules", Auth: Management, PathParams: project,
		Description: "The engine applies the limits, the application mode, the sorting rule and the no-effect rule; " +
			"the category settings accept only the values shown.",
		Body: rulesInput, BodyRequired: true, Response: rules, Errors: []int{409}})
	a.Add("GET "+base+"/stacking-rules", Op{Summary: "List stacking rules", Auth: Management, PathParams: project,
		Description: "Empty while the defaults apply.", Response: V1List("data", rules, true)})
	a.Add("GET "+base+"/stacking-rules/{stackingRulesId}", Op{Summary: "Get stacking rules", Auth: Management,
		PathParams: rulesID, Response: rules})
	a.Add("PUT "+base+"/stacking-rules/{stackingRulesId}", Op{Summary: "Update stacking rules", Auth: Management,
		PathParams: rulesID, Body: rulesInput, BodyRequired: true, Response: rules})
	a.Add("DELETE "+base+"/stacking-rules/{stackingRulesId}", Op{Summary: "Delete stacking rules", Auth: Management,
		PathParams: rulesID, Description: "The defaults apply again.", Status: http.StatusNoContent})
}
