package pulid

// Prefixes of the legacy consents (the real service's cnst_… and cgrp_…
// IDs), a customer's granted consents and the record of each change.
const (
	PrefixConsent         = "cnst_"
	PrefixConsentGroup    = "cgrp_"
	PrefixCustomerConsent = "ccon_"
	PrefixConsentChange   = "ccev_"
)
