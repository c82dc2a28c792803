package api

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// Handlers of project listing and deletion, batches, webhook deliveries and secrets,
// and usage.

type projectSummaryView struct {
	ID        string            `json:"id"`
	Phase     koda.Phase        `json:"phase"`
	Prompt    string            `json:"prompt"`
	Style     koda.Style        `json:"style,omitempty"`
	DurationS float64           `json:"duration_s,omitempty"`
	Error     *koda.Failure     `json:"error"`
	Links     map[string]string `json:"links"`
	CreatedAt time.Time         `json:"created_at"`
	UpdatedAt time.Time         `json:"updated_at"`
}

func viewProjectSummary(p *koda.Project) projectSummaryView {
	return projectSummaryView{ID: p.ID, Phase: p.Phase, Prompt: p.Prompt, Style: p.Style, DurationS: p.DurationS,
		Error: p.Error, Links: map[string]string{"self": "/v1/projects/" + p.ID}, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

func queryLimit(c *fiber.Ctx) (int, error) {
	v := c.Query("limit")
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 200 {
		return 0, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "limit must be an integer between 1 and 200")
	}
	return n, nil
}

func (s *Server) listProjects(c *fiber.Ctx) error {
	q := koda.ProjectQuery{Cursor: c.Query("cursor"), Phase: koda.Phase(c.Query("phase"))}
	if q.Phase != "" && !q.Phase.Valid() {
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "phase %q is not a phase", q.Phase)
	}
	if v := c.Query("created_after"); v != "" {
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "created_after must be an RFC 3339 time")
		}
		q.CreatedAfter = t
	}
	var err error
	if q.Limit, err = queryLimit(c); err != nil {
		return err
	}
	ps, next, err := s.Projects.List(c.UserContext(), q)
	if err != nil {
		return err
	}
	out := make([]projectSummaryView, 0, len(ps))
	for _, p := range ps {
		out = append(out, viewProjectSummary(p))
	}
	return c.JSON(fiber.Map{"projects": out, "next_cursor": next})
}

func (s *Server) deleteProject(c *fiber.Ctx) error {
	if err := s.Projects.Delete(c.UserContext(), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

type batchFilter struct {
	Phase        string `json:"phase"`
	CreatedAfter string `json:"created_after"`
}

type createBatchRequest struct {
	ProjectIDs  []string          `json:"project_ids"`
	Filter      *batchFilter      `json:"filter"`
	Presets     []json.RawMessage `json:"presets"`
	CallbackURL string            `json:"callback_url"`
}

func (r *createBatchRequest) toBatchRequest() (koda.BatchRequest, error) {
	var out koda.BatchRequest
	if len(r.ProjectIDs) > 0 && r.Filter != nil {
		return out, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "give project_ids or filter, not both")
	}
	if len(r.ProjectIDs) == 0 && r.Filter == nil {
		return out, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "give project_ids or filter")
	}
	presets, err := parsePresets(r.Presets)
	if err != nil {
		return out, err
	}
	out.Presets, out.ProjectIDs, out.CallbackURL = presets, r.ProjectIDs, strings.TrimSpace(r.CallbackURL)
	for i, id := range r.ProjectIDs {
		if id == "" || len(id) > 64 {
			return out, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "project_ids[%d] is not a project id", i)
		}
	}
	if f := r.Filter; f != nil {
		out.Phase = koda.Phase(f.Phase)
		if out.Phase != "" && !out.Phase.Valid() {
			return out, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "filter.phase %q is not a phase", f.Phase)
		}
		if f.CreatedAfter != "" {
			t, err := time.Parse(time.RFC3339Nano, f.CreatedAfter)
			if err != nil {
				return out, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "filter.created_after must be an RFC 3339 time")
			}
			out.CreatedAfter = t
		}
	}
	return out, nil
}

func (s *Server) createBatch(c *fiber.Ctx) error {
	var req createBatchRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	br, err := req.toBatchRequest()
	if err != nil {
		return err
	}
	b, err := s.Projects.CreateBatch(c.UserContext(), br)
	if err != nil {
		return err
	}
	b, rs, err := s.Projects.GetBatch(c.UserContext(), b.ID)
	if err != nil {
		return err
	}
	c.Location("/v1/batches/" + b.ID)
	v, err := s.viewBatch(b, rs, nil)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(v)
}

