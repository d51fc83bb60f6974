package jsonfield

// Brand is the brand part of a brand configuration. Nullable fields are
// pointers and always written (null when unset).
type Brand struct {
	Name               string  `json:"name"`
	PrivacyPolicyURL   *string `json:"privacy_policy_url"`
	TermsOfUseURL      *string `json:"terms_of_use_url"`
	PermissionReminder string  `json:"permission_reminder"`
	// WebsiteURL is always a string (the interface's brand has no null
	// website_url): "" when none was given.
	WebsiteURL string `json:"website_url"`
}

// Address is the postal address of a brand.
type Address struct {
	Street  string  `json:"street"`
	City    string  `json:"city"`
	Postal  string  `json:"postal"`
	State   *string `json:"state"`
	Country string  `json:"country"`
}

// Contact is how customers reach a brand.
type Contact struct {
	Email string  `json:"email"`
	Phone *string `json:"phone"`
}

// Cockpits are the customer cockpit settings of a brand; every key is
// always present in responses.
type Cockpits struct {
	CampaignsOverviewEnabled        bool    `json:"campaigns_overview_enabled"`
	LoyaltyEnabled                  bool    `json:"loyalty_enabled"`
	GiftCardsEnabled                bool    `json:"gift_cards_enabled"`
	CouponsEnabled                  bool    `json:"coupons_enabled"`
	ReferralsEnabled                bool    `json:"referrals_enabled"`
	Theme                           string  `json:"theme"`
	UseCustomDoubleOptInRedirectURL bool    `json:"use_custom_double_opt_in_redirect_url"`
	CustomDoubleOptInRedirectURL    *string `json:"custom_double_opt_in_redirect_url"`
}
