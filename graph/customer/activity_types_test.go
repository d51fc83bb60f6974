package customer

import (
	"slices"
	"testing"

	"github.com/promoengine/promoengine/ent"
)

// Every activity source declares the types it yields, each a documented
// customer event: a source without them would never be listed (the type
// filter keeps sources by their types).
func TestActivitySourcesDeclareDocumentedTypes(t *testing.T) {
	for _, src := range customerActivitySources(&ent.Customer{ID: "cust_1"}) {
		if len(src.types) == 0 {
			t.Errorf("source %s declares no activity types", src.name)
		}
		for _, typ := range src.types {
			if !slices.Contains(activityTypes, typ) {
				t.Errorf("source %s yields %s, not a documented customer event", src.name, typ)
			}
		}
	}
}