func (s *Server) cancelBatch(c *fiber.Ctx) error {
	if err := decode(c.Body(), &struct{}{}, true); err != nil {
		return err
	}
	if err := s.Projects.CancelBatch(c.UserContext(), c.Params("id")); err != nil {
		return err
	}
	b, rs, err := s.Projects.GetBatch(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	v, err := s.viewBatch(b, rs, nil)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

func (s *Server) retryRender(c *fiber.Ctx) error {
	if err := decode(c.Body(), &struct{}{}, true); err != nil {
		return err
	}
	r, err := s.Projects.RetryRender(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	v, err := s.viewRender(r)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(v)
}

type deliveryView struct {
	ID          string              `json:"id"`
	ProjectID   string              `json:"project_id,omitempty"`
	URL         string              `json:"url"`
	EventType   string              `json:"event_type"`
	Status      koda.DeliveryStatus `json:"status"`
	Attempts    int                 `json:"attempts"`
	LastError   string              `json:"last_error,omitempty"`
	Payload     json.RawMessage     `json:"payload"`
	CreatedAt   time.Time           `json:"created_at"`
	DeliveredAt *time.Time          `json:"delivered_at"`
	History     []attemptView       `json:"attempt_history,omitempty"`
}

type attemptView struct {
	Attempt    int       `json:"attempt"`
	StatusCode int       `json:"status_code"`
	Error      string    `json:"error,omitempty"`
	DurationMS int64     `json:"duration_ms"`
	At         time.Time `json:"at"`
}

func viewDelivery(d *koda.WebhookDelivery, as []*koda.WebhookAttempt) deliveryView {
	v := deliveryView{ID: d.ID, ProjectID: d.ProjectID, URL: d.URL, EventType: d.EventType, Status: d.Status,
		Attempts: d.Attempts, LastError: d.LastError, Payload: json.RawMessage(d.Payload),
		CreatedAt: d.CreatedAt, DeliveredAt: d.DeliveredAt}
	if !json.Valid(v.Payload) {
		v.Payload = json.RawMessage("null")
	}
	for _, a := range as {
		v.History = append(v.History, attemptView{Attempt: a.Attempt, StatusCode: a.StatusCode, Error: a.Error,
			DurationMS: a.DurationMS, At: a.At})
	}
	return v
}

func (s *Server) listDeliveries(c *fiber.Ctx) error {
	q := koda.DeliveryQuery{ProjectID: c.Query("project_id"), Status: koda.DeliveryStatus(c.Query("status")), Cursor: c.Query("cursor")}
	switch q.Status {
	case "", koda.DeliveryPending, koda.DeliveryDelivered, koda.DeliveryFailed:
	default:
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "status must be pending, delivered or failed")
	}
	var err error
	if q.Limit, err = queryLimit(c); err != nil {
		return err
	}
	ds, next, err := s.Projects.ListDeliveries(c.UserContext(), q)
	if err != nil {
		return err
	}
	out := make([]deliveryView, 0, len(ds))
	for _, d := range ds {
		out = append(out, viewDelivery(d, nil))
	}
	return c.JSON(fiber.Map{"deliveries": out, "next_cursor": next})
}

func (s *Server) getDelivery(c *fiber.Ctx) error {
	d, as, err := s.Projects.GetDelivery(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(viewDelivery(d, as))
}

func (s *Server) redeliver(c *fiber.Ctx) error {
	if err := decode(c.Body(), &struct{}{}, true); err != nil {
		return err
	}
	d, err := s.Projects.Redeliver(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(viewDelivery(d, nil))
}

type secretView struct {
	Secret            string     `json:"secret"`
	PreviousExpiresAt *time.Time `json:"previous_expires_at"`
}

func (s *Server) getWebhookSecret(c *fiber.Ctx) error {
	if s.Tenants == nil {
		return koda.NotFound("route", c.Path())
	}
	t, secret, err := s.Tenants.CurrentSecret(c.UserContext(), koda.TenantFromContext(c.UserContext()))
	if err != nil {
		return err
	}
	revealsSecret(c, secret)
	v := secretView{Secret: secret}
	if t.PreviousSecret != "" && t.PreviousExpiresAt != nil && time.Now().Before(*t.PreviousExpiresAt) {
		v.PreviousExpiresAt = t.PreviousExpiresAt
	}
	return c.JSON(v)
}

type rotateRequest struct {
	// GraceS is how long the previous secret keeps signing; default one day.
	GraceS *float64 `json:"grace_s"`
}

func (r *rotateRequest) grace() (time.Duration, error) {
	if r.GraceS == nil {
		return 24 * time.Hour, nil
	}
	if *r.GraceS < 0 || *r.GraceS > 30*24*3600 {
		return 0, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "grace_s must be between 0 and 2592000 (30 days)")
	}
	return time.Duration(*r.GraceS * float64(time.Second)), nil
}

func (s *Server) rotateWebhookSecret(c *fiber.Ctx) error {
	if s.Tenants == nil || s.NewSecret == nil {
		return koda.NotFound("route", c.Path())
	}
	var req rotateRequest
	if err := decode(c.Body(), &req, true); err != nil {
		return err
	}
	grace, err := req.grace()
	if err != nil {
		return err
	}
	t, err := s.Tenants.RotateSecret(c.UserContext(), koda.TenantFromContext(c.UserContext()), grace, s.NewSecret)
	if err != nil {
		return err
	}
	revealsSecret(c, t.WebhookSecret)
	return c.JSON(secretView{Secret: t.WebhookSecret, PreviousExpiresAt: t.PreviousExpiresAt})
}

type usageTotalsView struct {
	Renders       int     `json:"renders"`
	Frames        int     `json:"frames"`
	DurationS     float64 `json:"duration_s"`
	RenderSeconds float64 `json:"render_seconds"`
}

func viewTotals(t koda.UsageTotals) usageTotalsView {
	return usageTotalsView{Renders: t.Renders, Frames: t.Frames, DurationS: t.DurationS, RenderSeconds: t.RenderSeconds}
}

type usageHourView struct {
	Hour time.Time       `json:"hour"`
	Kind koda.RenderKind `json:"kind"`
	usageTotalsView
}

// usagePeriodView is the period asked for: totals by kind and the hours with usage.
type usagePeriodView struct {
	From    time.Time       `json:"from"`
	To      time.Time       `json:"to"`
	Final   usageTotalsView `json:"final"`
	Preview usageTotalsView `json:"preview"`
	Hours   []usageHourView `json:"hours"`
}

func viewPeriod(u *koda.Usage) usagePeriodView {
	v := usagePeriodView{From: u.Period.From, To: u.Period.To, Hours: make([]usageHourView, 0, len(u.Hours))}
	var final, preview koda.UsageTotals
	for _, h := range u.Hours {
		switch h.Kind {
		case koda.RenderFinal:
			final.Add(h.UsageTotals)
		case koda.RenderPreview:
			preview.Add(h.UsageTotals)
		}
		v.Hours = append(v.Hours, usageHourView{Hour: h.Hour, Kind: h.Kind, usageTotalsView: viewTotals(h.UsageTotals)})
	}
	v.Final, v.Preview = viewTotals(final), viewTotals(preview)
	return v
}

// usageTime parses the from or to query parameter: an RFC 3339 time or a date (its
// midnight UTC). Whether it is a whole hour is koda.UsageQuery.Resolve's to say.
func usageTime(c *fiber.Ctx, name string) (time.Time, error) {
	v := c.Query(name)
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	return time.Time{}, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
		"%s must be an RFC 3339 time on a whole hour (2026-01-02T15:00:00Z) or a date (2026-01-02)", name)
}

// usage: GET /v1/usage?from=&to= → today's and this month's use beside the limits,
// and the period [from, to) by the hour (default: this month so far).
func (s *Server) usage(c *fiber.Ctx) error {
	var q koda.UsageQuery
	var err error
	if q.From, err = usageTime(c, "from"); err != nil {
		return err
	}
	if q.To, err = usageTime(c, "to"); err != nil {
		return err
	}
	u, err := s.Projects.Usage(c.UserContext(), q)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{
		"tenant_id":          u.TenantID,
		"limits":             u.Limits,
		"projects_in_flight": u.ProjectsInFlight,
		"renders_today":      u.RendersToday,
		"today":              fiber.Map{"since": u.DayStart, "finished": viewTotals(u.Today)},
		"month":              fiber.Map{"since": u.MonthStart, "finished": viewTotals(u.Month)},
		"period":             viewPeriod(u),
	})
}
