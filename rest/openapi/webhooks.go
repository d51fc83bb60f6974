package openapi

import (
	"net/http"

	"github.com/promoengine/promoengine/ent/webhookevent"
	webhookpkg "github.com/promoengine/promoengine/graph/webhook"
)

// webhooks documents a project's webhook configurations, their events and
// delivery attempts (rest/webhooks.go).
func webhooks(a *API) {
	a.Tag("Webhooks", "Where a project's events are sent, and how the deliveries went.")
	webhook := a.Schema("Webhook", Object(
		Req("id", String()),
		Req("object", Const("webhook")),
		Req("created_at", DateTime()),
		Req("target_url", String()),
		Req("events", Array(String()).Desc("Event types sent; empty: all.")),
		Req("active", Boolean()),
	))
	event := Object(
		Req("id", String()),
		Req("object", Const("webhook_event")),
		Req("webhook_id", String()),
		Req("type", String()),
		Req("related_object_type", String()),
		Req("related_object_id", String()),
		Req("status", EnumOf(webhookevent.StatePENDING, webhookevent.StateDELIVERED, webhookevent.StateFAILED)),
		Req("attempts", Integer()),
		Req("next_attempt_at", DateTime().Null()),
		Req("delivered_at", DateTime().Null()),
		Req("created_at", DateTime()),
	)
	a.Schema("WebhookEvent", event)
	delivery := Object(
		Req("id", String()),
		Req("object", Const("webhook_delivery")),
		Req("webhook_id", String()),
		Req("event_id", String()),
		Req("attempt", Integer()),
		Req("target_url", String()),
		Req("status_code", Integer().Null()),
		Req("success", Boolean()),
		Req("error", String().Null()),
		Req("duration_ms", Integer()),
		Req("created_at", DateTime()),
	)
	base := "/management/v1/projects/{projectId}/webhooks"
	project := map[string]string{"projectId": "The project's ID."}
	hook := map[string]string{"projectId": "The project's ID.", "webhookId": "The webhook's ID."}
	ev := map[string]string{"projectId": "The project's ID.", "webhookId": "The webhook's ID.",
		"eventId": "The event's ID."}
	input := Input[webhookpkg.WebhookInput]()
	a.Add("POST "+base, Op{Summary: "Create a webhook", Auth: Management, PathParams: project,
		Body: input.With(Req("target_url", input.Properties["target_url"])), BodyRequired: true, Response: webhook})
	a.Add("GET "+base, Op{Summary: "List webhooks", Auth: Management, PathParams: project,
		Response: V1List("data", webhook, true)})
	a.Add("GET "+base+"/{webhookId}", Op{Summary: "Get a webhook", Auth: Management, PathParams: hook,
		Response: webhook})
	a.Add("PUT "+base+"/{webhookId}", Op{Summary: "Update a webhook", Auth: Management, PathParams: hook,
		Body: input, Response: webhook})
	a.Add("DELETE "+base+"/{webhookId}", Op{Summary: "Delete a webhook", Auth: Management, PathParams: hook,
		Status: http.StatusNoContent})
	a.Add("GET "+base+"/{webhookId}/events", Op{Summary: "List a webhook's events", Auth: Management,
		PathParams: hook, Query: []Param{LimitParam, PageParam,
			Query("status", EnumOf(webhookevent.StatePENDING, webhookevent.StateDELIVERED, webhookevent.StateFAILED), "")},
		Response: V1List("data", Ref("WebhookEvent"), true)})
	a.Add("GET "+base+"/{webhookId}/events/{eventId}", Op{Summary: "Get a webhook event", Auth: Management,
		PathParams: ev, Response: event.With(Req("data", Any().Desc("The payload as sent.")))})
	a.Add("POST "+base+"/{webhookId}/events/{eventId}/redeliver", Op{Summary: "Redeliver a webhook event",
		Auth: Management, PathParams: ev, Status: http.StatusAccepted, Response: Ref("WebhookEvent")})
	a.Add("GET "+base+"/{webhookId}/deliveries", Op{Summary: "List a webhook's delivery attempts",
		Auth: Management, PathParams: hook,
		Query:    []Param{LimitParam, PageParam, Query("event_id", String(), "Only this event's attempts.")},
		Response: V1List("data", delivery, true)})
}
