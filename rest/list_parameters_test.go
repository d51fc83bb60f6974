package rest_test

import (
	"net/http"
	"testing"

	"github.com/promoengine/promoengine/rest/resttest"
)

// TestDocumentedListParametersNotReadAreRefused: a query parameter the
// reference documents for a list that we do not read is a 400 in the
// error shape naming it (docs/architecture.md, "Audit of every list's
// query parameters"), not the unfiltered list; the list without it
// answers.
func TestDocumentedListParametersNotReadAreRefused(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	v2 := resttest.V2(t, e, e.Project)
	staticCampaign(t, e, "Promo", "P-1")
	for _, tc := range []struct {
		path, query, param string
		h                  resttest.Headers
	}{
		{"/v1/vouchers", "filters[code][conditions][$is]=P-1", "filters[code][conditions][$is]", app},
		{"/v1/campaigns", "access_settings[filter][areas_ids][]=ar_1", "access_settings[filter]", app},
		{"/v1/campaigns/Promo/transactions", "filters[voucher_id][conditions][$in][]=v_1", "filters[voucher_id]", app},
		{"/v1/vouchers/P-1/transactions", "filters[type][conditions][$is]=x", "filters[type]", app},
		{"/v1/customers/nobody/activities", "product_id=prod_1", "product_id", app},
		{"/v1/validation-rules", "order=name", "order", app},
		{"/v1/validation-rules", "start_date=2024-01-01T00:00:00Z", "start_date", app},
		{"/v1/locations", "end_date=2024-01-01T00:00:00Z", "end_date", app},
		{"/v1/product-collections/pc_none/products", "starting_after=2024-01-01T00:00:00Z", "starting_after", app},
		{"/v2/loyalties/programs", "filters[name][conditions][$is]=x", "filters[name]", v2},
		{"/v2/loyalties/card-definitions", "filters[status][conditions][$is]=ACTIVE", "filters[status]", v2},
		{"/v2/loyalties/earning-rules", "filters[id][conditions][$is]=x", "filters[id]", v2},
		{"/v2/loyalties/incentives", "filters[type][conditions][$in][]=x", "filters[type]", v2},
	} {
		wantError(t, e.Do(http.MethodGet, tc.path+"?"+tc.query, nil, tc.h), http.StatusBadRequest, "invalid_query_params", tc.param)
		if r := e.Do(http.MethodGet, tc.path, nil, tc.h); r.Status != http.StatusOK && r.Status != http.StatusNotFound {
			t.Errorf("GET %s without %s: %d %s", tc.path, tc.param, r.Status, r.Body)
		}
	}
}
