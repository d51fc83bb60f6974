package rest

// noExtension is the extend of a tier expiration stored without one: no
// grace period (ISO 8601 zero duration).
const noExtension = "P0D"

// tiersExpirationJSON is a program's loyalty_tiers_expiration as stored,
// with expiration_date.extend (required by the documents:
// LoyaltyTiersExpirationAll) set to no extension when the program was
// created without one — which is how the tiers behave then (a copy: the
// entity is not changed).
func tiersExpirationJSON(stored map[string]any) map[string]any {
	exp, ok := stored["expiration_date"].(map[string]any)
	if !ok {
		return stored
	}
	if _, has := exp["extend"]; has {
		return stored
	}
	out := make(map[string]any, len(stored))
	for k, v := range stored {
		out[k] = v
	}
	date := make(map[string]any, len(exp)+1)
	for k, v := range exp {
		date[k] = v
	}
	date["extend"] = noExtension
	out["expiration_date"] = date
	return out
}
