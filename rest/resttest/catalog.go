package resttest

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// Fixtures of the catalogue (rest/catalog) and the trash bin that rest's
// tests share with the catalogue's: products, CSV uploads, bin entries.

// CreateProduct upserts a product through POST /v1/products (200) and
// returns it.
func CreateProduct(t testing.TB, e *Env, h Headers, body map[string]any) map[string]any {
	t.Helper()
	return Must(t, e.DoJSON(http.MethodPost, "/v1/products", body, h), http.StatusOK)
}

// UploadCSV posts a CSV file as the multipart field "file".
func UploadCSV(t testing.TB, e *Env, h Headers, path, csv string) Response {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", "import.csv")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte(csv))
	mw.Close()
	return e.Do(http.MethodPost, path, buf.Bytes(), Merge(h, Headers{"Content-Type": mw.FormDataContentType()}))
}

// BinList reads GET /v1/trash-bin with the query.
func BinList(t testing.TB, e *Env, h Headers, query string) map[string]any {
	t.Helper()
	return Must(t, e.Do(http.MethodGet, "/v1/trash-bin"+query, nil, h), http.StatusOK)
}

// BinEntryOf is the bin entry of the resource, failing the test without one.
func BinEntryOf(t testing.TB, e *Env, h Headers, resourceID string) map[string]any {
	t.Helper()
	list := BinList(t, e, h, "?limit=100&filters[resource_id][conditions][$is]="+url.QueryEscape(resourceID))
	data := list["data"].([]any)
	if len(data) != 1 {
		t.Fatalf("bin entries of %s = %s", resourceID, MustJSON(list))
	}
	return data[0].(map[string]any)
}

// WaitABit pauses between polls of a background job.
func WaitABit() { time.Sleep(20 * time.Millisecond) }
