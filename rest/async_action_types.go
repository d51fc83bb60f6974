package rest

// restAsyncActionTypes map the job types this server names differently
// from the real service onto its documented async action types
// (async-actions.json AsyncActionBase.type). The others keep their names:
// CAMPAIGN.DELETE, CAMPAIGN.RESTORE, EXPORT.* and LOYALTY.MEMBERS_BATCH_CREATE have no
// documented counterpart (the real service does not run them as async
// actions); docs/openapi.md lists them.
var restAsyncActionTypes = map[string]string{
	"CAMPAIGN.VOUCHERS_GENERATION": "CAMPAIGN.VOUCHERS_GENERATE",
}

// asyncActionType is a job's type as the REST API shows it.
func asyncActionType(jobType string) string {
	if t, ok := restAsyncActionTypes[jobType]; ok {
		return t
	}
	return jobType
}
