package openapi

import "net/http"

// probes documents the operational routes: health and readiness probes,
// the Prometheus metrics and this document.
func probes(a *API) {
	a.Tag("Operations", "Probes, metrics and this document. No credentials.")
	status := Object(Req("status", Enum("ok", "draining", "unavailable")))
	a.Add("GET /healthz", Op{Summary: "Check liveness", Auth: Public,
		Description: "200 while the process serves requests.",
		Response:    Object(Req("status", Const("ok")))})
	a.Add("GET /readyz", Op{Summary: "Check readiness", Auth: Public,
		Description: "200 when the database answers; 503 while it does not or while the process drains " +
			"before shutting down (load balancers should stop sending traffic).",
		Response: status,
		Also:     []Response{{Status: http.StatusServiceUnavailable, Description: "Not ready", Schema: status}}})
	a.Add("GET /metrics", Op{Summary: "Get Prometheus metrics", Auth: Public,
		Description: "Prometheus text exposition. Served here unless PROMO_METRICS_ADDR moves it to " +
			"another listener (then 404).",
		ResponseType: "text/plain"})
	a.Add("GET /openapi.json", Op{Summary: "Get this OpenAPI document", Auth: Public,
		Response: FreeObject().Desc("An OpenAPI 3.1 document.")})
}
