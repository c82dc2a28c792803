// Package metrics exposes Koda's health in the Prometheus text format: queue sizes and
// latency read from asynq, tasks by type and outcome, render speed and duration,
// semaphore waits and webhook delivery outcomes.
//
// Each process has its own Metrics with its own registry (no global default
// registry), so tests and several Mains in one process never collide. Counters of
// work describe what this process did; the queue gauges describe the whole cluster,
// read from Redis at scrape time.
package metrics

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the collectors one process updates.
type Metrics struct {
	Registry *prometheus.Registry

	// Tasks counts finished task attempts by type and outcome (success, failure,
	// busy, handoff, stale, skipped).
	Tasks *prometheus.CounterVec
	// TaskDuration is the wall time of task attempts by type.
	TaskDuration *prometheus.HistogramVec
	// RenderDuration is the wall time of successful renders by kind and preset.
	RenderDuration *prometheus.HistogramVec
	// RenderFPS is the frames per second of the last render by kind and preset.
	RenderFPS *prometheus.GaugeVec
	// RenderFrames counts frames rendered by kind.
	RenderFrames *prometheus.CounterVec
	// SemaphoreWaits counts refused acquisitions by resource class; SemaphoreAcquired
	// counts granted ones.
	SemaphoreWaits    *prometheus.CounterVec
	SemaphoreAcquired *prometheus.CounterVec
	// SemaphoreLost counts slots lost while held (lease not renewed in time).
	SemaphoreLost *prometheus.CounterVec
	// Webhooks counts delivery attempts by event type and outcome (delivered, retry,
	// failed).
	Webhooks *prometheus.CounterVec
	// Reconciled counts tasks the reconciler enqueued or revived, by kind and reason.
	Reconciled *prometheus.CounterVec
	// Leader is 1 while this process runs the periodic scheduler.
	Leader prometheus.Gauge
}

// New returns Metrics with Go runtime and process collectors registered.
func New() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		Tasks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "koda_tasks_total", Help: "Task attempts processed by this process, by type and outcome.",
		}, []string{"type", "outcome"}),
		TaskDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "koda_task_duration_seconds", Help: "Wall time of task attempts, by type.",
			Buckets: prometheus.ExponentialBuckets(0.01, 3, 12),
		}, []string{"type"}),
		RenderDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "koda_render_duration_seconds", Help: "Wall time of successful renders, by kind and preset.",
			Buckets: []float64{1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 2400, 3600},
		}, []string{"kind", "preset"}),
		RenderFPS: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "koda_render_frames_per_second", Help: "Frames per second of the last finished render, by kind and preset.",
		}, []string{"kind", "preset"}),
		RenderFrames: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "koda_render_frames_total", Help: "Frames rendered, by kind.",
		}, []string{"kind"}),
		SemaphoreWaits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "koda_semaphore_waits_total", Help: "Task attempts that found no free slot of a resource and had to wait, by resource.",
		}, []string{"resource"}),
		SemaphoreAcquired: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "koda_semaphore_acquired_total", Help: "Resource slots taken, by resource.",
		}, []string{"resource"}),
		SemaphoreLost: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "koda_semaphore_lost_total", Help: "Resource slots lost while held, by resource.",
		}, []string{"resource"}),
		Webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "koda_webhook_deliveries_total", Help: "Webhook delivery attempts, by event type and outcome.",
		}, []string{"event", "outcome"}),
		Reconciled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "koda_reconciled_total", Help: "Tasks the reconciler enqueued again, by kind and reason.",
		}, []string{"kind", "reason"}),
		Leader: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "koda_scheduler_leader", Help: "1 while this process runs the periodic scheduler.",
		}),
	}
	m.Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.Tasks, m.TaskDuration, m.RenderDuration, m.RenderFPS, m.RenderFrames,
		m.SemaphoreWaits, m.SemaphoreAcquired, m.SemaphoreLost, m.Webhooks, m.Reconciled, m.Leader,
	)
	return m
}

// Handler serves the registry in the Prometheus text format.
//
// With a key (KODA_METRICS_KEY) a scrape must send Authorization: Bearer <key>, compared
// in constant time; without one /metrics stays open, as Prometheus scrapes expect. The
// API's /metrics and a worker's own listener both serve this handler.
func (m *Metrics) Handler(key string) http.Handler {
	h := promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
	if key == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(key)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="koda-metrics"`)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"code":"UNAUTHORIZED","message":"/metrics needs Authorization: Bearer <KODA_METRICS_KEY>"}}`))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// ObserveTask records one task attempt; nil Metrics ignores it, so callers need no checks.
func (m *Metrics) ObserveTask(typ, outcome string, took time.Duration) {
	if m == nil {
		return
	}
	m.Tasks.WithLabelValues(typ, outcome).Inc()
	m.TaskDuration.WithLabelValues(typ).Observe(took.Seconds())
}

