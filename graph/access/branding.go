package access

import (
	"context"
	"fmt"
	"net/http"
	"net/mail"
	"net/url"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/schema/jsonfield"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/internal/store"
)

// DefaultPermissionReminder is brand.permission_reminder when none is given.
const DefaultPermissionReminder = "You are receiving this email because you opted in at our website."

// DefaultCockpitTheme is cockpits.theme when none is given.
const DefaultCockpitTheme = "default"

// BrandingInput is a brand configuration as create and update take it
// (REST POST/PUT …/branding, GraphQL createManagementBranding and
// UpdateManagementBranding). Pointers tell absent (or null) from given;
// Omittable fields also tell null (clear it) from absent (keep it).
type BrandingInput struct {
	Brand    *BrandInput         `json:"brand"`
	Address  *BrandAddressInput  `json:"address"`
	Contact  *BrandContactInput  `json:"contact"`
	Cockpits *BrandCockpitsInput `json:"cockpits"`
}

// BrandInput is the brand part of a BrandingInput.
type BrandInput struct {
	Name               *string                    `json:"name"`
	PrivacyPolicyURL   graphql.Omittable[*string] `json:"privacy_policy_url"`
	TermsOfUseURL      graphql.Omittable[*string] `json:"terms_of_use_url"`
	PermissionReminder *string                    `json:"permission_reminder"`
	WebsiteURL         graphql.Omittable[*string] `json:"website_url"`
}

// BrandAddressInput is the address part of a BrandingInput.
type BrandAddressInput struct {
	Street  *string                    `json:"street"`
	City    *string                    `json:"city"`
	Postal  *string                    `json:"postal"`
	State   graphql.Omittable[*string] `json:"state"`
	Country *string                    `json:"country"`
}

// BrandContactInput is the contact part of a BrandingInput.
type BrandContactInput struct {
	Email *string                    `json:"email"`
	Phone graphql.Omittable[*string] `json:"phone"`
}

// BrandCockpitsInput is the cockpits part of a BrandingInput.
type BrandCockpitsInput struct {
	CampaignsOverviewEnabled        *bool                      `json:"campaigns_overview_enabled"`
	LoyaltyEnabled                  *bool                      `json:"loyalty_enabled"`
	GiftCardsEnabled                *bool                      `json:"gift_cards_enabled"`
	CouponsEnabled                  *bool                      `json:"coupons_enabled"`
	ReferralsEnabled                *bool                      `json:"referrals_enabled"`
	Theme                           *string                    `json:"theme"`
	UseCustomDoubleOptInRedirectURL *bool                      `json:"use_custom_double_opt_in_redirect_url"`
	CustomDoubleOptInRedirectURL    graphql.Omittable[*string] `json:"custom_double_opt_in_redirect_url"`
}

// CreateBranding stores the brand configuration of the viewer's project
// (see ManageProject). A project has at most one: a second one — also when
// two requests race — is 409 branding_exist.
func CreateBranding(ctx context.Context, in BrandingInput) (*ent.Branding, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	b, err := in.validate(defaultBranding(), true)
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

// defaultBranding is what a new brand configuration starts from.
func defaultBranding() brandingValues {
	return brandingValues{
		brand:    jsonfield.Brand{PermissionReminder: DefaultPermissionReminder},
		cockpits: jsonfield.Cockpits{Theme: DefaultCockpitTheme},
	}
}

// validate applies in over base (the stored configuration, or the defaults
// on create) and checks the result; errors name the property. create
// requires the brand, address and contact objects.
func (in BrandingInput) validate(base brandingValues, create bool) (brandingValues, error) {
	if create {
		for _, obj := range []struct {
			name string
			nil  bool
		}{{"brand", in.Brand == nil}, {"address", in.Address == nil}, {"contact", in.Contact == nil}} {
			if obj.nil {
				return base, required(obj.name)
			}
		}
	}
	out := base
	var err error
	text := func(path string, dst *string, v *string) {
		switch {
		case err != nil || v == nil:
		case strings.TrimSpace(*v) == "":
			err = required(path)
		case len(*v) > 1000:
			err = apperr.InvalidPayload("Property .%s must be at most 1000 characters", path)
		default:
			*dst = *v
		}
	}
	nullable := func(path string, dst **string, v graphql.Omittable[*string], isURL bool) {
		val, set := v.ValueOK()
		switch {
		case err != nil || !set:
		case val != nil && len(*val) > 1000:
			err = apperr.InvalidPayload("Property .%s must be at most 1000 characters", path)
		case val != nil && isURL && !validURL(*val):
			err = apperr.InvalidPayload("Property .%s must be a valid URL, got %q", path, *val)
		default:
			*dst = val
		}
	}
	if b := in.Brand; b != nil {
		text("brand.name", &out.brand.Name, b.Name)
		nullable("brand.privacy_policy_url", &out.brand.PrivacyPolicyURL, b.PrivacyPolicyURL, true)
		nullable("brand.terms_of_use_url", &out.brand.TermsOfUseURL, b.TermsOfUseURL, true)
		text("brand.permission_reminder", &out.brand.PermissionReminder, b.PermissionReminder)
		var website *string
		nullable("brand.website_url", &website, b.WebsiteURL, true)
		if _, set := b.WebsiteURL.ValueOK(); set && err == nil {
			out.brand.WebsiteURL = "" // null clears it; the brand keeps a string
			if website != nil {
				out.brand.WebsiteURL = *website
			}
		}
	}
	if a := in.Address; a != nil {
		text("address.street", &out.address.Street, a.Street)
		text("address.city", &out.address.City, a.City)
		text("address.postal", &out.address.Postal, a.Postal)
		nullable("address.state", &out.address.State, a.State, false)
		text("address.country", &out.address.Country, a.Country)
	}
	if ct := in.Contact; ct != nil {
		text("contact.email", &out.contact.Email, ct.Email)
		nullable("contact.phone", &out.contact.Phone, ct.Phone, false)
	}
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
		text("cockpits.theme", &out.cockpits.Theme, ck.Theme)
		nullable("cockpits.custom_double_opt_in_redirect_url", &out.cockpits.CustomDoubleOptInRedirectURL, ck.CustomDoubleOptInRedirectURL, true)
	}
	if err != nil {
		return base, err
	}
	for _, f := range []struct{ path, v string }{
		{"brand.name", out.brand.Name}, {"address.street", out.address.Street}, {"address.city", out.address.City},
		{"address.postal", out.address.Postal}, {"address.country", out.address.Country}, {"contact.email", out.contact.Email},
	} {
		if f.v == "" {
			return base, required(f.path)
		}
	}
	if a, perr := mail.ParseAddress(out.contact.Email); perr != nil || a.Address != out.contact.Email {
		return base, apperr.InvalidPayload("Property .contact.email must be a valid email address, got %q", out.contact.Email)
	}
	if out.cockpits.UseCustomDoubleOptInRedirectURL && out.cockpits.CustomDoubleOptInRedirectURL == nil {
		return base, apperr.InvalidPayload("Property .cockpits.custom_double_opt_in_redirect_url is required when use_custom_double_opt_in_redirect_url is true")
	}
	return out, nil
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
