// Command redload drives one POST endpoint (POST /v1/validations or
// POST /v1/redemptions) with a fixed number of concurrent clients for a
// fixed time and reports throughput and latency percentiles. Every request
// of a client sends the same JSON body to the same path, except that
// {{CODE}} in the body and in the path (POST /v1/vouchers/{{CODE}}/redemption)
// is replaced by one of the codes given with -codes (a line of codes
// separated by commas also fills {{CODE1}}, {{CODE2}}, … in turn): with one code all clients
// share it; with at least as many codes as clients, client w takes codes
// w, w+C, w+2C, … in turn, so no two clients ever use the same code. Any
// response that is not 2xx, or whose body lacks -expect, is a failure and
// makes the command exit 1. Used by docs/bench/redemptions.sh.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "service base URL")
	appID := flag.String("app-id", "", "X-App-Id")
	token := flag.String("app-token", "", "X-App-Token")
	path := flag.String("path", "/v1/validations", "path to POST to; {{CODE}} is replaced as in the body")
	bodyFile := flag.String("body", "", "file with the JSON body; {{CODE}} is replaced by a code of -codes")
	codesFile := flag.String("codes", "", "file with one code a line (optional)")
	expect := flag.String("expect", "", "a string every response body must contain")
	label := flag.String("label", "requests", "what the requests are called in the report")
	clients := flag.Int("clients", 16, "concurrent clients")
	duration := flag.Duration("duration", 10*time.Second, "how long to run")
	postmaster := flag.Int("postmaster", 0, "PID of the benchmark's PostgreSQL: with it, the CPU used by other processes during the run is reported")
	root := flag.Int("root", 0, "PID of the benchmark script: its descendants are the benchmark's processes (0: every process named promoengine, pgbench, redload or pubload)")
	watchOnly := flag.Bool("watch-only", false, "send nothing: only report the CPU of other processes for -duration (next to pgbench)")
	flag.Parse()

	var watch *cpuWatch
	if *postmaster != 0 {
		watch = startCPUWatch(*postmaster, *root)
		defer func() { fmt.Println(watch.stop()) }()
	}
	if *watchOnly {
		time.Sleep(*duration)
		return
	}

	target, err := url.Parse(*base)
	if err != nil || target.Host == "" {
		fail("bad -url: %s", *base)
	}
	tmpl, err := os.ReadFile(*bodyFile)
	if err != nil {
		fail("reading -body: %v", err)
	}
	var codes []string
	if *codesFile != "" {
		b, err := os.ReadFile(*codesFile)
		if err != nil {
			fail("reading -codes: %v", err)
		}
		codes = strings.Fields(string(b))
		if len(codes) == 0 {
			fail("-codes %s is empty", *codesFile)
		}
		if len(codes) > 1 && len(codes) < *clients {
			fail("-codes: %d codes for %d clients; give one (shared) or at least one per client", len(codes), *clients)
		}
	} else if bytes.Contains(tmpl, []byte("{{CODE}}")) || strings.Contains(*path, "{{CODE}}") {
		fail("the body or the path has {{CODE}} but no -codes were given")
	}
	// reqs[w] are the requests client w sends in turn.
	type request struct{ path, body string }
	with := func(code string) request {
		// A line of several codes (A,B,…) fills {{CODE1}}, {{CODE2}}, …
		// too: the codes of one stacked request.
		pairs := []string{"{{CODE}}", code}
		for i, part := range strings.Split(code, ",") {
			pairs = append(pairs, "{{CODE"+strconv.Itoa(i+1)+"}}", part)
		}
		r := strings.NewReplacer(pairs...)
		return request{r.Replace(*path), r.Replace(string(tmpl))}
	}
	reqs := make([][]request, *clients)
	for w := range *clients {
		switch {
		case len(codes) == 0:
			reqs[w] = []request{{*path, string(tmpl)}}
		case len(codes) == 1:
			reqs[w] = []request{with(codes[0])}
		default:
			for j := w; j < len(codes); j += *clients {
				reqs[w] = append(reqs[w], with(codes[j]))
			}
		}
	}

	var (
		mu        sync.Mutex
		latencies []time.Duration
		failures  = map[string]int{}
		example   string
		// perSecond counts the successful requests completed in each second.
		perSecond = make([]int, int(duration.Seconds())+2)
		wg        sync.WaitGroup
	)
	want := []byte(*expect)
	start := time.Now()
	deadline := start.Add(*duration)
	for w := range *clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &client{host: target.Host, appID: *appID, token: *token}
			defer c.close()
			var own []time.Duration
			var done []time.Duration // completion times since start
			for i := 0; time.Now().Before(deadline); i++ {
				req := reqs[w][i%len(reqs[w])]
				t0 := time.Now()
				status, resp, err := c.post(req.path, req.body)
				elapsed := time.Since(t0)
				if err != nil || status/100 != 2 || !bytes.Contains(resp, want) {
					mu.Lock()
					failures[fmt.Sprint(status, " ", err)]++
					if example == "" {
						example = string(resp)
					}
					mu.Unlock()
					continue
				}
				own = append(own, elapsed)
				done = append(done, t0.Add(elapsed).Sub(start))
			}
			mu.Lock()
			latencies = append(latencies, own...)
			for _, d := range done {
				if s := int(d / time.Second); s < len(perSecond) {
					perSecond[s]++
				}
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	total := time.Since(start)
	if len(latencies) == 0 {
		if watch != nil {
			fmt.Println(watch.stop())
		}
		fmt.Fprintf(os.Stderr, "%s: no successful requests; failures: %v\nfirst failed response: %.500s\n", *label, failures, example)
		os.Exit(1)
	}
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	fmt.Printf("%s: %d ok in %.1f s = %.0f/s with %d clients\n", *label, len(latencies), total.Seconds(),
		float64(len(latencies))/total.Seconds(), *clients)
	fmt.Printf("latency: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		ms(pct(0.5)), ms(pct(0.9)), ms(pct(0.99)), ms(latencies[len(latencies)-1]))
	for len(perSecond) > 0 && perSecond[len(perSecond)-1] == 0 {
		perSecond = perSecond[:len(perSecond)-1]
	}
	fmt.Printf("per second: %v\n", perSecond)
	if len(failures) > 0 {
		if watch != nil {
			fmt.Println(watch.stop())
		}
		fmt.Printf("FAILURES: %v\nfirst failed response: %.500s\n", failures, example)
		os.Exit(1)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "redload: "+format+"\n", args...)
	os.Exit(2)
}

// client is one keep-alive HTTP/1.1 connection driven by one goroutine, as
// in docs/bench/pubload: little load-generator CPU on a machine shared with
// the server and the database.
type client struct {
	host, appID, token string
	conn               net.Conn
	r                  *bufio.Reader
	buf                []byte
	resp               bytes.Buffer
}

// post sends body to path and returns the response status and body.
func (c *client) post(path, body string) (int, []byte, error) {
	if c.conn == nil {
		conn, err := net.Dial("tcp", c.host)
		if err != nil {
			return 0, nil, err
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
		return 0, nil, err
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		c.close()
		return 0, nil, err
	}
	c.resp.Reset()
	_, err = io.Copy(&c.resp, resp.Body)
	_ = resp.Body.Close()
	if err != nil || resp.Close {
		c.close()
	}
	return resp.StatusCode, c.resp.Bytes(), err
}

func (c *client) close() {
	if c.conn != nil {
		_ = c.conn.Close()
		c.conn = nil
	}
}
