package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/hibiken/asynq"
	"github.com/hibiken/asynqmon"

	"github.com/kodahq/koda/internal/metrics"
	"github.com/kodahq/koda/internal/rediskey"
	"github.com/kodahq/koda/internal/semaphore"
	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/workers"
)

// ops holds what keeps a process observable and within its resource limits:
// metrics, the semaphore and, in a worker without the API, a /metrics listener.
type ops struct {
	metrics    *metrics.Metrics
	metricsSrv *http.Server
	// MetricsAddr is where a worker process serves /metrics (set by Open).
	MetricsAddr string
}

// openOps builds the metrics of the process; the queue gauges read Redis at scrape time.
func (m *Main) openOps() {
	m.ops.metrics = metrics.New()
	m.ops.metrics.RegisterQueues(asynq.NewInspectorFromRedisClient(m.rdb), jobs.Queues, m.Logger)
}

// configureWorkers gives the handlers their resource limits, metrics and the Redis
// views the reconciler and the busy hand-over need.
func (m *Main) configureWorkers(h *workers.Handlers) error {
	c := m.Config
	h.Metrics = m.ops.metrics
	h.Enqueuer = m.client
	h.Inspector = asynq.NewInspectorFromRedisClient(m.rdb)
	h.Redis = m.rdb
	h.Limits = &workers.Limits{
		Sem: semaphore.New(m.rdb, rediskey.Semaphore), Node: c.Node, Max: c.Limits, LLMProvider: c.Agent.Kind,
	}
	if m.API || c.MetricsAddr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", c.MetricsAddr)
	if err != nil {
		return err
	}
	m.ops.MetricsAddr = ln.Addr().String()
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.ops.metrics.Handler(c.MetricsKey))
	m.ops.metricsSrv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := m.ops.metricsSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.Logger.Error("metrics listener", "err", err)
		}
	}()
	m.Logger.Info("metrics listening", "addr", m.ops.MetricsAddr)
	return nil
}

// monitoringOptions configures Asynqmon with formatters that show each task's project,
// preset, stage and progress.
func (m *Main) monitoringOptions(conn asynq.RedisConnOpt) asynqmon.Options {
	return asynqmon.Options{
		RootPath: "/monitoring", RedisConnOpt: conn,
		PayloadFormatter: asynqmon.PayloadFormatterFunc(workers.FormatPayload(m.store)),
		ResultFormatter:  asynqmon.ResultFormatterFunc(workers.FormatResult),
	}
}

func (m *Main) closeOps() {
	if m.ops.metricsSrv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = m.ops.metricsSrv.Shutdown(ctx)
	}
}
