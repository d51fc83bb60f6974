package customer

import (
	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/consentchange"
	"github.com/promoengine/promoengine/ent/schema/pulid"
)

// consentChangeSource: customer.consents.given and customer.consents.revoked,
// one per consent granted or withdrawn (consent_grants.go).
func consentChangeSource() customerActivitySource {
	return tableSource(customerActivitySource{name: "consent", prefixes: []string{pulid.PrefixConsentChange},
		types: []string{consentGiven, consentRevoked}},
		consentchange.FieldCreatedAt, consentchange.FieldID,
		func(c *ent.Client, f activityFilter) *ent.ConsentChangeQuery {
			q := c.ConsentChange.Query().Where(consentchange.CustomerID(f.customerID))
			switch given, revoked := f.wants(consentGiven), f.wants(consentRevoked); {
			case given && !revoked:
				q.Where(consentchange.Granted(true))
			case revoked && !given:
				q.Where(consentchange.Granted(false))
			}
			return q
		}, eachRow(func(ch *ent.ConsentChange) *CustomerActivity {
			typ := consentRevoked
			if ch.Granted {
				typ = consentGiven
			}
			return &CustomerActivity{ID: ch.ID, Type: typ, CreatedAt: ch.CreatedAt,
				Data: map[string]any{"consent": map[string]any{"id": ch.ConsentID, "name": ch.ConsentName, "object": "consent"}}}
		}))
}
