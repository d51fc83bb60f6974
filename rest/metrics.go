package rest

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/promoengine/promoengine/ent"
	"github.com/promoengine/promoengine/graph"
)

// MetricsPath is where the Prometheus metrics are served.
const MetricsPath = "/metrics"

// routeUnmatched is the route label of requests no route matched (404,
// 405): raw paths never become label values.
const routeUnmatched = "unmatched"

// jobQueueTimeout bounds the job queue reading of one scrape.
const jobQueueTimeout = 2 * time.Second

// Metrics is the service's Prometheus registry: HTTP requests by route
// template, GraphQL operations, business outcomes (publications,
// redemptions, rollbacks), the database pool, the job queue, and the Go
// runtime and process. Each router has its own (see Options.Metrics), so
// tests with many routers do not share counters; nothing is registered
// with prometheus.DefaultRegisterer.
type Metrics struct {
	reg          *prometheus.Registry
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	publications *prometheus.CounterVec
	redemptions  *prometheus.CounterVec
	rollbacks    prometheus.Counter
	graphql      *graph.GraphQLMetrics
	// series holds each (method, route, status)'s counter and histogram
	// (requestSeries → requestMetrics), so a request does not hash its
	// labels into the vectors (WithLabelValues) again; the routes, methods
	// and statuses are few.
	series sync.Map
}

// requestSeries names one request counter: its labels.
type requestSeries struct {
	method, route string
	status        int
}

// requestMetrics is a requestSeries' counter and duration histogram.
type requestMetrics struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

// NewMetrics returns a registry with the Go runtime, process and build
// collectors and the request and business metrics. NewRouter adds the
// database pool and job queue collectors of its options.
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "promoengine_http_requests_total",
			Help: "HTTP requests answered, by method, route template (unmatched when no route matched) and status code.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "promoengine_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by method and route template.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route"}),
		publications: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "promoengine_publications_total",
			Help: "Publish requests (REST, client API and GraphQL) by result: SUCCESS once committed, FAILURE when refused or rolled back.",
		}, []string{"result"}),
		redemptions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "promoengine_redemptions_total",
			Help: "Committed redemption requests (a stacked one counts once) by result: SUCCESS, or FAILURE for a stored failed redemption.",
		}, []string{"result"}),
		rollbacks: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "promoengine_redemption_rollbacks_total",
			Help: "Committed redemption rollback requests.",
		}),
	}
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewBuildInfoCollector(),
		m.requests, m.duration, m.publications, m.redemptions, m.rollbacks,
	)
	// Both results exist from the start, so rates work from the first scrape.
	for _, result := range []string{graph.ResultSuccess, graph.ResultFailure} {
		m.publications.WithLabelValues(result)
		m.redemptions.WithLabelValues(result)
	}
	m.graphql = graph.NewGraphQLMetrics(reg)
	return m
}

// Handler serves the metrics in the Prometheus text format (or OpenMetrics
// when the scraper asks for it). A collector that fails is logged and left
// out; the rest is still served.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorHandling:     promhttp.ContinueOnError,
		EnableOpenMetrics: true,
	})
}

// Publication implements graph.Observer.
func (m *Metrics) Publication(result string) { m.publications.WithLabelValues(result).Inc() }

// Redemption implements graph.Observer.
func (m *Metrics) Redemption(result string) { m.redemptions.WithLabelValues(result).Inc() }

// RedemptionRollback implements graph.Observer.
func (m *Metrics) RedemptionRollback() { m.rollbacks.Inc() }

var _ graph.Observer = (*Metrics)(nil)

// metrics returns the router's Metrics (opts.Metrics or a new registry)
// watching its database.
func (opts Options) metrics() (*Metrics, error) {
	m := opts.Metrics
	if m == nil {
		m = NewMetrics()
	}
	if err := m.watch(opts.Client, opts.SQLDB, opts.Logger); err != nil {
		return nil, err
	}
	return m, nil
}

// watch adds the collectors that read the router's database: the pool
// statistics (when db is known) and the job queue.
func (m *Metrics) watch(client *ent.Client, db *sql.DB, log *slog.Logger) error {
	if log == nil {
		log = slog.Default()
	}
	cs := []prometheus.Collector{newJobQueueCollector(client, log)}
	if db != nil {
		cs = append(cs, newDBStatsCollector(db))
	}
	for _, c := range cs {
		if err := m.reg.Register(c); err != nil {
			return fmt.Errorf("metrics: %w (one Metrics per router)", err)
		}
	}
	return nil
}

