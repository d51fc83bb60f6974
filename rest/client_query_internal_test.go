package rest

import (
	"encoding/json"
	"net/url"
	"testing"
)

func TestNestedQueryRebuildsTheSDKsObject(t *testing.T) {
	// What qs.stringify makes of VoucherifyClientSide.validate's query.
	q, _ := url.ParseQuery("code=C1&amount=2500&item%5B0%5D%5Bproduct_id%5D=p1&item%5B0%5D%5Bquantity%5D=2&item%5B1%5D%5Bproduct_id%5D=p2" +
		"&item%5B1%5D%5Bprice%5D=1000&customer%5Bsource_id%5D=alice&customer%5Bmetadata%5D%5Bamount%5D=7&order%5Bmetadata%5D%5Bchannel%5D=web&session_ttl=5")
	got, err := nestedQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	want := `{"amount":2500,"code":"C1","customer":{"metadata":{"amount":"7"},"source_id":"alice"},` +
		`"item":[{"product_id":"p1","quantity":2},{"price":1000,"product_id":"p2"}],"order":{"metadata":{"channel":"web"}},"session_ttl":5}`
	if string(b) != want {
		t.Errorf("nestedQuery =\n%s\nwant\n%s", b, want)
	}
	for _, bad := range []string{"a%5Bb=1", "a%5B%5D=1", "a=1&a%5Bb%5D=2", "a%5Bb%5D%5Bc%5D%5Bd%5D%5Be%5D%5Bf%5D=1"} {
		q, _ := url.ParseQuery(bad)
		if _, err := nestedQuery(q); err == nil {
			t.Errorf("nestedQuery(%s) accepted", bad)
		}
	}
	// An index past the bound stays an object key instead of making a huge list.
	q, _ = url.ParseQuery("item%5B100000%5D=x")
	got, _ = nestedQuery(q)
	if _, isObject := got["item"].(map[string]any); !isObject {
		t.Errorf("item[100000] = %#v", got["item"])
	}
}
