package access

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/project"
	"github.com/promoengine/promoengine/graph/origin"
)

// TrustedOriginsTTL is how long a process trusts its copy of all projects'
// trusted domains when answering CORS preflights of the client API. A
// change made through this process applies at once (Forget); other
// processes see it within this time.
const TrustedOriginsTTL = 10 * time.Second

// TrustedOrigins answers whether any project trusts a browser origin. A
// CORS preflight carries no credentials, so it cannot be matched to one
// project; it is answered for an origin some project trusts, and the
// actual request is then checked against its key's own project
// (AuthenticateClient).
type TrustedOrigins struct {
	ttl     time.Duration
	mu      sync.Mutex
	loaded  time.Time
	domains []string
}

// NewTrustedOrigins returns an empty directory refreshed every ttl.
func NewTrustedOrigins(ttl time.Duration) *TrustedOrigins {
	return &TrustedOrigins{ttl: ttl}
}

// AnyTrusts reports whether some project lists originHeader among its
// client_trusted_domains.
func (t *TrustedOrigins) AnyTrusts(ctx context.Context, c *ent.Client, originHeader string) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if time.Since(t.loaded) > t.ttl {
		projects, err := c.Project.Query().Where(project.ClientTrustedDomainsNotNil()).
			Select(project.FieldClientTrustedDomains).All(ctx)
		if err != nil {
			return false, fmt.Errorf("loading trusted domains: %w", err)
		}
		t.domains = t.domains[:0]
		for _, p := range projects {
			t.domains = append(t.domains, p.ClientTrustedDomains...)
		}
		t.loaded = time.Now()
	}
	return origin.Trusted(t.domains, originHeader), nil
}

// Forget makes the next AnyTrusts reload the domains.
func (t *TrustedOrigins) Forget() {
	t.mu.Lock()
	t.loaded = time.Time{}
	t.mu.Unlock()
}
