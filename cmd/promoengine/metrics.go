package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/promoengine/promoengine/rest"
)

// serveMetrics serves the Prometheus metrics on their own address
// (PROMO_METRICS_ADDR), until the returned server is shut down.
func serveMetrics(addr string, metrics *rest.Metrics, log *slog.Logger) (*http.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s (metrics): %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+rest.MetricsPath, metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	log.Info("metrics", "addr", ln.Addr().String(), "path", rest.MetricsPath)
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("metrics listener stopped", "error", err.Error())
		}
	}()
	return srv, nil
}
