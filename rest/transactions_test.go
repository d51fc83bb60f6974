package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/ent/asyncaction"
	"github.com/promoengine/promoengine/ent/exportchunk"
	"github.com/promoengine/promoengine/ent/schema/viewer"
	"github.com/promoengine/promoengine/ent/vouchertransaction"
	"github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/rest/resttest"
)

// giftCard is resttest.GiftCard.
func giftCard(t *testing.T, e *resttest.Env, h resttest.Headers, campaign, code string, amount int) map[string]any {
	t.Helper()
	return resttest.GiftCard(t, e, h, campaign, code, amount)
}

func balance(t *testing.T, e *resttest.Env, h resttest.Headers, code string, body map[string]any) resttest.Response {
	t.Helper()
	return resttest.VoucherBalance(t, e, h, code, body)
}

// waitForExport polls GET /v1/exports/{id} until the export has ended.
func waitForExport(t *testing.T, e *resttest.Env, h resttest.Headers, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		exp := must(t, e.Do(http.MethodGet, "/v1/exports/"+id, nil, h), http.StatusOK)
		if s := exp["status"]; s == "DONE" || s == "ERROR" {
			return exp
		}
		if time.Now().After(deadline) {
			t.Fatalf("export did not finish: %v", exp)
		}
		waitABit()
	}
}

