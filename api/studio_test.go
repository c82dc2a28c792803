package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/kodahq/koda"
)

type messageJSON struct {
	ID        string  `json:"id"`
	Text      string  `json:"text"`
	Status    string  `json:"status"`
	CreatedAt string  `json:"created_at"`
	AppliedAt *string `json:"applied_at"`
}

func (b *bundle) messages(who, id string) []messageJSON {
	b.t.Helper()
	r := b.do(who, "GET", "/v1/projects/"+id+"/messages", nil)
	if r.Status != 200 {
		b.t.Fatalf("list messages: %d %s", r.Status, r.Body)
	}
	var out struct{ Data []messageJSON }
	r.decode(b.t, &out)
	return out.Data
}

func (b *bundle) send(who, id, text string) messageJSON {
	b.t.Helper()
	r := b.do(who, "POST", "/v1/projects/"+id+"/messages", map[string]any{"text": text})
	if r.Status != http.StatusAccepted {
		b.t.Fatalf("send message: %d %s", r.Status, r.Body)
	}
	var m messageJSON
	r.decode(b.t, &m)
	return m
}

// eventTypes lists the types of a project's stored events, with the messages of the
// message.* events.
func (b *bundle) eventTypes(id string) (types []string, msgs []messageJSON) {
	b.t.Helper()
	evs, err := b.store.ListEvents(context.Background(), id, 0, 1000)
	if err != nil {
		b.t.Fatal(err)
	}
	for _, e := range evs {
		types = append(types, e.Type)
		if strings.HasPrefix(e.Type, "message.") {
			var m messageJSON
			if err := json.Unmarshal(e.Data, &m); err != nil {
				b.t.Fatal(err)
			}
			msgs = append(msgs, m)
		}
	}
	return types, msgs
}

func testPlan() *koda.Plan {
	return &koda.Plan{Title: "t", Style: koda.StyleSmooth, DurationS: 1,
		Scenes: []koda.Scene{{ID: "s1", Name: "s", StartS: 0, EndS: 1}}, Todos: []koda.Todo{{ID: "t1", Title: "x", Status: koda.TodoPending}}}
}

// A message sent while the plan is being made waits; when planning ends it is applied
// as feedback on that plan, which the planner revises before anyone approves it.
func TestMessageDuringPlanningRevisesThePlan(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	p := b.create("acme", map[string]any{"prompt": "a smooth blue ball glides", "style": "smooth", "duration_s": 1})
	m := b.send("acme", p.ID, "  make the ball red  ")
	if m.Status != "queued" || m.Text != "make the ball red" || m.AppliedAt != nil || !strings.HasPrefix(m.ID, "qmsg_") {
		t.Fatalf("queued message: %+v", m)
	}
	if ms := b.messages("acme", p.ID); len(ms) != 1 || ms[0].Status != "queued" {
		t.Fatalf("messages while planning: %+v", ms)
	}
	// Planning ends: the plan is revised with the message instead of waiting for approval.
	got, err := b.life.Planned(ctx, p.ID, 1, nil, testPlan())
	if err != nil {
		t.Fatal(err)
	}
	if got.Phase != koda.PhaseQuestion || got.Pending != "plan" || !slices.Equal(got.Feedback, []string{"make the ball red"}) {
		t.Fatalf("after planning: phase %s pending %q feedback %q", got.Phase, got.Pending, got.Feedback)
	}
	ms := b.messages("acme", p.ID)
	if len(ms) != 1 || ms[0].Status != "applied" || ms[0].AppliedAt == nil {
		t.Fatalf("messages after planning: %+v", ms)
	}
	types, evMsgs := b.eventTypes(p.ID)
	if !slices.Contains(types, koda.EventMessageQueued) || !slices.Contains(types, koda.EventMessageApplied) {
		t.Fatalf("events %v lack message.queued/message.applied", types)
	}
	if evMsgs[len(evMsgs)-1].Status != "applied" || evMsgs[0].ID != m.ID {
		t.Fatalf("message events: %+v", evMsgs)
	}
	// The revised plan then waits for approval as usual.
	if got, err = b.life.Planned(ctx, p.ID, got.Step, nil, testPlan()); err != nil || got.Phase != koda.PhasePlan || got.Pending != "" {
		t.Fatalf("revised plan: %v %v", got, err)
	}
	// A message to a plan waiting for approval needs no step to end: applied at once.
	m2 := b.send("acme", p.ID, "slower please")
	if m2.Status != "applied" {
		t.Fatalf("message to a waiting plan: %+v", m2)
	}
	got, _ = b.life.Get(ctx, p.ID)
	if got.Phase != koda.PhaseQuestion || got.Pending != "plan" || !slices.Equal(got.Feedback, []string{"slower please"}) {
		t.Fatalf("after message to a waiting plan: phase %s pending %q feedback %q", got.Phase, got.Pending, got.Feedback)
	}
}

