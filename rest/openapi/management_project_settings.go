package openapi

// usageNotifications documents a project's api_usage_notifications: the
// service sends none, so every setting answers enabled false.
func usageNotifications() *Schema {
	one := Object(
		Req("enabled", Boolean()),
		Req("value", Integer().Desc("Percent of the limit (10-90).")),
		Req("in_app", Boolean()),
		Req("emails", Array(String())),
	)
	return Object(
		Req("redemptions", one), Req("messages", one), Req("api_calls", one),
		Req("bulk_api_calls", one), Req("webhook_calls", one), Req("cycle_calls", one),
	).Desc("Usage notifications; the service sends none (all disabled).")
}

// calloutNotifications documents a project's
// webhooks_callout_notifications: the service sends none.
func calloutNotifications() *Schema {
	one := Object(Req("email", Boolean()), Req("in_app", Boolean()), Req("emails", Array(String())))
	return Object(Req("distributions", one), Req("webhooks", one)).
		Desc("Notifications about failing webhook callouts; the service sends none (all off).")
}