func TestBalanceMovesAndTransactionExport(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	card := giftCard(t, e, app, "Gift cards", "GIFT-1", 10000)

	got := must(t, balance(t, e, app, "GIFT-1", map[string]any{"amount": 500, "source_id": "crm-1", "reason": "top up"}), http.StatusOK)
	want := map[string]any{"amount": 500.0, "total": 10500.0, "balance": 10500.0, "type": "gift_voucher", "object": "balance", "operation_type": "MANUAL"}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("balance response %s = %v, want %v: %v", k, got[k], v, got)
		}
	}
	if ro := got["related_object"].(map[string]any); ro["type"] != "voucher" || ro["id"] != card["id"] {
		t.Fatalf("related_object: %v", ro)
	}
	must(t, balance(t, e, app, card["id"].(string), map[string]any{"amount": -2000}), http.StatusOK)
	wantError(t, balance(t, e, app, "GIFT-1", map[string]any{"amount": -8501}), http.StatusBadRequest, "not_enough_balance", "8500")
	wantError(t, balance(t, e, app, "GIFT-1", map[string]any{}), http.StatusBadRequest, "invalid_payload", "amount")
	wantError(t, balance(t, e, app, "GIFT-1", map[string]any{"amount": 0}), http.StatusBadRequest, "invalid_payload", "amount")
	wantError(t, balance(t, e, app, "GIFT-1", map[string]any{"amount": int64(1e13)}), http.StatusBadRequest, "invalid_payload", "amount")
	wantError(t, balance(t, e, app, "GIFT-1", map[string]any{"amount": "ten"}), http.StatusBadRequest, "invalid_payload", "amount")
	wantError(t, balance(t, e, app, "NOPE", map[string]any{"amount": 1}), http.StatusNotFound, "not_found", "NOPE")
	staticCampaign(t, e, "Discounts", "DISC-1")
	wantError(t, balance(t, e, app, "DISC-1", map[string]any{"amount": 1}), http.StatusBadRequest, "invalid_voucher", "gift card")
	if v := must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-1", nil, app), http.StatusOK); v["gift"].(map[string]any)["balance"] != 8500.0 {
		t.Fatalf("voucher gift: %v", v["gift"])
	}

	// Export: fields in the requested order, oldest first.
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-1/transactions/export",
		map[string]any{"parameters": map[string]any{"order": "created_at", "fields": []string{"type", "amount", "balance", "source_id", "reason", "id", "voucher_id", "source", "details"}}}, app), http.StatusOK)
	if !strings.HasPrefix(exp["id"].(string), "exp_") || exp["object"] != "export" || exp["status"] != "SCHEDULED" || exp["channel"] != "API" ||
		exp["exported_object"] != "voucher_transactions" || exp["result"] != nil || exp["user_id"] != nil {
		t.Fatalf("export: %v", exp)
	}
	in := exp["parameters"].(map[string]any)["filters"].(map[string]any)["voucher_id"].(map[string]any)["conditions"].(map[string]any)["$in"].([]any)
	if len(in) != 1 || in[0] != "GIFT-1" || exp["parameters"].(map[string]any)["order"] != "created_at" {
		t.Fatalf("export parameters: %v", exp["parameters"])
	}
	done := waitForExport(t, e, app, exp["id"].(string))
	if done["status"] != "DONE" {
		t.Fatalf("export: %v", done)
	}
	fileURL := done["result"].(map[string]any)["url"].(string)

	txs, err := e.DB.Client.VoucherTransaction.Query().Order(ent.Asc(vouchertransaction.FieldCreatedAt), ent.Asc(vouchertransaction.FieldID)).All(systemCtx())
	if err != nil || len(txs) != 2 {
		t.Fatalf("transactions: %v %v", txs, err)
	}
	wantCSV := "type,amount,balance,source_id,reason,id,voucher_id,source,details\n" +
		fmt.Sprintf("CREDITS_ADDITION,500,10500,crm-1,top up,%s,%s,API,{}\n", txs[0].ID, card["id"]) +
		fmt.Sprintf("CREDITS_REMOVAL,-2000,8500,,,%s,%s,API,{}\n", txs[1].ID, card["id"])
	status, csv := download(t, e, fileURL)
	if status != http.StatusOK || csv != wantCSV {
		t.Fatalf("download %d:\n%s\nwant:\n%s", status, csv, wantCSV)
	}
	if !strings.HasPrefix(txs[0].ID, "vtx_") || len(txs[0].ID) != 4+18 {
		t.Fatalf("transaction id %s", txs[0].ID)
	}
	// No token, a wrong one or an expired one: 404 without keys.
	u, _ := url.Parse(fileURL)
	token := u.Query().Get("token")
	for _, bad := range []string{"", "123.abc", "1." + strings.SplitN(token, ".", 2)[1], token + "0"} {
		q := u.Query()
		q.Set("token", bad)
		u.RawQuery = q.Encode()
		if status, _ := download(t, e, u.String()); status != http.StatusNotFound {
			t.Fatalf("token %q: %d", bad, status)
		}
	}

	// Default: every field, newest first; by voucher ID.
	exp = must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/"+card["id"].(string)+"/transactions/export", nil, app), http.StatusOK)
	done = waitForExport(t, e, app, exp["id"].(string))
	_, csv = download(t, e, done["result"].(map[string]any)["url"].(string))
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if lines[0] != "id,type,source_id,reason,balance,amount,created_at,voucher_id,campaign_id,details,related_transaction_id,source" ||
		len(lines) != 3 || !strings.HasPrefix(lines[1], txs[1].ID+",CREDITS_REMOVAL,,,8500,-2000,"+txs[1].CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z")) {
		t.Fatalf("default export:\n%s", csv)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-1/transactions/export",
		map[string]any{"parameters": map[string]any{"fields": []string{"id", "colour"}}}, app), http.StatusBadRequest, "invalid_payload", "colour")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-1/transactions/export",
		map[string]any{"parameters": map[string]any{"order": "amount"}}, app), http.StatusBadRequest, "invalid_payload", "order")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/NOPE/transactions/export", nil, app), http.StatusNotFound, "not_found", "NOPE")
	wantError(t, e.Do(http.MethodGet, "/v1/exports/exp_nope", nil, app), http.StatusNotFound, "not_found", "exp_nope")
}

