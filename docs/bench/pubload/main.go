// Command pubload drives POST /v1/publications with a fixed number of
// concurrent clients for a fixed time and reports throughput and latency
// percentiles. Each request publishes one voucher of the campaign to a new
// customer. Used by docs/bench/publications.sh; with -hook-listen it is
// also the webhook receiver of docs/bench/webhooks.sh and reports the
// delivery lag.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
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
	hookListen := flag.String("hook-listen", "", "also receive webhooks on this address (e.g. 127.0.0.1:9099) and report the delivery lag")
	hookToken := flag.String("hook-token", "", "the project's webhook_token, to check each signature")
	hookDrain := flag.Duration("hook-drain", time.Minute, "how long to wait after the load for the last webhooks")
	flag.Parse()
	var hooks *receiver
	if *hookListen != "" {
		var err error
		if hooks, err = startReceiver(*hookListen, *hookToken); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}

	target, err := url.Parse(*base)
	if err != nil || target.Host == "" {
		fmt.Fprintln(os.Stderr, "bad -url:", *base)
		os.Exit(2)
	}
	deadline := time.Now().Add(*duration)
	var mu sync.Mutex
	var latencies []time.Duration
	failures := map[string]int{}
	var wg sync.WaitGroup
	start := time.Now()
	for w := range *clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &client{host: target.Host, appID: *appID, token: *token}
			defer c.close()
			var own []time.Duration
			for i := 0; time.Now().Before(deadline); i++ {
				body := fmt.Sprintf(`{"campaign":{"name":%q},"customer":{"source_id":"load-%d-%d-%d"}}`, *campaign, start.UnixNano(), w, i)
				t0 := time.Now()
				status, err := c.post("/v1/publications", body)
				elapsed := time.Since(t0)
				if err != nil || status != http.StatusOK {
					mu.Lock()
					failures[fmt.Sprint(status, err)]++
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
		fmt.Fprintln(os.Stderr, "no successful requests; failures:", failures)
		os.Exit(1)
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	fmt.Printf("publications: %d ok in %.1f s = %.0f/s with %d clients\n", len(latencies), total.Seconds(),
		float64(len(latencies))/total.Seconds(), *clients)
	fmt.Printf("latency: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		ms(pct(0.5)), ms(pct(0.9)), ms(pct(0.99)), ms(latencies[len(latencies)-1]))
	if len(failures) > 0 {
		fmt.Printf("failures: %v\n", failures)
	}
	if hooks != nil {
		hooks.drain(len(latencies), *hookDrain) // one voucher.published per publication
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// client is one keep-alive HTTP/1.1 connection driven by one goroutine:
// it writes a request and reads the response itself, so the load generator
// spends little CPU of the machine it shares with the server and the
// database (net/http's client adds two goroutines and their hand-offs per
// connection).
type client struct {
	host, appID, token string
	conn               net.Conn
	r                  *bufio.Reader
	buf                []byte
}

// post sends body to path and returns the response status.
func (c *client) post(path, body string) (int, error) {
	if c.conn == nil {
		conn, err := net.Dial("tcp", c.host)
		if err != nil {
			return 0, err
		}
		c.conn, c.r = conn, bufio.NewReaderSize(conn, 64<<10)
	}
	c.buf = append(c.buf[:0], "POST "...)
	c.buf = append(c.buf, path...)
	c.buf = append(c.buf, " HTTP/1.1\r\nHost: "...)
	c.buf = append(c.buf, c.host...)
	c.buf = append(c.buf, "\r\nContent-Type: application/json\r\nX-App-Id: "...)
	c.buf = append(c.buf, c.appID...)
	c.buf = append(c.buf, "\r\nX-App-Token: "...)
	c.buf = append(c.buf, c.token...)
	c.buf = append(c.buf, "\r\nContent-Length: "...)
	c.buf = strconv.AppendInt(c.buf, int64(len(body)), 10)
	c.buf = append(c.buf, "\r\n\r\n"...)
	c.buf = append(c.buf, body...)
	if _, err := c.conn.Write(c.buf); err != nil {
		c.close()
		return 0, err
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		c.close()
		return 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if err != nil || resp.Close {
		c.close()
	}
	return resp.StatusCode, err
}

func (c *client) close() {
	if c.conn != nil {
		_ = c.conn.Close()
		c.conn = nil
	}
}
