// The project page: the whole life of one project, kept current by its event stream.
// Each section rebuilds only when its own part of the project changes, so a reply being
// typed or the live preview playing is not disturbed by unrelated events.

import { api, streamEvents } from './api.js';
import { h, replace, card, phaseBadge, presetChips, fmtBytes, fmtTime, fmtSeconds, toast, busy } from './dom.js';

const STEPS = [
  ['idle', 'Submitted'], ['question', 'Question'], ['plan', 'Plan'],
  ['executing', 'Building'], ['preview', 'Preview'], ['complete', 'Finals'],
];

let presetCache;
function loadPresets() {
  presetCache ||= api('GET', '/v1/presets').then((r) => r.presets).catch((err) => { presetCache = null; throw err; });
  return presetCache;
}

export function showProject(main, id) {
  let p = null;
  let messages = null; // null: the API has no message queue
  let closed = false;
  let streamState = 'connecting';
  const boxes = {};
  for (const name of ['head', 'steps', 'status', 'error', 'question', 'plan', 'preview', 'finals', 'rerender', 'template',
    'live', 'work', 'messages', 'activity']) {
    boxes[name] = h('div', { class: `box box-${name}`, id: `box-${name}` });
  }
  replace(main, h('div', { class: 'page project', 'data-project': id },
    boxes.head, boxes.steps,
    h('div', { class: 'grid' },
      h('div', { class: 'col-main' }, boxes.status, boxes.error, boxes.question, boxes.preview, boxes.finals, boxes.rerender, boxes.template, boxes.work, boxes.plan),
      h('div', { class: 'col-side' }, boxes.live, boxes.messages, boxes.activity))));

  const live = liveSection(boxes.live, id);
  const activity = activitySection(boxes.activity);
  const sections = [
    section(boxes.head, (q) => [q.phase, q.style, q.duration_s].join('|'), headView),
    section(boxes.steps, (q) => q.phase, stepsView),
    section(boxes.status, (q) => [q.phase, !!q.plan, !!(q.question && q.question.answer)].join('|'), statusView),
    section(boxes.error, (q) => (q.phase === 'error' ? JSON.stringify(q.error) : ''), errorView),
    section(boxes.question, (q) => (q.phase === 'question' && q.question && !q.question.answer ? q.question.id : ''), questionView),
    section(boxes.plan, (q) => (q.plan ? `${q.phase === 'plan'}|${q.plan.revision}|${q.plan.title}` : ''), planView),
    section(boxes.preview, (q) => (q.preview ? `${q.phase}|${q.preview.render_id}` : ''), previewView),
    section(boxes.finals, (q) => JSON.stringify(q.renders.filter((r) => r.kind === 'final').map((r) => [r.id, r.status, r.progress.percent, r.video_url ? 1 : 0])), finalsView),
    section(boxes.rerender, (q) => (q.phase === 'complete' ? 'on' : ''), rerenderView),
    section(boxes.template, (q) => (q.phase === 'complete' ? 'on' : ''), templateView),
    section(boxes.work, (q) => JSON.stringify([q.execution.todos, q.execution.thinking, q.execution.files]), workView),
    section(boxes.messages, (q) => JSON.stringify([q.phase, q.execution.messages, messages]), messagesView),
  ];

  let refreshTimer;
  let refreshing = false;
  let again = false;
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      const [proj, msgs] = await Promise.all([
        api('GET', `/v1/projects/${id}`),
        messages === undefined ? Promise.resolve(undefined) : api('GET', `/v1/projects/${id}/messages`).then((r) => r.data || [], (err) => {
          if (err.status === 404 || err.status === 405) return undefined; // no message queue on this server
          throw err;
        }),
      ]);
      if (closed) return;
      p = proj;
      if (msgs === undefined) messages = undefined;
      else messages = msgs;
      for (const s of sections) s(p);
      live.update(p);
    } catch (err) {
      if (!closed) toast(err.message, 'error');
    } finally {
      refreshing = false;
      if (again && !closed) { again = false; schedule(0); }
    }
  }
  function schedule(ms = 200) {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(refresh, ms);
  }
  const act = (path, body) => async (button) => {
    const out = await busy(button, () => api('POST', `/v1/projects/${id}${path}`, body && body()));
    if (out) schedule(0);
    return out;
  };

  const stream = streamEvents(id, {
    onEvent(e) {
      activity.add(e);
      if (e.type === 'FILE_WRITTEN') live.filesChanged();
      if (e.type === 'RENDER_PROGRESS') progress(e.data);
      schedule();
    },
    onStatus(s) {
      streamState = s;
      const dot = document.getElementById('stream-status');
      if (dot) { dot.dataset.state = s; dot.textContent = streamLabel(s); }
    },
  });
  refresh();

  // Section views. Each returns the nodes of its box, or null to hide it.

  function headView(q) {
    return h('div', { class: 'page-head project-head' },
      h('div', {},
        h('a', { class: 'back', href: '#/', text: '← Projects' }),
        h('h1', { class: 'prompt-title', text: q.prompt }),
        h('div', { class: 'meta' },
          phaseBadge(q.phase),
          h('span', { class: 'mono', text: q.id }),
          q.style ? h('span', { text: `style ${q.style}` }) : null,
          q.duration_s ? h('span', { text: fmtSeconds(q.duration_s) }) : null,
          h('span', { text: fmtTime(q.created_at) }),
          h('span', { class: 'stream', id: 'stream-status', 'data-state': streamState, text: streamLabel(streamState) }))),
      h('button', { class: 'btn ghost danger', text: 'Delete', onclick: async (e) => {
        if (!confirm('Delete this project, its files and its videos?')) return;
        const b = e.currentTarget;
        const ok = await busy(b, () => api('DELETE', `/v1/projects/${id}`).then(() => true));
        if (ok) location.hash = '#/';
      } }));
  }

  function stepsView(q) {
    const at = STEPS.findIndex(([s]) => s === q.phase);
    return h('ol', { class: 'steps' }, STEPS.map(([s, label], i) => h('li', {
      class: i < at || (q.phase === 'complete' && i === at) ? 'done' : i === at ? 'current' : q.phase === 'error' ? 'halted' : '',
    }, h('span', { class: 'dot', text: i < at || (q.phase === 'complete' && i === at) ? '✓' : String(i + 1) }), label)));
  }

  function statusView(q) {
    const waiting = {
      idle: 'Koda is reading your description…',
      question: q.question && q.question.answer ? 'Koda is revising the plan…' : null,
      plan: q.plan ? null : 'Koda is planning the scenes…',
      executing: 'Koda is building the animation. The live preview shows it as it is written.',
    }[q.phase];
    if (!waiting) return null;
    return h('div', { class: 'status-line' }, h('span', { class: 'spinner' }), waiting);
  }

  function errorView(q) {
    if (q.phase !== 'error') return null;
    const e = q.error || {};
    return card('Something went wrong', { class: 'card error-card', id: 'error' },
      h('p', {}, h('strong', { class: 'mono', text: e.code || 'ERROR' }), ' ', e.message || ''),
      h('p', { class: 'muted', text: 'Retrying resumes from the last checkpoint.' }),
      h('div', { class: 'actions' }, h('button', { class: 'btn primary', id: 'retry', text: 'Retry',
        onclick: (ev) => act('/retry')(ev.currentTarget) })));
  }

  function questionView(q) {
    const question = q.phase === 'question' && q.question;
    if (!question || question.answer) return null;
    const free = h('textarea', { id: 'answer-text', rows: 3, placeholder: 'Describe the style you want', hidden: true });
    const opts = question.options.map((o) => h('label', { class: 'option', 'data-option': o.id },
      h('input', { type: 'radio', name: 'answer', value: o.id, onchange: () => {
        free.hidden = !o.free_text;
        if (o.free_text) free.focus();
      } }),
      h('span', {}, h('strong', { text: o.label }), o.description ? h('small', { text: o.description }) : null)));
    const submit = h('button', { class: 'btn primary', id: 'answer', type: 'submit', text: 'Answer' });
    return card('One question before planning', { id: 'question' },
      h('form', { onsubmit: async (e) => {
        e.preventDefault();
        const chosen = e.currentTarget.querySelector('input[name=answer]:checked');
        if (!chosen) return toast('Pick one of the options.', 'error');
        const body = { option_id: chosen.value };
        if (!free.hidden && free.value.trim()) body.text = free.value.trim();
        await act('/answer', () => body)(submit);
      } },
      h('p', { class: 'question-text', text: question.text }),
      h('div', { class: 'options' }, opts), free,
      h('div', { class: 'actions' }, submit)));
  }

  function planView(q) {
    const plan = q.plan;
    if (!plan) return null;
    const total = plan.duration_s || Math.max(...plan.scenes.map((s) => s.end_s), 1);
    const timeline = h('div', { class: 'timeline', 'aria-hidden': 'true' }, plan.scenes.map((s, i) => h('div', {
      class: `seg seg-${i % 6}`, title: s.name,
      style: { left: `${(100 * s.start_s) / total}%`, width: `${(100 * (s.end_s - s.start_s)) / total}%` },
    }, h('span', { text: s.name }))));
    const scenes = plan.scenes.map((s, i) => h('li', { class: 'scene' },
      h('div', { class: 'scene-head' },
        h('span', { class: `scene-num seg-${i % 6}`, text: String(i + 1) }),
        h('strong', { text: s.name }),
        h('span', { class: 'mono muted', text: `${s.start_s.toFixed(1)}–${s.end_s.toFixed(1)} s` }),
        s.easing ? h('span', { class: 'easing mono', text: s.easing }) : null),
      h('p', { class: 'scene-desc', text: s.description }),
      h('div', { class: 'motion' }, [['In', s.entry], ['Hold', s.hold], ['Out', s.exit]].filter(([, v]) => v)
        .map(([k, v]) => h('div', {}, h('div', { class: 'label', text: k }), h('p', { text: v }))))));
    const deciding = q.phase === 'plan';
    const fb = h('textarea', { id: 'plan-feedback', rows: 2, placeholder: 'What should change? e.g. “make the intro shorter”' });
    return card(null, { id: 'plan' },
      h('div', { class: 'card-head' },
        h('h2', { class: 'card-title', text: plan.title || 'Plan' }),
        h('div', { class: 'meta' },
          h('span', { text: plan.style }), h('span', { text: fmtSeconds(plan.duration_s) }),
          h('span', { text: `${plan.scenes.length} scene${plan.scenes.length === 1 ? '' : 's'}` }),
          plan.revision > 1 ? h('span', { text: `revision ${plan.revision}` }) : null)),
      plan.feedback ? h('p', { class: 'muted small' }, 'Revised after: “', plan.feedback, '”') : null,
      timeline,
      h('details', { class: 'scenes-wrap', open: deciding },
        h('summary', { text: deciding ? 'Scenes' : `Scenes (${plan.scenes.length})` }),
        h('ol', { class: 'scenes' }, scenes)),
      deciding ? h('div', { class: 'decide' },
        h('button', { class: 'btn primary', id: 'approve-plan', text: 'Approve plan', onclick: (e) => act('/plan/approve')(e.currentTarget) }),
        h('div', { class: 'reject' }, fb,
          h('button', { class: 'btn', id: 'reject-plan', text: 'Reject with feedback', onclick: async (e) => {
            if (!fb.value.trim()) return toast('Say what should change.', 'error');
            await act('/plan/reject', () => ({ feedback: fb.value.trim() }))(e.currentTarget);
          } }))) : null);
  }

  function previewView(q) {
    const pv = q.preview;
    if (!pv) return null;
    const deciding = q.phase === 'preview';
    const chips = h('div', { class: 'chips', id: 'approve-presets' });
    if (deciding) {
      loadPresets().then((list) => replace(chips, presetChips(list, q.presets.map((x) => x.name))), () => {});
    }
    const fb = h('textarea', { id: 'preview-feedback', rows: 2, placeholder: 'What should change? e.g. “the ball should be blue”' });
    return card(deciding ? 'Preview: does this look right?' : 'Latest preview', { id: 'preview', 'data-render': pv.render_id },
      h('video', { class: 'video', id: 'preview-video', src: pv.video_url, poster: pv.thumbnail_url || null, controls: true, muted: true, loop: true, playsinline: true, preload: 'metadata' }),
      deciding ? h('div', { class: 'decide-col' },
        h('div', { class: 'label', text: 'Render the finals in' }), chips,
        h('div', { class: 'decide-row' },
          fb,
          h('button', { class: 'btn', id: 'send-feedback', text: 'Send feedback', onclick: async (e) => {
            if (!fb.value.trim()) return toast('Say what should change.', 'error');
            await act('/feedback', () => ({ message: fb.value.trim() }))(e.currentTarget);
          } }),
          h('button', { class: 'btn primary', id: 'approve-preview', text: 'Approve and render', onclick: (e) => {
            const presets = [...chips.querySelectorAll('input:checked')].map((i) => i.value);
            return act('/preview/approve', () => (presets.length ? { presets } : {}))(e.currentTarget);
          } }))) : null);
  }

  function finalsView(q) {
    const finals = q.renders.filter((r) => r.kind === 'final');
    if (!finals.length) return null;
    return card('Final videos', { id: 'finals' }, h('ul', { class: 'renders' }, finals.map(renderRow)));
  }

  function renderRow(r) {
    const pct = r.status === 'succeeded' ? 100 : Math.round(r.progress.percent || 0);
    const preset = r.preset;
    return h('li', { class: `render status-${r.status}`, 'data-render': r.id },
      h('div', { class: 'render-head' },
        h('strong', { text: preset.name === 'custom' ? 'custom' : preset.name }),
        h('span', { class: 'muted', text: `${preset.width}×${preset.height} · ${preset.fps} fps · ${preset.format}` }),
        h('span', { class: `badge render-${r.status}`, text: r.status })),
      h('div', { class: 'bar', role: 'progressbar', 'aria-valuenow': pct, 'aria-valuemin': 0, 'aria-valuemax': 100 },
        h('span', { style: { width: `${pct}%` } })),
      h('div', { class: 'render-foot' },
        h('span', { class: 'muted stage', text: r.status === 'succeeded' ? `${fmtBytes(r.size_bytes)} · rendered in ${(r.render_ms / 1000).toFixed(1)} s`
          : r.error ? r.error.message : `${r.progress.stage || 'queued'} ${pct}%` }),
        r.video_url ? h('a', { class: 'btn small primary download', href: r.video_url,
          download: `koda-${id}-${preset.name}.${preset.format}`, text: 'Download' }) : null,
        r.status === 'failed' ? h('button', { class: 'btn small', text: 'Retry render', onclick: (e) =>
          busy(e.currentTarget, () => api('POST', `/v1/renders/${r.id}/retry`)).then(() => schedule(0)) }) : null));
  }
  function progress(d) {
    if (!d || !d.render_id) return;
    const li = boxes.finals.querySelector(`[data-render="${CSS.escape(d.render_id)}"]`);
    if (!li) return;
    const pct = Math.round(d.percent || 0);
    li.querySelector('.bar > span').style.width = `${pct}%`;
    li.querySelector('.bar').setAttribute('aria-valuenow', pct);
    const stage = li.querySelector('.stage');
    if (stage && !li.querySelector('.download')) stage.textContent = `${d.stage || ''} ${pct}%`;
  }

  function rerenderView(q) {
    if (q.phase !== 'complete') return null;
    const chips = h('div', { class: 'chips', id: 'rerender-presets' });
    loadPresets().then((list) => replace(chips, presetChips(list, [])), () => {});
    return card('Render to more formats', { id: 'rerender' },
      h('p', { class: 'muted', text: 'Renders the approved animation again for other sizes and platforms, as one batch.' }),
      chips,
      h('div', { class: 'actions' }, h('button', { class: 'btn', id: 'rerender-go', text: 'Render batch', onclick: async (e) => {
        const presets = [...chips.querySelectorAll('input:checked')].map((i) => i.value);
        if (!presets.length) return toast('Tick at least one format.', 'error');
        const b = await busy(e.currentTarget, () => api('POST', `/v1/projects/${id}/renders`, { presets }));
        if (b) {
          toast(`Batch ${b.id}: ${b.total} render${b.total === 1 ? '' : 's'} queued`);
          for (const i of chips.querySelectorAll('input:checked')) i.checked = false;
          schedule(0);
        }
      } })));
  }

  // templateView offers a finished project as a template: its texts, numbers, charts
  // and colours become fields a CSV's rows fill, one video per row.
  function templateView(q) {
    if (q.phase !== 'complete') return null;
    const name = h('input', { id: 'template-name-input', maxlength: 200, required: true, value: templateName(q.prompt),
      'aria-label': 'Template name' });
    const make = h('button', { class: 'btn', id: 'make-template', type: 'submit', text: 'Use as template' });
    return card('Use as template', { id: 'use-template' },
      h('p', { class: 'muted', text: 'Make videos like this one from rows of data: its texts, numbers, charts and colours become fields.' }),
      h('form', { class: 'inline', onsubmit: async (e) => {
        e.preventDefault();
        if (!name.value.trim()) return toast('Give the template a name.', 'error');
        const t = await busy(make, () => api('POST', '/v1/templates', { project_id: id, name: name.value.trim() }));
        if (t) {
          toast(`Template “${t.name}” made with ${t.fields.length} field${t.fields.length === 1 ? '' : 's'}`);
          location.hash = `#/t/${t.id}`;
        }
      } }, name, make));
  }

  function workView(q) {
    const ex = q.execution;
    if (!ex.todos.length && !ex.files.length && !ex.thinking) return null;
    return card('Work', { id: 'work' },
      ex.todos.length ? h('ul', { class: 'todos', id: 'todos' }, ex.todos.map((t) => h('li', { class: `todo todo-${t.status}`, 'data-todo': t.id },
        h('span', { class: 'todo-icon', 'aria-hidden': 'true' }), h('span', { text: t.title })))) : null,
      ex.thinking ? h('div', { class: 'thinking', id: 'thinking' }, h('div', { class: 'label', text: 'Thinking' }), h('p', { text: ex.thinking })) : null,
      ex.files.length ? h('div', { class: 'files' }, h('div', { class: 'label', text: 'Files' }),
        h('ul', { id: 'files' }, ex.files.filter((f) => !f.is_dir).map((f) => h('li', {},
          h('span', { class: 'mono', text: f.path }), h('span', { class: 'muted', text: fmtBytes(f.size_bytes) }))))) : null);
  }

  function messagesView(q) {
    const open = q.phase === 'plan' || q.phase === 'executing';
    const convo = q.execution.messages || [];
    const queue = messages || [];
    if (!open && !convo.length && !queue.length) return null;
    const input = h('textarea', { id: 'message-text', rows: 2, placeholder: 'Tell Koda something while it works…' });
    const send = h('button', { class: 'btn primary small', id: 'send-message', text: 'Send', type: 'submit' });
    return card('Messages', { id: 'messages' },
      convo.length ? h('ul', { class: 'chat' }, convo.map((m) => h('li', { class: `bubble ${m.role}` },
        h('span', { class: 'who', text: m.role === 'user' ? 'You' : 'Koda' }), h('p', { text: m.content })))) : null,
      queue.length ? h('ul', { class: 'queue', id: 'message-queue' }, queue.map((m) => h('li', { 'data-message': m.id, 'data-status': m.status },
        h('p', { text: m.text }), h('span', { class: `badge msg-${m.status}`, text: m.status })))) : null,
      open && messages !== undefined ? h('form', { class: 'send', onsubmit: async (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        const m = await busy(send, () => api('POST', `/v1/projects/${id}/messages`, { text }));
        if (m) {
          input.value = '';
          messages = [...(messages || []).filter((x) => x.id !== m.id), m];
          sections[sections.length - 1](p);
          schedule(0);
        }
      } }, input, send, h('p', { class: 'hint', text: 'Queued now, applied when the current step ends.' })) : null);
  }

  return () => {
    closed = true;
    stream.close();
    clearTimeout(refreshTimer);
    live.close();
  };
}