// TestConcurrentBalanceMoves races additions and removals that would
// overdraw: the balance never goes negative and equals the initial amount
// plus the applied moves, and the transactions agree.
func TestConcurrentBalanceMoves(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gift cards", "GIFT-RACE", 1000)
	servers := []string{e.Server.URL, e.AnotherServer().URL}
	const n = 32
	var wg sync.WaitGroup
	var mu sync.Mutex
	applied := int64(0)
	refused := 0
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			amount := int64(100)
			if i%2 == 1 {
				amount = -700
			}
			r := e.DoAt(servers[i%2], http.MethodPost, "/v1/vouchers/GIFT-RACE/balance", fmt.Appendf(nil, `{"amount": %d}`, amount), app)
			mu.Lock()
			defer mu.Unlock()
			switch r.Status {
			case http.StatusOK:
				applied += amount
			case http.StatusBadRequest:
				refused++
			default:
				t.Errorf("move %d: %d %s", i, r.Status, r.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	v := must(t, e.Do(http.MethodGet, "/v1/vouchers/GIFT-RACE", nil, app), http.StatusOK)
	final := int64(v["gift"].(map[string]any)["balance"].(float64))
	if final != 1000+applied || final < 0 || refused == 0 {
		t.Fatalf("final balance %d, applied %d, refused %d", final, applied, refused)
	}
	txs, err := e.DB.Client.VoucherTransaction.Query().Order(ent.Asc(vouchertransaction.FieldCreatedAt), ent.Asc(vouchertransaction.FieldID)).All(systemCtx())
	if err != nil {
		t.Fatal(err)
	}
	sum := int64(0)
	for _, tx := range txs {
		sum += tx.Amount
		if tx.Balance < 0 {
			t.Fatalf("negative balance recorded: %v", tx)
		}
	}
	if sum != applied || len(txs) != n-refused {
		t.Fatalf("transactions sum %d (%d rows), applied %d (%d refused)", sum, len(txs), applied, refused)
	}
}

// TestEventsSegmentsExportsTenancy: project B sees none of project A's
// schemas, segments or exports, and cannot send A's events.
func TestEventsSegmentsExportsTenancy(t *testing.T) {
	e := resttest.New(t)
	a := resttest.App(e.Project)
	b := resttest.App(e.NewProject("project B"))
	ms := defineEvent(t, e, a, "signed_up", nil)
	seg := must(t, e.DoJSON(http.MethodPost, "/v1/segments", map[string]any{"name": "A only", "type": "static"}, a), http.StatusOK)
	giftCard(t, e, a, "Gift cards", "GIFT-A", 100)
	must(t, balance(t, e, a, "GIFT-A", map[string]any{"amount": 5}), http.StatusOK)
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-A/transactions/export", nil, a), http.StatusOK)
	done := waitForExport(t, e, a, exp["id"].(string))

	for _, path := range []string{"/v1/metadata-schemas/" + ms["id"].(string), "/v1/segments/" + seg["id"].(string), "/v1/exports/" + exp["id"].(string)} {
		wantError(t, e.Do(http.MethodGet, path, nil, b), http.StatusNotFound, "not_found", "")
	}
	if l := must(t, e.Do(http.MethodGet, "/v1/segments", nil, b), http.StatusOK); l["total"] != 0.0 {
		t.Fatalf("B lists A's segments: %v", l)
	}
	if l := must(t, e.Do(http.MethodGet, "/v1/metadata-schemas", nil, b), http.StatusOK); l["total"] != 0.0 {
		t.Fatalf("B lists A's schemas: %v", l)
	}
	wantError(t, e.DoJSON(http.MethodPost, "/v1/events", map[string]any{"event": "signed_up", "customer": map[string]any{"source_id": "x"}}, b),
		http.StatusBadRequest, "invalid_event", "signed_up")
	wantError(t, balance(t, e, b, "GIFT-A", map[string]any{"amount": 5}), http.StatusNotFound, "not_found", "GIFT-A")
	wantError(t, e.Do(http.MethodDelete, "/v1/segments/"+seg["id"].(string), nil, b), http.StatusNotFound, "not_found", seg["id"].(string))
	if r := e.Do(http.MethodDelete, "/v1/segments/"+seg["id"].(string), nil, a); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	wantError(t, e.Do(http.MethodGet, "/v1/segments/"+seg["id"].(string), nil, a), http.StatusNotFound, "not_found", "")
	wantError(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-A/transactions/export", nil, b), http.StatusNotFound, "not_found", "GIFT-A")
	r := e.GraphQL(b, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": exp["id"]})
	if len(r.Errors) == 0 {
		t.Fatalf("B resolves A's export node: %v", r.Data)
	}
	// The download link itself is the credential (no keys needed).
	if status, _ := download(t, e, done["result"].(map[string]any)["url"].(string)); status != http.StatusOK {
		t.Fatalf("download: %d", status)
	}
}

// TestExportJobResumesAndPages: an export job left IN_PROGRESS by a worker
// that died is reclaimed once its lease expires, and a worker reading two
// rows per query writes every transaction once, newest first.
func TestExportJobResumesAndPages(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gift cards", "GIFT-PAGE", 0)
	for i := range 7 {
		must(t, balance(t, e, app, "GIFT-PAGE", map[string]any{"amount": i + 1}), http.StatusOK)
		time.Sleep(2 * time.Millisecond)
	}
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-PAGE/transactions/export",
		map[string]any{"parameters": map[string]any{"fields": []string{"amount", "balance"}}}, app), http.StatusOK)
	// A worker claimed the job and died: its lease ran out.
	n, err := e.DB.Client.AsyncAction.Update().Where(asyncaction.ExportID(exp["id"].(string))).
		SetStatus(asyncaction.StatusIN_PROGRESS).SetClaimedBy("dead").SetLeaseUntil(time.Now().Add(-time.Second)).Save(systemCtx())
	if err != nil || n != 1 {
		t.Fatalf("marking job: %d %v", n, err)
	}
	w := &job.Worker{Client: e.DB.Client, Dialect: e.DB.Dialect, Logger: quietLogger, BatchSize: 2}
	if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("RunOnce: %v %v", worked, err)
	}
	done := must(t, e.Do(http.MethodGet, "/v1/exports/"+exp["id"].(string), nil, app), http.StatusOK)
	if done["status"] != "DONE" {
		t.Fatalf("export: %v", done)
	}
	_, csv := download(t, e, done["result"].(map[string]any)["url"].(string))
	want := "amount,balance\n7,28\n6,21\n5,15\n4,10\n3,6\n2,3\n1,1\n"
	if csv != want {
		t.Fatalf("csv:\n%s\nwant:\n%s", csv, want)
	}
}

// TestExportFailureIsReported: an export job that fails marks the export
// ERROR with the reason and deletes the chunks it had committed, so no
// partial file is left anywhere.
func TestExportFailureIsReported(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gift cards", "GIFT-ERR", 10)
	exp := must(t, e.DoJSON(http.MethodPost, "/v1/vouchers/GIFT-ERR/transactions/export", nil, app), http.StatusOK)
	id := exp["id"].(string)
	// An earlier attempt committed a chunk; now the export's subject is a
	// loyalty card that does not exist, so reading its transactions fails.
	pctx := viewer.NewContext(context.Background(), viewer.Viewer{ProjectID: e.Project.ProjectID})
	e.DB.Client.ExportChunk.Create().SetExportID(id).SetSeq(0).SetData("id\nvtx_1\n").SetByteOffset(0).SetSize(9).
		SetRows(1).SetLastCreatedAt(time.Now()).SetLastID("vtx_1").ExecX(pctx)
	if _, err := e.DB.SQL.Exec("UPDATE exports SET voucher_id = 'lcrd_nope' WHERE id = '" + id + "'"); err != nil {
		t.Fatal(err)
	}
	w := &job.Worker{Client: e.DB.Client, Dialect: e.DB.Dialect, Logger: quietLogger}
	if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("RunOnce: %v %v", worked, err)
	}
	got := must(t, e.Do(http.MethodGet, "/v1/exports/"+id, nil, app), http.StatusOK)
	if got["status"] != "ERROR" || !strings.Contains(got["result"].(map[string]any)["error"].(map[string]any)["message"].(string), "reading card") {
		t.Fatalf("export: %v", got)
	}
	if n := e.DB.Client.ExportChunk.Query().Where(exportchunk.ExportID(id)).CountX(systemCtx()); n != 0 {
		t.Fatalf("%d chunks of the failed export left", n)
	}
	if status, _ := download(t, e, e.Server.URL+forgedDownloadPath(t, e, id)); status != http.StatusNotFound {
		t.Fatalf("download of a failed export: %d", status)
	}
}

