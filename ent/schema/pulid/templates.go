package pulid

// Prefixes of campaign templates, locations and user invitations (the
// real service's camp_tpl_… and loc_… IDs).
const (
	PrefixCampaignTemplate = "camp_tpl_"
	PrefixLocation         = "loc_"
	PrefixUserInvitation   = "uinv_"
)
