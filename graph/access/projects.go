package access

import (
	"github.com/promoengine/promoengine/graph/webhook"

	pagepkg "github.com/promoengine/promoengine/graph/internal/page"

	"github.com/promoengine/promoengine/graph/internal/shape"
	"github.com/promoengine/promoengine/graph/internal/store"

	"context"
	"fmt"
	"regexp"
	"strings"
	"time"
	_ "time/tzdata" // project time zones are checked without the host's zoneinfo

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/project"
	"github.com/promoengine/promoengine/ent/schema/feature"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/origin"
)

// Projects as the management API administers them (management keys act on
// every project of the installation). Run writes inside InTx.

// ProjectInput sets a project's editable properties; nil (or an absent
// list) leaves a property as it is, or at its default on create.
type ProjectInput struct {
	Name                                  *string  `json:"name"`
	Description                           *string  `json:"description"`
	Timezone                              *string  `json:"timezone"`
	Currency                              *string  `json:"currency"`
	ClientTrustedDomains                  []string `json:"client_trusted_domains"`
	ClientRedeemEnabled                   *bool    `json:"client_redeem_enabled"`
	ClientPublishEnabled                  *bool    `json:"client_publish_enabled"`
	ClientListVouchersEnabled             *bool    `json:"client_list_vouchers_enabled"`
	ClientCreateCustomerEnabled           *bool    `json:"client_create_customer_enabled"`
	ClientLoyaltyEventsEnabled            *bool    `json:"client_loyalty_events_enabled"`
	ClientSetVoucherExpirationDateEnabled *bool    `json:"client_set_voucher_expiration_date_enabled"`
	// Nulls are the members an update sent as an explicit null:
	// description and client_trusted_domains clear; the others are
	// required (a null is refused).
	shape.Nulls
}

// projectRequired are the project members a null cannot clear.
var projectRequired = []string{"name", "timezone", "currency", "client_redeem_enabled", "client_publish_enabled",
	"client_list_vouchers_enabled", "client_create_customer_enabled", "client_loyalty_events_enabled",
	"client_set_voucher_expiration_date_enabled"}

// CreatedProject is a new project with its first keys (tokens shown once).
type CreatedProject struct {
	Project *ent.Project
	Keys    ProjectCredentials
}

var currencyCode = regexp.MustCompile(`^[A-Z]{3}$`)

// applyProjectInput checks in and sets what it gives on m.
func applyProjectInput(m *ent.ProjectMutation, in ProjectInput) error {
	if err := in.RefuseNull(projectRequired...); err != nil {
		return err
	}
	if in.Description == nil && in.IsNull("description") {
		m.ClearDescription()
	}
	if in.ClientTrustedDomains == nil && in.IsNull("client_trusted_domains") {
		m.ClearClientTrustedDomains()
	}
	if in.Name != nil {
		name := strings.TrimSpace(*in.Name)
		if name == "" || len(name) > 200 {
			return apperr.InvalidPayload("Property .name must be 1 to 200 characters")
		}
		m.SetName(name)
	}
	if in.Description != nil {
		if len(*in.Description) > 1000 {
			return apperr.InvalidPayload("Property .description must be at most 1000 characters")
		}
		m.SetDescription(*in.Description)
	}
	if in.Timezone != nil {
		if _, err := time.LoadLocation(*in.Timezone); err != nil || *in.Timezone == "" || *in.Timezone == "Local" {
			return apperr.InvalidPayload("Property .timezone must be an IANA time zone name such as Europe/Warsaw or UTC")
		}
		m.SetTimezone(*in.Timezone)
	}
	if in.Currency != nil {
		if !currencyCode.MatchString(*in.Currency) {
			return apperr.InvalidPayload("Property .currency must be a 3-letter ISO 4217 code such as USD")
		}
		m.SetCurrency(*in.Currency)
	}
	if in.ClientTrustedDomains != nil {
		domains, err := origin.Normalize(in.ClientTrustedDomains)
		if err != nil {
			return apperr.InvalidPayload("Property .client_trusted_domains: %s", err.Error())
		}
		m.SetClientTrustedDomains(domains)
	}
	setBool(in.ClientRedeemEnabled, m.SetClientRedeemEnabled)
	setBool(in.ClientPublishEnabled, m.SetClientPublishEnabled)
	setBool(in.ClientListVouchersEnabled, m.SetClientListVouchersEnabled)
	setBool(in.ClientCreateCustomerEnabled, m.SetClientCreateCustomerEnabled)
	setBool(in.ClientLoyaltyEventsEnabled, m.SetClientLoyaltyEventsEnabled)
	setBool(in.ClientSetVoucherExpirationDateEnabled, m.SetClientSetVoucherExpirationDateEnabled)
	return nil
}

