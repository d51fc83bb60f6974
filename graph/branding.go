package graph

import (
	"context"
	"fmt"
	"net/http"
	"net/mail"
	"net/url"
	"strings"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
)

// DefaultPermissionReminder is brand.permission_reminder when none is given.
const DefaultPermissionReminder = "You are receiving this email because you opted in at our website."

// DefaultCockpitTheme is cockpits.theme when none is given.
const DefaultCockpitTheme = "default"

// CreateBrandingInput is the request of POST
// /management/v1/projects/{projectId}/branding. Pointers tell absent (or
// null) from given.
type CreateBrandingInput struct {
	Brand *struct {
		Name               *string `json:"name"`
		PrivacyPolicyURL   *string `json:"privacy_policy_url"`
		TermsOfUseURL      *string `json:"terms_of_use_url"`
		PermissionReminder *string `json:"permission_reminder"`
		WebsiteURL         *string `json:"website_url"`
	} `json:"brand"`
	Address *struct {
		Street  *string `json:"street"`
		City    *string `json:"city"`
		Postal  *string `json:"postal"`
		State   *string `json:"state"`
		Country *string `json:"country"`
	} `json:"address"`
	Contact *struct {
		Email *string `json:"email"`
		Phone *string `json:"phone"`
	} `json:"contact"`
	Cockpits *struct {
		CampaignsOverviewEnabled        *bool   `json:"campaigns_overview_enabled"`
		LoyaltyEnabled                  *bool   `json:"loyalty_enabled"`
		GiftCardsEnabled                *bool   `json:"gift_cards_enabled"`
		CouponsEnabled                  *bool   `json:"coupons_enabled"`
		ReferralsEnabled                *bool   `json:"referrals_enabled"`
		Theme                           *string `json:"theme"`
		UseCustomDoubleOptInRedirectURL *bool   `json:"use_custom_double_opt_in_redirect_url"`
		CustomDoubleOptInRedirectURL    *string `json:"custom_double_opt_in_redirect_url"`
	} `json:"cockpits"`
}

// CreateBranding stores the brand configuration of the viewer's project
// (see ManageProject). A project has at most one: a second one — also when
// two requests race — is 409 branding_exist.
func CreateBranding(ctx context.Context, in CreateBrandingInput) (*ent.Branding, error) {
	c, err := client(ctx)
	if err != nil {
		return nil, err
	}
	b, err := in.validate()
	if err != nil {
		return nil, err
	}
	exists, err := c.Branding.Query().Exist(ctx)
	if err != nil {
		return nil, fmt.Errorf("looking up branding: %w", err)
	}
	if exists {
		return nil, brandingExists()
	}
	created, err := c.Branding.Create().
		SetBrand(b.brand).SetAddress(b.address).SetContact(b.contact).SetCockpits(b.cockpits).
		Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, brandingExists()
	}
	if err != nil {
		return nil, fmt.Errorf("creating branding: %w", err)
	}
	return created, nil
}

func brandingExists() *apperr.Error {
	return &apperr.Error{Code: http.StatusConflict, Key: "branding_exist", Message: "Branding exist",
		Details: "Cannot exist more than one branding for given project", ResourceType: "branding"}
}

type brandingValues struct {
	brand    jsonfield.Brand
	address  jsonfield.Address
	contact  jsonfield.Contact
	cockpits jsonfield.Cockpits
}

// validate checks the input and fills defaults; errors name the property.
func (in CreateBrandingInput) validate() (brandingValues, error) {
	var out brandingValues
	for _, obj := range []struct {
		name string
		nil  bool
	}{{"brand", in.Brand == nil}, {"address", in.Address == nil}, {"contact", in.Contact == nil}} {
		if obj.nil {
			return out, required(obj.name)
		}
	}
	var err error
	text := func(path string, v *string) string {
		if err == nil && (v == nil || strings.TrimSpace(*v) == "") {
			err = required(path)
		}
		if err == nil && len(*v) > 1000 {
			err = apperr.InvalidPayload("Property .%s must be at most 1000 characters", path)
		}
		if err != nil {
			return ""
		}
		return *v
	}
	optionalURL := func(path string, v *string) *string {
		if err != nil || v == nil {
			return nil
		}
		if !validURL(*v) {
			err = apperr.InvalidPayload("Property .%s must be a valid URL, got %q", path, *v)
		}
		return v
	}
	out.brand = jsonfield.Brand{
		Name:               text("brand.name", in.Brand.Name),
		PrivacyPolicyURL:   optionalURL("brand.privacy_policy_url", in.Brand.PrivacyPolicyURL),
		TermsOfUseURL:      optionalURL("brand.terms_of_use_url", in.Brand.TermsOfUseURL),
		PermissionReminder: DefaultPermissionReminder,
		WebsiteURL:         optionalURL("brand.website_url", in.Brand.WebsiteURL),
	}
	if r := in.Brand.PermissionReminder; r != nil {
		out.brand.PermissionReminder = text("brand.permission_reminder", r)
	}
	out.address = jsonfield.Address{
		Street:  text("address.street", in.Address.Street),
		City:    text("address.city", in.Address.City),
		Postal:  text("address.postal", in.Address.Postal),
		State:   in.Address.State,
		Country: text("address.country", in.Address.Country),
	}
	out.contact = jsonfield.Contact{Email: text("contact.email", in.Contact.Email), Phone: in.Contact.Phone}
	if err != nil {
		return out, err
	}
	if a, perr := mail.ParseAddress(out.contact.Email); perr != nil || a.Address != out.contact.Email {
		return out, apperr.InvalidPayload("Property .contact.email must be a valid email address, got %q", out.contact.Email)
	}
	out.cockpits = jsonfield.Cockpits{Theme: DefaultCockpitTheme}
	if ck := in.Cockpits; ck != nil {
		set := func(dst *bool, v *bool) {
			if v != nil {
				*dst = *v
			}
		}
		set(&out.cockpits.CampaignsOverviewEnabled, ck.CampaignsOverviewEnabled)
		set(&out.cockpits.LoyaltyEnabled, ck.LoyaltyEnabled)
		set(&out.cockpits.GiftCardsEnabled, ck.GiftCardsEnabled)
		set(&out.cockpits.CouponsEnabled, ck.CouponsEnabled)
		set(&out.cockpits.ReferralsEnabled, ck.ReferralsEnabled)
		set(&out.cockpits.UseCustomDoubleOptInRedirectURL, ck.UseCustomDoubleOptInRedirectURL)
		if ck.Theme != nil {
			out.cockpits.Theme = text("cockpits.theme", ck.Theme)
		}
		out.cockpits.CustomDoubleOptInRedirectURL = optionalURL("cockpits.custom_double_opt_in_redirect_url", ck.CustomDoubleOptInRedirectURL)
		if err == nil && out.cockpits.UseCustomDoubleOptInRedirectURL && out.cockpits.CustomDoubleOptInRedirectURL == nil {
			err = apperr.InvalidPayload("Property .cockpits.custom_double_opt_in_redirect_url is required when use_custom_double_opt_in_redirect_url is true")
		}
	}
	return out, err
}

func required(path string) *apperr.Error {
	return apperr.InvalidPayload("Payload must have required property '%s'", path)
}

// validURL accepts an absolute http(s) URL, or a bare host with an
// optional path such as "voucherify.io" (the real service's own example).
func validURL(s string) bool {
	if s == "" || len(s) > 2000 || strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil {
		return false
	}
	host := u.Hostname()
	return host == "localhost" || (strings.Contains(host, ".") && !strings.HasPrefix(host, ".") && !strings.HasSuffix(host, "."))
}