// ObserveRender records a successful render.
func (m *Metrics) ObserveRender(kind, preset string, frames int, took time.Duration) {
	if m == nil || took <= 0 {
		return
	}
	m.RenderDuration.WithLabelValues(kind, preset).Observe(took.Seconds())
	m.RenderFPS.WithLabelValues(kind, preset).Set(float64(frames) / took.Seconds())
	m.RenderFrames.WithLabelValues(kind).Add(float64(frames))
}

// Counter names one of the counters, for Add.
type Counter int

const (
	SemaphoreWaits Counter = iota
	SemaphoreAcquired
	SemaphoreLost
	Webhooks
	Reconciled
)

// Add adds one to a counter's series for labels; nil Metrics ignores it.
func (m *Metrics) Add(c Counter, labels ...string) {
	if m == nil {
		return
	}
	vec := map[Counter]*prometheus.CounterVec{
		SemaphoreWaits: m.SemaphoreWaits, SemaphoreAcquired: m.SemaphoreAcquired,
		SemaphoreLost: m.SemaphoreLost, Webhooks: m.Webhooks, Reconciled: m.Reconciled,
	}[c]
	vec.WithLabelValues(labels...).Inc()
}

// SetLeader records whether this process runs the scheduler.
func (m *Metrics) SetLeader(on bool) {
	if m == nil {
		return
	}
	v := 0.0
	if on {
		v = 1
	}
	m.Leader.Set(v)
}

// RegisterQueues adds cluster-wide queue gauges read through the inspector at scrape
// time: sizes by state, latency (age of the oldest pending task), and processed and
// failed totals.
// The queues in known are exported from the first scrape, with zeros before Redis has
// heard of them, so dashboards and alerts work before the first task.
func (m *Metrics) RegisterQueues(insp *asynq.Inspector, known []string, log *slog.Logger) {
	m.Registry.MustRegister(&queueCollector{insp: insp, known: known, log: log})
}

var (
	queueSizeDesc = prometheus.NewDesc("koda_queue_tasks", "Tasks in a queue, by state.",
		[]string{"queue", "state"}, nil)
	queueLatencyDesc = prometheus.NewDesc("koda_queue_latency_seconds",
		"How long the oldest pending task of a queue has waited.", []string{"queue"}, nil)
	queueProcessedDesc = prometheus.NewDesc("koda_queue_processed_total",
		"Tasks processed from a queue (successes and failures) since Redis kept stats.", []string{"queue"}, nil)
	queueFailedDesc = prometheus.NewDesc("koda_queue_failed_total",
		"Task attempts that failed in a queue since Redis kept stats.", []string{"queue"}, nil)
	queuePausedDesc = prometheus.NewDesc("koda_queue_paused", "1 when a queue is paused.", []string{"queue"}, nil)
	queueUpDesc     = prometheus.NewDesc("koda_queue_up", "1 when the queues could be read from Redis.", nil, nil)
)

// queueCollector is the part of asynq's x/metrics collector Koda needs, written on
// asynq.Inspector: the x module resolves to a build for go-redis v8 that panics here.
type queueCollector struct {
	insp  *asynq.Inspector
	known []string
	log   *slog.Logger
}

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	prometheus.DescribeByCollect(c, ch)
}

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	up := 1.0
	defer func() { ch <- prometheus.MustNewConstMetric(queueUpDesc, prometheus.GaugeValue, up) }()
	queues, err := c.insp.Queues()
	if err != nil {
		up = 0
		c.logf("read queues", err)
		return
	}
	inRedis := len(queues)
	for _, q := range c.known {
		if !slices.Contains(queues, q) {
			queues = append(queues, q)
		}
	}
	for i, q := range queues {
		// A queue Redis has not heard of yet has nothing in it.
		info, err := &asynq.QueueInfo{Queue: q}, error(nil)
		if i < inRedis {
			info, err = c.insp.GetQueueInfo(q)
		}
		if err != nil {
			up = 0
			c.logf("read queue "+q, err)
			continue
		}
		for state, n := range map[string]int{
			"pending": info.Pending, "active": info.Active, "scheduled": info.Scheduled, "retry": info.Retry,
			"archived": info.Archived, "completed": info.Completed, "aggregating": info.Aggregating,
		} {
			ch <- prometheus.MustNewConstMetric(queueSizeDesc, prometheus.GaugeValue, float64(n), q, state)
		}
		ch <- prometheus.MustNewConstMetric(queueLatencyDesc, prometheus.GaugeValue, info.Latency.Seconds(), q)
		ch <- prometheus.MustNewConstMetric(queueProcessedDesc, prometheus.CounterValue, float64(info.ProcessedTotal), q)
		ch <- prometheus.MustNewConstMetric(queueFailedDesc, prometheus.CounterValue, float64(info.FailedTotal), q)
		paused := 0.0
		if info.Paused {
			paused = 1
		}
		ch <- prometheus.MustNewConstMetric(queuePausedDesc, prometheus.GaugeValue, paused, q)
	}
}

func (c *queueCollector) logf(what string, err error) {
	if c.log != nil {
		c.log.LogAttrs(context.Background(), slog.LevelWarn, "metrics: "+what, slog.Any("err", err))
	}
}