func setBool(v *bool, set func(bool)) {
	if v != nil {
		set(*v)
	}
}

// CreateManagedProject creates a project (name required) with every
// feature, one server-side and one client-side key.
func CreateManagedProject(ctx context.Context, in ProjectInput) (CreatedProject, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return CreatedProject{}, err
	}
	if in.Name == nil {
		return CreatedProject{}, apperr.InvalidPayload("Property .name is required")
	}
	create := c.Project.Create().SetFeatures(feature.All)
	if err := applyProjectInput(create.Mutation(), in); err != nil {
		return CreatedProject{}, err
	}
	p, err := create.Save(ctx)
	if err != nil {
		return CreatedProject{}, projectSaveError(err, create.Mutation())
	}
	keys, err := projectKeys(ctx, c, p.ID, "", "")
	if err != nil {
		return CreatedProject{}, err
	}
	return CreatedProject{Project: p, Keys: keys}, nil
}

// UpdateProject changes what in gives of a project.
func UpdateProject(ctx context.Context, id string, in ProjectInput) (*ent.Project, error) {
	p, err := ManagedProject(ctx, id)
	if err != nil {
		return nil, err
	}
	upd := p.Update()
	if err := applyProjectInput(upd.Mutation(), in); err != nil {
		return nil, err
	}
	p, err = upd.Save(ctx)
	if err != nil {
		return nil, projectSaveError(err, upd.Mutation())
	}
	return p, nil
}

// projectSaveError maps the unique index on project names (the only
// constraint a project write can break) to 409 duplicate_found; the index,
// not a prior lookup, decides, so two requests racing for one name cannot
// both win.
func projectSaveError(err error, m *ent.ProjectMutation) error {
	if ent.IsConstraintError(err) {
		name, _ := m.Name()
		return duplicateProjectName(name)
	}
	return fmt.Errorf("saving project: %w", err)
}

func duplicateProjectName(name string) *apperr.Error {
	return apperr.Duplicate("project", fmt.Sprintf("A project named %q already exists", name))
}

// ManagedProject reads a project by id (404 when it does not exist).
func ManagedProject(ctx context.Context, id string) (*ent.Project, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, err
	}
	p, err := c.Project.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("project", id)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up project: %w", err)
	}
	if _, err := webhook.EnsureWebhookToken(ctx, c, p); err != nil {
		return nil, err
	}
	return p, nil
}

// ManagedProjects returns one page (v1 limit/page) of every project of the
// installation, oldest first, and how many there are.
func ManagedProjects(ctx context.Context, limit, page *int) ([]*ent.Project, int, error) {
	c, err := store.Client(ctx)
	if err != nil {
		return nil, 0, err
	}
	n, offset, err := pagepkg.Offset(limit, page)
	if err != nil {
		return nil, 0, err
	}
	total, err := c.Project.Query().Count(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("counting projects: %w", err)
	}
	ps, err := c.Project.Query().Order(ent.Asc(project.FieldCreatedAt), ent.Asc(project.FieldID)).
		Offset(offset).Limit(n).All(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("listing projects: %w", err)
	}
	for _, p := range ps {
		if _, err := webhook.EnsureWebhookToken(ctx, c, p); err != nil {
			return nil, 0, err
		}
	}
	return ps, total, nil
}

// RegenerateWebhookToken gives a project a new webhook signing secret;
// events not yet delivered are signed with it.
func RegenerateWebhookToken(ctx context.Context, projectID string) (*ent.Project, error) {
	p, err := ManagedProject(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if p, err = p.Update().SetWebhookToken(webhook.NewWebhookToken()).Save(ctx); err != nil {
		return nil, fmt.Errorf("regenerating webhook token: %w", err)
	}
	return p, nil
}
