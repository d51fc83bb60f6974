package access

import (
	"context"
	"fmt"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/appkey"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/graph/apperr"
	"github.com/promoengine/promoengine/graph/origin"
	"github.com/promoengine/promoengine/graph/webhook"
)

// Client-side access (/client/v1): a client-side key (X-Client-Application-Id
// + X-Client-Token) is embedded in web pages, so it proves little on its
// own. It opens only the client API, only from an origin the project trusts,
// and only the operations the project has switched on.

// AuthenticateClient checks a client-side key pair presented from the
// browser origin originHeader and clientIP, and returns the viewer it
// proves (marked Client) and the key's project. A wrong, blocked or
// server-side key is the same 401 as an unknown one; a valid key from an
// untrusted origin or address is a 403.
func AuthenticateClient(ctx context.Context, c *ent.Client, appID, token, originHeader, clientIP string) (viewer.Viewer, *ent.Project, error) {
	if appID == "" || token == "" {
		return viewer.Viewer{}, nil, apperr.Unauthorized()
	}
	key, err := lookupAppKey(ctx, c, appID)
	switch {
	case ent.IsNotFound(err):
		tokenMatches(dummyHash, token)
		return viewer.Viewer{}, nil, apperr.Unauthorized()
	case err != nil:
		return viewer.Viewer{}, nil, fmt.Errorf("looking up client-side key: %w", err)
	case !tokenMatches(key.TokenHash, token), key.Status != appkey.StatusACTIVE, key.Side != appkey.SideCLIENT:
		return viewer.Viewer{}, nil, apperr.Unauthorized()
	case !ipAllowed(key.AllowedIps, clientIP):
		return viewer.Viewer{}, nil, ipNotAllowed()
	}
	p, err := ClientProject(ctx, c, key.ProjectID)
	if err != nil {
		return viewer.Viewer{}, nil, err
	}
	if !origin.Trusted(p.ClientTrustedDomains, originHeader) {
		return viewer.Viewer{}, nil, apperr.Forbidden(fmt.Sprintf(
			"Origin %q is not one of the project's client_trusted_domains", webhook.Truncate(originHeader, 100)))
	}
	return viewer.Viewer{ProjectID: key.ProjectID, AppID: key.ID, Client: true}, p, nil
}

// ClientProject reads the project whose client-side settings govern a
// client API request (for a bearer token, the token's project).
func ClientProject(ctx context.Context, c *ent.Client, projectID string) (*ent.Project, error) {
	p, err := c.Project.Get(ctx, projectID)
	if err != nil {
		return nil, fmt.Errorf("looking up the key's project: %w", err)
	}
	return p, nil
}

// ClientOperation is a client API operation a project may switch off.
type ClientOperation string

// The switchable client API operations (the project's client_*_enabled).
const (
	ClientRedeem         ClientOperation = "client_redeem_enabled"
	ClientPublish        ClientOperation = "client_publish_enabled"
	ClientListVouchers   ClientOperation = "client_list_vouchers_enabled"
	ClientCreateCustomer ClientOperation = "client_create_customer_enabled"
	ClientLoyaltyEvents  ClientOperation = "client_loyalty_events_enabled"
)

// ClientAllows reports (as a 403 naming the setting) whether project p has
// switched on op for the client API.
func ClientAllows(p *ent.Project, op ClientOperation) error {
	on := map[ClientOperation]bool{
		ClientRedeem: p.ClientRedeemEnabled, ClientPublish: p.ClientPublishEnabled,
		ClientListVouchers: p.ClientListVouchersEnabled, ClientCreateCustomer: p.ClientCreateCustomerEnabled,
		ClientLoyaltyEvents: p.ClientLoyaltyEventsEnabled,
	}[op]
	if !on {
		return apperr.Forbidden(fmt.Sprintf("This operation is disabled for the client-side API (project setting %s)", op))
	}
	return nil
}
