package management

// Members of the management API's project object that the real service's
// document requires (management.json, ManagementProject) and that
// describe settings this service has one fixed answer for: voucher codes
// are always case-sensitive (a lookup is an exact match), every project
// lives on the one deployment (the real service's default cluster, eu1,
// whose host is the interface's default `api`), and the service sends no
// usage or webhook-callout notifications, so those settings are all off.
// docs/openapi.md ("Strict check against the reference documents").

// projectClusterID is the cluster_id of every project.
const projectClusterID = "eu1"

// usageNotification is one of api_usage_notifications' settings.
type usageNotification struct {
	Enabled bool     `json:"enabled"`
	Value   int      `json:"value"`
	InApp   bool     `json:"in_app"`
	Emails  []string `json:"emails"`
}

// apiUsageNotifications are the project's usage notifications (all off).
type apiUsageNotifications struct {
	Redemptions  usageNotification `json:"redemptions"`
	Messages     usageNotification `json:"messages"`
	APICalls     usageNotification `json:"api_calls"`
	BulkAPICalls usageNotification `json:"bulk_api_calls"`
	WebhookCalls usageNotification `json:"webhook_calls"`
	CycleCalls   usageNotification `json:"cycle_calls"`
}

// calloutNotification is one of webhooks_callout_notifications' settings.
type calloutNotification struct {
	Email  bool     `json:"email"`
	InApp  bool     `json:"in_app"`
	Emails []string `json:"emails"`
}

// webhooksCalloutNotifications are the project's notifications about
// failing webhook callouts (all off).
type webhooksCalloutNotifications struct {
	Distributions calloutNotification `json:"distributions"`
	Webhooks      calloutNotification `json:"webhooks"`
}

// projectFixedSettings are the members of every project object that have
// one answer here.
type projectFixedSettings struct {
	CaseSensitiveCodes           bool                         `json:"case_sensitive_codes"`
	ClusterID                    string                       `json:"cluster_id"`
	APIUsageNotifications        apiUsageNotifications        `json:"api_usage_notifications"`
	WebhooksCalloutNotifications webhooksCalloutNotifications `json:"webhooks_callout_notifications"`
}

// fixedProjectSettings returns the fixed settings: a usage notification
// off at the document's default threshold (80%), no addresses.
func fixedProjectSettings() projectFixedSettings {
	off := usageNotification{Value: 80, Emails: []string{}}
	callout := calloutNotification{Emails: []string{}}
	return projectFixedSettings{CaseSensitiveCodes: true, ClusterID: projectClusterID,
		APIUsageNotifications: apiUsageNotifications{Redemptions: off, Messages: off, APICalls: off,
			BulkAPICalls: off, WebhookCalls: off, CycleCalls: off},
		WebhooksCalloutNotifications: webhooksCalloutNotifications{Distributions: callout, Webhooks: callout}}
}
