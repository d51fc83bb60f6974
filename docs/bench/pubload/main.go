// Command pubload drives POST /v1/publications with a fixed number of
// concurrent clients for a fixed time and reports throughput and latency
// percentiles. Each request publishes one voucher of the campaign to a new
// customer. Used by docs/bench/publications.sh.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "service base URL")
	appID := flag.String("app-id", "", "X-App-Id")
	token := flag.String("app-token", "", "X-App-Token")
	campaign := flag.String("campaign", "", "campaign name or ID to publish from")
	clients := flag.Int("clients", 16, "concurrent clients")
	duration := flag.Duration("duration", 20*time.Second, "how long to run")
	flag.Parse()

	transport := &http.Transport{MaxIdleConnsPerHost: *clients}
	client := &http.Client{Transport: transport, Timeout: 10 * time.Second}
	deadline := time.Now().Add(*duration)
	var mu sync.Mutex
	var latencies []time.Duration
	failures := map[int]int{}
	var wg sync.WaitGroup
	start := time.Now()
	for w := range *clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var own []time.Duration
			for i := 0; time.Now().Before(deadline); i++ {
				body := fmt.Sprintf(`{"campaign":{"name":%q},"customer":{"source_id":"load-%d-%d-%d"}}`, *campaign, start.UnixNano(), w, i)
				req, _ := http.NewRequest(http.MethodPost, *base+"/v1/publications", bytes.NewBufferString(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-App-Id", *appID)
				req.Header.Set("X-App-Token", *token)
				t0 := time.Now()
				resp, err := client.Do(req)
				status := 0
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					status = resp.StatusCode
				}
				elapsed := time.Since(t0)
				if status != http.StatusOK {
					mu.Lock()
					failures[status]++
					mu.Unlock()
					continue
				}
				own = append(own, elapsed)
			}
			mu.Lock()
			latencies = append(latencies, own...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	total := time.Since(start)
	if len(latencies) == 0 {
		fmt.Fprintln(os.Stderr, "no successful requests; failures by status:", failures)
		os.Exit(1)
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	fmt.Printf("publications: %d ok in %.1f s = %.0f/s with %d clients\n", len(latencies), total.Seconds(),
		float64(len(latencies))/total.Seconds(), *clients)
	fmt.Printf("latency: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		ms(pct(0.5)), ms(pct(0.9)), ms(pct(0.99)), ms(latencies[len(latencies)-1]))
	if len(failures) > 0 {
		fmt.Printf("failures by status: %v\n", failures)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