// A message sent while the agent writes code waits through the preview render and
// then starts an iteration with it, as feedback on that preview would.
func TestMessageDuringExecutingIteratesAfterThePreview(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	p := b.create("acme", map[string]any{"prompt": "a smooth blue ball glides", "style": "smooth", "duration_s": 1})
	got, err := b.life.Planned(ctx, p.ID, 1, nil, testPlan())
	if err != nil {
		t.Fatal(err)
	}
	if got, err = b.life.ApprovePlan(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	m := b.send("acme", p.ID, "add a shadow")
	if m.Status != "queued" {
		t.Fatalf("message while executing: %+v", m)
	}
	if got, err = b.life.CodegenDone(ctx, p.ID, got.Step, nil, []koda.FileInfo{{Path: "index.html", SizeBytes: 10}}, ""); err != nil {
		t.Fatal(err)
	}
	if ms := b.messages("acme", p.ID); ms[0].Status != "queued" {
		t.Fatalf("message applied before the preview: %+v", ms)
	}
	rs, _ := b.store.ListRenders(ctx, koda.RenderFilter{ProjectID: p.ID})
	prev := rs[len(rs)-1]
	b.finish(prev.ID, nil)
	if got, err = b.life.PreviewRendered(ctx, p.ID, got.Step, prev.ID); err != nil {
		t.Fatal(err)
	}
	if got.Phase != koda.PhaseExecuting || got.Pending != "codegen" || !slices.Equal(got.Feedback, []string{"add a shadow"}) || got.Preview == nil {
		t.Fatalf("after the preview: phase %s pending %q feedback %q preview %v", got.Phase, got.Pending, got.Feedback, got.Preview)
	}
	if ms := b.messages("acme", p.ID); ms[0].Status != "applied" {
		t.Fatalf("message after the preview: %+v", ms)
	}
	types, _ := b.eventTypes(p.ID)
	i := slices.Index(types, koda.EventPreviewReady)
	if i < 0 || !slices.Contains(types[i:], koda.EventMessageApplied) {
		t.Fatalf("message.applied does not follow PREVIEW_READY: %v", types)
	}
}

func TestMessagesRefuseBadInputAndErrorPhase(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	p := b.create("acme", map[string]any{"prompt": "a smooth blue ball glides", "style": "smooth", "duration_s": 1})
	for _, body := range []any{
		map[string]any{"text": ""}, map[string]any{"text": "   "}, map[string]any{"text": strings.Repeat("é", 4001)},
		map[string]any{"text": "a\x00b"}, map[string]any{}, map[string]any{"text": "a", "content": "b"},
		map[string]any{"text": 5}, `{"text":"a","extra":1}`,
	} {
		if r := b.do("acme", "POST", "/v1/projects/"+p.ID+"/messages", body); r.Status != 400 {
			t.Errorf("message %v: %d %s, want 400", body, r.Status, r.Body)
		}
	}
	// 4000 characters of UTF-8 is the limit, not 4000 bytes; content is another name for text.
	if r := b.do("acme", "POST", "/v1/projects/"+p.ID+"/messages", map[string]any{"content": strings.Repeat("é", 4000)}); r.Status != 202 {
		t.Errorf("4000 characters: %d", r.Status)
	}
	for range koda.MaxQueuedMessages - 1 {
		b.send("acme", p.ID, "more")
	}
	if r := b.do("acme", "POST", "/v1/projects/"+p.ID+"/messages", map[string]any{"text": "one too many"}); r.Status != 429 || r.code() != koda.CodeLimitQueuedMessage {
		t.Errorf("past the queue limit: %d %s", r.Status, r.Body)
	}
	if _, err := b.life.Fail(ctx, p.ID, 1, koda.Errorf(koda.EUNPROCESSABLE, "X", "broken")); err != nil {
		t.Fatal(err)
	}
	if r := b.do("acme", "POST", "/v1/projects/"+p.ID+"/messages", map[string]any{"text": "hello"}); r.Status != 409 || r.code() != koda.CodePhaseConflict {
		t.Errorf("message in phase error: %d %s", r.Status, r.Body)
	}
	if r := b.do("acme", "POST", "/v1/projects/prj_nope/messages", map[string]any{"text": "hello"}); r.Status != 404 {
		t.Errorf("message to a missing project: %d %s", r.Status, r.Body)
	}
	// Idempotency-Key replays the first answer instead of queueing twice.
	q := b.create("acme", map[string]any{"prompt": "a smooth blue ball glides", "style": "smooth", "duration_s": 1})
	r1 := b.do("acme", "POST", "/v1/projects/"+q.ID+"/messages", map[string]any{"text": "once"}, "Idempotency-Key", "k1")
	r2 := b.do("acme", "POST", "/v1/projects/"+q.ID+"/messages", map[string]any{"text": "once"}, "Idempotency-Key", "k1")
	if r1.Status != 202 || r2.Status != 202 || string(r1.Body) != string(r2.Body) || len(b.messages("acme", q.ID)) != 1 {
		t.Errorf("idempotent message: %d %s / %d %s", r1.Status, r1.Body, r2.Status, r2.Body)
	}
}

type keyJSON struct {
	ID        string  `json:"id"`
	Prefix    string  `json:"prefix"`
	Name      string  `json:"name"`
	Key       string  `json:"key"`
	RevokedAt *string `json:"revoked_at"`
}

func TestTenantKeysCreateListRevoke(t *testing.T) {
	b := setup(t)
	r := b.do("acme", "POST", "/v1/keys", map[string]any{"name": "studio"})
	if r.Status != 201 {
		t.Fatalf("create key: %d %s", r.Status, r.Body)
	}
	var k keyJSON
	r.decode(t, &k)
	if !strings.HasPrefix(k.Key, "koda_") || !strings.HasPrefix(k.Key, k.Prefix) || k.Name != "studio" {
		t.Fatalf("created key: %+v", k)
	}
	b.keys["acme2"] = k.Key
	// The new key works, lists both keys of acme, never a secret, and nothing of globex.
	r = b.do("acme2", "GET", "/v1/keys", nil)
	var list struct{ Data []keyJSON }
	r.decode(t, &list)
	if r.Status != 200 || len(list.Data) != 2 || strings.Contains(string(r.Body), k.Key) || strings.Contains(string(r.Body), `"key"`) {
		t.Fatalf("list keys: %d %s", r.Status, r.Body)
	}
	globex := b.do("globex", "GET", "/v1/keys", nil)
	var gl struct{ Data []keyJSON }
	globex.decode(t, &gl)
	if len(gl.Data) != 1 || gl.Data[0].ID == k.ID {
		t.Fatalf("globex's keys: %s", globex.Body)
	}
	// Another tenant's key is not found.
	if r := b.do("globex", "POST", "/v1/keys/"+k.ID+"/revoke", nil); r.Status != 404 {
		t.Errorf("globex revokes acme's key: %d %s", r.Status, r.Body)
	}
	// acme's first key revokes the new one; the new one then gets 401.
	if r := b.do("acme", "POST", "/v1/keys/"+k.ID+"/revoke", nil); r.Status != 200 || !strings.Contains(string(r.Body), `"revoked_at":"`) {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := b.do("acme2", "GET", "/v1/keys", nil); r.Status != 401 || r.code() != koda.CodeUnauthorized {
		t.Errorf("revoked key: %d %s, want 401", r.Status, r.Body)
	}
	// The first key is now acme's only active key: it may not revoke itself.
	var first string
	for _, kk := range list.Data {
		if kk.ID != k.ID {
			first = kk.ID
		}
	}
	if r := b.do("acme", "POST", "/v1/keys/"+first+"/revoke", nil); r.Status != 409 || r.code() != "LAST_ACTIVE_KEY" {
		t.Errorf("last key revokes itself: %d %s, want 409", r.Status, r.Body)
	}
	if r := b.do("acme", "GET", "/v1/keys", nil); r.Status != 200 {
		t.Errorf("after the refused self-revocation: %d", r.Status)
	}
	// With another active key, a key may revoke itself.
	r = b.do("acme", "POST", "/v1/keys", map[string]any{"name": "spare"})
	r.decode(t, &k)
	if r := b.do("acme", "POST", "/v1/keys/"+first+"/revoke", nil); r.Status != 200 {
		t.Errorf("self-revocation with a spare key: %d %s", r.Status, r.Body)
	}
	if r := b.do("acme", "GET", "/v1/keys", nil); r.Status != 401 {
		t.Errorf("self-revoked key: %d", r.Status)
	}
}

// A message sent while the style question waits for its answer goes to the planner
// with the answer; one sent to a preview waiting for approval iterates at once.
func TestMessageWithTheAnswerAndAtAWaitingPreview(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	p := b.create("acme", map[string]any{"prompt": "a ball moves", "duration_s": 1})
	q := &koda.Question{ID: "style", Text: "Which style?", Options: []koda.QuestionOption{{ID: "smooth", Label: "Smooth"}, {ID: "playful", Label: "Playful"}}}
	if _, err := b.life.Ask(ctx, p.ID, 1, &koda.Analysis{Question: q}); err != nil {
		t.Fatal(err)
	}
	if m := b.send("acme", p.ID, "three balls, not one"); m.Status != "queued" {
		t.Fatalf("message while the question waits: %+v", m)
	}
	r := b.do("acme", "POST", "/v1/projects/"+p.ID+"/answer", map[string]any{"option_id": "smooth"})
	if r.Status != 202 {
		t.Fatalf("answer: %d %s", r.Status, r.Body)
	}
	got, _ := b.life.Get(ctx, p.ID)
	if got.Phase != koda.PhasePlan || got.Pending != "plan" || !slices.Equal(got.Feedback, []string{"three balls, not one"}) {
		t.Fatalf("after the answer: phase %s pending %q feedback %q", got.Phase, got.Pending, got.Feedback)
	}
	if ms := b.messages("acme", p.ID); ms[0].Status != "applied" {
		t.Fatalf("message after the answer: %+v", ms)
	}
	// Drive it to a preview waiting for approval.
	if got, err := b.life.Planned(ctx, p.ID, got.Step, nil, testPlan()); err != nil || got.Phase != koda.PhasePlan {
		t.Fatalf("plan: %v %v", got, err)
	}
	got, err := b.life.ApprovePlan(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = b.life.CodegenDone(ctx, p.ID, got.Step, nil, nil, ""); err != nil {
		t.Fatal(err)
	}
	rs, _ := b.store.ListRenders(ctx, koda.RenderFilter{ProjectID: p.ID})
	b.finish(rs[len(rs)-1].ID, nil)
	if got, err = b.life.PreviewRendered(ctx, p.ID, got.Step, rs[len(rs)-1].ID); err != nil || got.Phase != koda.PhasePreview {
		t.Fatalf("preview: %v %v", got, err)
	}
	if m := b.send("acme", p.ID, "bigger"); m.Status != "applied" || m.AppliedAt == nil {
		t.Fatalf("message to a waiting preview: %+v", m)
	}
	got, _ = b.life.Get(ctx, p.ID)
	if got.Phase != koda.PhaseExecuting || got.Pending != "codegen" || !slices.Equal(got.Feedback, []string{"bigger"}) {
		t.Fatalf("after the message: phase %s pending %q feedback %q", got.Phase, got.Pending, got.Feedback)
	}
}

// TestTenantKeysCapAndPages: past the cap of active keys POST /v1/keys answers 409
// LIMIT_API_KEYS, a revocation makes room, and GET /v1/keys pages with limit and
// cursor through the tenant's keys only.
func TestTenantKeysCapAndPages(t *testing.T) {
	b := setup(t)
	b.tenants.MaxKeys = 4 // acme has one key from setup
	var made []string
	for i := range 3 {
		r := b.do("acme", "POST", "/v1/keys", map[string]any{"name": fmt.Sprint("k", i)})
		var k keyJSON
		r.decode(t, &k)
		if r.Status != 201 {
			t.Fatalf("key %d under the cap: %d %s", i, r.Status, r.Body)
		}
		made = append(made, k.ID)
	}
	r := b.do("acme", "POST", "/v1/keys", map[string]any{"name": "one too many"})
	if r.Status != 409 || r.code() != koda.CodeLimitAPIKeys || !strings.Contains(string(r.Body), `"message":"`) {
		t.Fatalf("a fifth active key: %d %s, want 409 %s", r.Status, r.Body, koda.CodeLimitAPIKeys)
	}
	// The admin API is held to the same cap.
	if r := b.do("admin", "POST", "/admin/tenants/acme/keys", map[string]any{"name": "admin"}); r.Status != 409 || r.code() != koda.CodeLimitAPIKeys {
		t.Fatalf("a fifth key through the admin API: %d %s", r.Status, r.Body)
	}
	// globex is not held back by acme's keys.
	if r := b.do("globex", "POST", "/v1/keys", map[string]any{"name": "g"}); r.Status != 201 {
		t.Fatalf("globex's second key: %d %s", r.Status, r.Body)
	}
	if r := b.do("acme", "POST", "/v1/keys/"+made[0]+"/revoke", nil); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := b.do("acme", "POST", "/v1/keys", map[string]any{"name": "after a revocation"}); r.Status != 201 {
		t.Fatalf("a key after revoking one: %d %s", r.Status, r.Body)
	}

	type page struct {
		Data       []keyJSON `json:"data"`
		NextCursor string    `json:"next_cursor"`
	}
	walk := func(who string) []keyJSON {
		var all []keyJSON
		cursor := ""
		for range 10 {
			r := b.do(who, "GET", "/v1/keys?limit=2&cursor="+cursor, nil)
			var p page
			r.decode(t, &p)
			if r.Status != 200 || len(p.Data) > 2 {
				t.Fatalf("%s's page after %q: %d %s", who, cursor, r.Status, r.Body)
			}
			all = append(all, p.Data...)
			if p.NextCursor == "" {
				return all
			}
			cursor = p.NextCursor
		}
		t.Fatalf("%s's keys never end", who)
		return nil
	}
	acme := walk("acme")
	if len(acme) != 5 { // setup's, three made (one revoked), one after the revocation
		t.Fatalf("acme's keys in pages: %d, want 5: %+v", len(acme), acme)
	}
	seen := map[string]bool{}
	for i, k := range acme {
		if seen[k.ID] || (i > 0 && k.ID <= acme[i-1].ID) {
			t.Fatalf("acme's pages repeat or disorder keys: %+v", acme)
		}
		seen[k.ID] = true
	}
	for _, k := range walk("globex") {
		if seen[k.ID] {
			t.Fatalf("globex sees acme's key %s", k.ID)
		}
	}
	// acme's cursor in globex's hands lists globex's keys only.
	r = b.do("globex", "GET", "/v1/keys?cursor="+acme[0].ID, nil)
	var gp page
	r.decode(t, &gp)
	for _, k := range gp.Data {
		if seen[k.ID] {
			t.Fatalf("globex with acme's cursor sees acme's key %s", k.ID)
		}
	}
	for _, bad := range []string{"0", "201", "x"} {
		if r := b.do("acme", "GET", "/v1/keys?limit="+bad, nil); r.Status != 400 || r.code() != koda.CodeInvalidRequest {
			t.Errorf("limit=%s: %d %s, want 400", bad, r.Status, r.Body)
		}
	}
}