// instrument counts and times every request under its route template.
// Probes and scrapes are counted too, under their own routes. The use
// cases find m, for the business metrics, in the server scope of every
// request's context (withRequest).
func (m *Metrics) instrument(c *gin.Context) {
	start := time.Now()
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = routeUnmatched
	}
	key := requestSeries{methodLabel(c.Request.Method), route, c.Writer.Status()}
	series, ok := m.series.Load(key)
	if !ok {
		series, _ = m.series.LoadOrStore(key, requestMetrics{
			requests: m.requests.WithLabelValues(key.method, key.route, strconv.Itoa(key.status)),
			duration: m.duration.WithLabelValues(key.method, key.route),
		})
	}
	rm := series.(requestMetrics)
	rm.requests.Inc()
	rm.duration.Observe(time.Since(start).Seconds())
}

// methodLabel keeps the method label to the standard methods: any other
// (a caller's invention) is "other".
func methodLabel(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "other"
}

// dbStatsCollector reports sql.DB.Stats() of the connection pool.
type dbStatsCollector struct {
	db                                                  *sql.DB
	maxOpen, open, inUse, idle, waitCount, waitDuration *prometheus.Desc
}

func newDBStatsCollector(db *sql.DB) *dbStatsCollector {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("promoengine_db_"+name, help, nil, nil)
	}
	return &dbStatsCollector{
		db:           db,
		maxOpen:      d("max_open_connections", "Maximum number of open connections to the database (0: unlimited)."),
		open:         d("open_connections", "Established connections to the database, in use and idle."),
		inUse:        d("in_use", "Connections to the database currently in use."),
		idle:         d("idle", "Idle connections to the database."),
		waitCount:    d("wait_count_total", "Times a request waited for a free connection."),
		waitDuration: d("wait_duration_seconds_total", "Total time requests waited for a free connection."),
	}
}

// Describe implements prometheus.Collector.
func (c *dbStatsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.maxOpen, c.open, c.inUse, c.idle, c.waitCount, c.waitDuration} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *dbStatsCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.db.Stats()
	ch <- prometheus.MustNewConstMetric(c.maxOpen, prometheus.GaugeValue, float64(s.MaxOpenConnections))
	ch <- prometheus.MustNewConstMetric(c.open, prometheus.GaugeValue, float64(s.OpenConnections))
	ch <- prometheus.MustNewConstMetric(c.inUse, prometheus.GaugeValue, float64(s.InUse))
	ch <- prometheus.MustNewConstMetric(c.idle, prometheus.GaugeValue, float64(s.Idle))
	ch <- prometheus.MustNewConstMetric(c.waitCount, prometheus.CounterValue, float64(s.WaitCount))
	ch <- prometheus.MustNewConstMetric(c.waitDuration, prometheus.CounterValue, s.WaitDuration.Seconds())
}

// jobQueueCollector reads the depth and lag of the background job queue
// (all projects) at scrape time: one COUNT and one indexed lookup, bounded
// by jobQueueTimeout. A failed reading is logged and the two gauges are
// left out of that scrape.
type jobQueueCollector struct {
	client      *ent.Client
	log         *slog.Logger
	queued, age *prometheus.Desc
}

func newJobQueueCollector(client *ent.Client, log *slog.Logger) *jobQueueCollector {
	return &jobQueueCollector{
		client: client,
		log:    log,
		queued: prometheus.NewDesc("promoengine_jobs_queued",
			"Background jobs (async actions) waiting for a worker: enqueued, or handed back with an expired lease.", nil, nil),
		age: prometheus.NewDesc("promoengine_jobs_oldest_queued_age_seconds",
			"Age of the oldest job waiting for a worker (0 when none waits).", nil, nil),
	}
}

// Describe implements prometheus.Collector.
func (c *jobQueueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.queued; ch <- c.age }

// Collect implements prometheus.Collector.
func (c *jobQueueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), jobQueueTimeout)
	defer cancel()
	q, err := graph.ReadJobQueue(ent.NewContext(ctx, c.client))
	if err != nil {
		c.log.Warn("metrics: reading the job queue", "error", err.Error())
		return
	}
	age := 0.0
	if q.Queued > 0 && !q.Oldest.IsZero() {
		age = max(time.Since(q.Oldest).Seconds(), 0)
	}
	ch <- prometheus.MustNewConstMetric(c.queued, prometheus.GaugeValue, float64(q.Queued))
	ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, age)
}