// templateName is a default name from the prompt: its first words, up to 60 characters.
function templateName(prompt) {
  const p = (prompt || '').trim().replace(/\s+/g, ' ');
  if (p.length <= 60) return p;
  const cut = p.slice(0, 60);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 20 ? cut.lastIndexOf(' ') : 60)}…`;
}

function streamLabel(s) {
  return { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', closed: 'Offline' }[s] || s;
}

// section keeps a box in step with one part of the project, rebuilding it only when
// that part's key changes.
function section(box, key, view) {
  let last;
  return (p) => {
    const k = key(p);
    if (k === last) return;
    last = k;
    const out = view(p);
    replace(box, out);
    box.hidden = !out;
  };
}

// liveSection shows the page the agent is writing in a sandboxed iframe: scripts run,
// but with an opaque origin, so the page can read nothing of the Studio (its session
// storage, its key) and its requests to the API carry no credentials. The scrubber
// talks to it only through postMessage.
function liveSection(box, id) {
  let live = null; // {url, expires_at}
  let failed = false;
  let asking = false;
  let frame = null;
  let scrub = null;
  let label = null;
  let reloadTimer;
  let version = 0;
  let scrubbed = false;
  box.hidden = true;

  function src() { return `${live.url}${live.url.includes('?') ? '&' : '?'}v=${version}`; }
  function post(msg) { if (frame && frame.contentWindow) frame.contentWindow.postMessage(msg, '*'); }

  async function start(p) {
    asking = true;
    try {
      live = await api('POST', `/v1/projects/${id}/live`);
    } catch (err) {
      failed = true;
      replace(box, card('Live preview', { id: 'live' }, h('p', { class: 'muted', text: `Not available: ${err.message}` })));
      box.hidden = false;
      return;
    } finally {
      asking = false;
    }
    const duration = (p.plan && p.plan.duration_s) || p.duration_s || 5;
    frame = h('iframe', { id: 'live-frame', title: 'Live preview', sandbox: 'allow-scripts', referrerpolicy: 'no-referrer',
      src: src(), onload: () => {
        frame.dataset.loaded = String(version);
        // The page may finish starting after its load event (images decode first), so
        // a scrubbed time is sent again once it surely listens.
        if (scrubbed) for (const ms of [0, 300, 1000]) setTimeout(() => post({ type: 'seek', t: Number(scrub.value) }), ms);
      } });
    label = h('span', { class: 'mono time', text: '0.0 s' });
    scrub = h('input', { type: 'range', id: 'live-scrub', min: 0, max: duration, step: 0.05, value: 0, 'aria-label': 'Time',
      oninput: () => {
        scrubbed = true;
        label.textContent = `${Number(scrub.value).toFixed(1)} s`;
        post({ type: 'seek', t: Number(scrub.value) });
      } });
    replace(box, card(null, { id: 'live' },
      h('div', { class: 'card-head' }, h('h2', { class: 'card-title', text: 'Live preview' }),
        h('span', { class: 'muted small', text: 'updates as files change' })),
      h('div', { class: 'frame-wrap' }, frame),
      h('div', { class: 'scrubber' },
        h('button', { class: 'btn small', id: 'live-play', text: '▶ Play', onclick: () => { scrubbed = false; post({ type: 'play' }); } }),
        scrub, label)));
    box.hidden = false;
  }

  return {
    update(p) {
      const wanted = p.execution.files.length > 0 && ['executing', 'preview', 'complete'].includes(p.phase);
      if (!wanted && !live) { box.hidden = true; return; }
      if (wanted && !live && !failed && !asking) start(p);
      if (scrub && p.plan) scrub.max = p.plan.duration_s || scrub.max;
    },
    filesChanged() {
      if (!frame) return;
      clearTimeout(reloadTimer);
      reloadTimer = setTimeout(async () => {
        if (new Date(live.expires_at).getTime() - Date.now() < 15000) {
          try { live = await api('POST', `/v1/projects/${id}/live`); } catch { return; }
        }
        version++;
        frame.src = src();
      }, 400);
    },
    close() { clearTimeout(reloadTimer); },
  };
}

// activitySection lists the stream's events, newest first.
function activitySection(box) {
  const list = h('ul', { class: 'activity', id: 'activity' });
  replace(box, card('Activity', { class: 'card compact' }, list));
  box.hidden = true;
  const describe = {
    STATE_CHANGE: (d) => `Phase → ${d.phase}`,
    TODO_UPDATE: (d) => `Todo ${d.todo_id}: ${d.status}`,
    THINKING: (d) => d.message,
    MESSAGE: (d) => `${d.role === 'user' ? 'You' : 'Koda'}: ${d.content}`,
    FILE_WRITTEN: (d) => `Wrote ${d.path} (${fmtBytes(d.size)})`,
    PREVIEW_READY: () => 'Preview ready',
    RENDER_PROGRESS: (d) => `Render ${d.stage} ${Math.round(d.percent || 0)}%`,
    ERROR: (d) => `Error ${d.code}: ${d.message}`,
    'message.queued': (d) => `Message queued: ${d.text || ''}`,
    'message.applied': (d) => `Message applied: ${d.text || ''}`,
  };
  let lastProgress = null;
  return {
    add(e) {
      const d = e.data && typeof e.data === 'object' ? e.data : {};
      const text = (describe[e.type] || (() => e.type))(d);
      // Progress events come many per render; one line per render keeps the log readable.
      if (e.type === 'RENDER_PROGRESS' && lastProgress && lastProgress.dataset.render === d.render_id) {
        lastProgress.lastChild.textContent = text;
        return;
      }
      const li = h('li', { 'data-type': e.type }, h('span', { class: `kind kind-${e.type.replace(/[^A-Za-z]/g, '')}`, text: e.type }), h('span', { text }));
      if (e.type === 'RENDER_PROGRESS') { li.dataset.render = d.render_id; lastProgress = li; } else lastProgress = null;
      list.prepend(li);
      while (list.children.length > 60) list.lastChild.remove();
      box.hidden = false;
    },
  };
}
