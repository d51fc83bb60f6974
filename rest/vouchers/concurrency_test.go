package vouchers_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/promoengine/promoengine/ent/voucher"
	jobrun "github.com/promoengine/promoengine/graph/job"
	"github.com/promoengine/promoengine/rest/resttest"
)

// TestParallelJobsAndAddsNeverCollide runs bulk jobs on three workers (as if
// in three server processes) while single adds race into the same project
// and code space. Every code is stored once, duplicates are refused, and the
// campaign's count equals its vouchers.
func TestParallelJobsAndAddsNeverCollide(t *testing.T) {
	e := resttest.NewWithoutWorker(t)
	app := resttest.App(e.Project)
	cmp := resttest.DiscountCampaign(t, e, "race", "####", "0123456789", nil) // 10,000 codes P-0000 … P-9999

	ctx, stop := context.WithCancel(context.Background())
	var workers sync.WaitGroup
	for i := range 3 {
		workers.Add(1)
		w := &jobrun.Worker{Client: e.DB.Client, Dialect: e.DB.Dialect, ID: fmt.Sprintf("w%d", i), Poll: 5e6, BatchSize: 250, Logger: quietLogger}
		go func() { defer workers.Done(); w.Run(ctx) }()
	}
	defer func() { stop(); workers.Wait() }()

	const jobs, perJob, generated, explicit = 4, 1500, 20, 20
	var wg sync.WaitGroup
	var mu sync.Mutex
	var jobIDs []string
	explicitStatus := map[string][]int{}
	start := make(chan struct{})
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			resp := e.Do(http.MethodPost, fmt.Sprintf("/v1/campaigns/race/vouchers?vouchers_count=%d", perJob), nil, app)
			if resp.Status != http.StatusAccepted {
				t.Errorf("bulk request: %d %s", resp.Status, resp.Body)
				return
			}
			mu.Lock()
			jobIDs = append(jobIDs, resp.JSON(t)["async_action_id"].(string))
			mu.Unlock()
		}()
	}
	for i := range generated + 2*explicit {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			var body any
			code := ""
			if i >= generated {
				code = fmt.Sprintf("EXPLICIT-%02d", (i-generated)/2) // each explicit code is sent twice
				body = map[string]any{"code": code}
			}
			resp := e.DoJSON(http.MethodPost, "/v1/campaigns/race/vouchers", body, app)
			mu.Lock()
			defer mu.Unlock()
			if code != "" {
				explicitStatus[code] = append(explicitStatus[code], resp.Status)
			} else if resp.Status != http.StatusOK {
				t.Errorf("generated add: %d %s", resp.Status, resp.Body)
			}
		}()
	}
	close(start)
	wg.Wait()
	for _, id := range jobIDs {
		if job := e.WaitForJob(app, id); job["status"] != "DONE" {
			t.Errorf("job %s = %v", id, job)
		}
	}
	for code, statuses := range explicitStatus {
		ok, dup := 0, 0
		for _, s := range statuses {
			switch s {
			case http.StatusOK:
				ok++
			case http.StatusBadRequest:
				dup++
			}
		}
		if ok != 1 || dup != 1 {
			t.Errorf("code %s: statuses %v, want one 200 and one 400", code, statuses)
		}
	}
	want := jobs*perJob + generated + explicit
	stored := e.DB.Client.Voucher.Query().Where(voucher.CampaignID(cmp["id"].(string))).Select(voucher.FieldCode).StringsX(resttest.SystemCtx())
	distinct := map[string]bool{}
	for _, c := range stored {
		distinct[c] = true
	}
	if len(stored) != want || len(distinct) != want {
		t.Errorf("%d vouchers (%d distinct), want %d", len(stored), len(distinct), want)
	}
	got := e.Do(http.MethodGet, "/v1/campaigns/race", nil, app).JSON(t)
	if got["vouchers_count"] != float64(want) || got["vouchers_generation_status"] != "DONE" {
		t.Errorf("campaign count %v status %v, want %d DONE", got["vouchers_count"], got["vouchers_generation_status"], want)
	}
}