// TestExportShowsOnlySentParameters: as the real service does, an export
// shows the order and fields its request sent and leaves out those it did
// not (the job then uses the defaults); the filter names the voucher by its
// code, also when the path gave the voucher's ID.
func TestExportShowsOnlySentParameters(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	card := giftCard(t, e, app, "Gift cards", "GIFT-DEF", 10)
	filters := `"filters":{"voucher_id":{"conditions":{"$in":["GIFT-DEF"]}}}`
	for name, path := range map[string]string{"by code": "GIFT-DEF", "by id": card["id"].(string)} {
		for body, want := range map[string]string{
			``:   `{` + filters + `}`,
			`{}`: `{` + filters + `}`,
			`{"parameters": {"order": "created_at"}}`:                    `{` + filters + `,"order":"created_at"}`,
			`{"parameters": {"fields": ["id", "amount"]}}`:               `{"fields":["id","amount"],` + filters + `}`,
			`{"parameters": {"order": "-created_at", "fields": ["id"]}}`: `{"fields":["id"],` + filters + `,"order":"-created_at"}`,
		} {
			var raw []byte
			if body != "" {
				raw = []byte(body)
			}
			exp := must(t, e.Do(http.MethodPost, "/v1/vouchers/"+path+"/transactions/export", raw, app), http.StatusOK)
			if got := mustJSON(exp["parameters"]); got != want {
				t.Errorf("%s, body %q: parameters = %s, want %s", name, body, got, want)
			}
		}
	}
	// GraphQL shows the same parameters.
	r := e.GraphQL(app, `mutation { exportVoucherTransactions(voucher: "GIFT-DEF") { parameters } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("graphql export: %v", r.Errors)
	}
	if got := mustJSON(r.Data["exportVoucherTransactions"].(map[string]any)["parameters"]); got != `{`+filters+`}` {
		t.Errorf("graphql parameters = %s", got)
	}
}

func TestGraphQLBalanceTransactionsAndExport(t *testing.T) {
	e := resttest.New(t)
	app := resttest.App(e.Project)
	giftCard(t, e, app, "Gift cards", "GIFT-GQL", 1000)
	r := e.GraphQL(app, `mutation { adjustVoucherBalance(voucher: "GIFT-GQL", input: {amount: -300, reason: "refund"}) {
		amount total balance type transaction { id type reason balance } } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("adjustVoucherBalance: %v", r.Errors)
	}
	b := r.Data["adjustVoucherBalance"].(map[string]any)
	if b["balance"] != 700.0 || b["total"] != 700.0 || b["transaction"].(map[string]any)["type"] != "CREDITS_REMOVAL" {
		t.Fatalf("balance: %v", b)
	}
	r = e.GraphQL(app, `mutation { adjustVoucherBalance(voucher: "GIFT-GQL", input: {amount: -701}) { balance } }`, nil)
	if len(r.Errors) != 1 || r.Errors[0].Extensions["key"] != "not_enough_balance" {
		t.Fatalf("overdraw: %v", r.Errors)
	}
	r = e.GraphQL(app, `{ voucher(codeOrID: "GIFT-GQL") { transactions(first: 5) { totalCount edges { node { amount balance reason } } } } }`, nil)
	if len(r.Errors) > 0 || r.Data["voucher"].(map[string]any)["transactions"].(map[string]any)["totalCount"] != 1.0 {
		t.Fatalf("transactions: %v %v", r.Data, r.Errors)
	}
	r = e.GraphQL(app, `mutation { exportVoucherTransactions(voucher: "GIFT-GQL", parameters: {fields: ["id", "amount"]}) { id status } }`, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("export: %v", r.Errors)
	}
	id := r.Data["exportVoucherTransactions"].(map[string]any)["id"].(string)
	waitForExport(t, e, app, id)
	r = e.GraphQL(app, `query($id: ID!) { export(id: $id) { status downloadURL } }`, map[string]any{"id": id})
	exp := r.Data["export"].(map[string]any)
	if exp["status"] != "DONE" {
		t.Fatalf("export: %v %v", r.Data, r.Errors)
	}
	status, csv := download(t, e, e.Server.URL+exp["downloadURL"].(string))
	if status != http.StatusOK || !strings.HasPrefix(csv, "id,amount\nvtx_") || !strings.HasSuffix(csv, ",-300\n") {
		t.Fatalf("download %d: %q", status, csv)
	}
}
