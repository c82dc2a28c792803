// Koda Studio: sign-in, navigation and the project list and form. The project page is
// project.js; templates and their batches are templates.js; the account's operations
// are ops.js.

import { api, session, setUnauthorizedHandler } from './api.js';
import { h, replace, phaseBadge, presetChips, fmtAgo, toast, busy, card } from './dom.js';
import { showProject } from './project.js';
import { showOps } from './ops.js';
import { showTemplates, showTemplate, showBatch } from './templates.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
let leave = () => {}; // ends the current view's streams and timers

const PHASES = ['idle', 'question', 'plan', 'executing', 'preview', 'complete', 'error'];

setUnauthorizedHandler(() => {
  session.clear();
  toast('The API refused this key. Sign in again.', 'error');
  route();
});

window.addEventListener('hashchange', route);
document.getElementById('signout').addEventListener('click', () => {
  session.clear();
  location.hash = '#/';
  route();
});
route();

function route() {
  leave();
  leave = () => {};
  window.scrollTo(0, 0);
  const signedIn = !!session.key;
  nav.hidden = !signedIn;
  if (!signedIn) return showSignIn();
  const hash = location.hash.replace(/^#/, '') || '/';
  for (const a of nav.querySelectorAll('a[data-route]')) {
    a.classList.toggle('active', hash === a.dataset.route || (a.dataset.route === '/' && hash.startsWith('/p/'))
      || (a.dataset.route === '/templates' && /^\/[tb]\//.test(hash)));
  }
  const m = hash.match(/^\/([ptb])\/([A-Za-z0-9_-]+)$/);
  if (m) leave = { p: showProject, t: showTemplate, b: showBatch }[m[1]](main, m[2]);
  else if (hash === '/templates') leave = showTemplates(main);
  else if (hash === '/new') showForm();
  else if (hash === '/ops') leave = showOps(main);
  else showList();
}

function showSignIn() {
  const input = h('input', { id: 'apikey', type: 'password', autocomplete: 'off', spellcheck: 'false',
    placeholder: 'koda_…', required: true, 'aria-label': 'API key' });
  const form = h('form', { class: 'signin', onsubmit: async (e) => {
    e.preventDefault();
    const key = input.value.trim();
    if (!key) return;
    session.set(key);
    const button = form.querySelector('button');
    const ok = await busy(button, () => api('GET', '/v1/usage'));
    if (ok) route();
    else session.clear();
  } },
  h('div', { class: 'logo-big' }, h('span', { class: 'logo-mark' }), 'Koda Studio'),
  h('p', { class: 'muted', text: 'Describe an animation, answer a question, approve the plan and watch it being made.' }),
  h('label', { for: 'apikey', text: 'API key' }),
  input,
  h('button', { class: 'btn primary', type: 'submit', text: 'Sign in' }),
  h('p', { class: 'fine', text: 'The key stays in this tab only (session storage) and is sent to the Koda API, nowhere else.' }));
  replace(main, h('div', { class: 'center' }, form));
  input.focus();
}

async function showForm() {
  const presetBox = h('div', { class: 'chips', id: 'presets' }, h('span', { class: 'muted', text: 'Loading presets…' }));
  const prompt = h('textarea', { id: 'prompt', name: 'prompt', rows: 5, maxlength: 4000, required: true,
    placeholder: "A playful red ball bounces across the screen, then the text 'Hello from Koda' appears" });
  const style = h('select', { id: 'style', name: 'style' },
    h('option', { value: '', text: 'Let Koda ask me' }),
    h('option', { value: 'playful', text: 'Playful — bouncy, snappy' }),
    h('option', { value: 'smooth', text: 'Smooth — subtle, flowing' }),
    h('option', { value: 'cinematic', text: 'Cinematic — dramatic, deliberate' }));
  const duration = h('input', { id: 'duration', name: 'duration_s', type: 'number', min: 1, max: 180, step: 0.5, placeholder: 'auto' });
  const callback = h('input', { id: 'callback', name: 'callback_url', type: 'url', placeholder: 'https://example.com/hooks/koda' });
  const auto = h('input', { id: 'auto', name: 'auto_approve', type: 'checkbox' });
  const submit = h('button', { class: 'btn primary', type: 'submit', text: 'Create animation' });
  const form = h('form', { id: 'new-project', class: 'form', onsubmit: async (e) => {
    e.preventDefault();
    const body = { prompt: prompt.value.trim(), auto_approve: auto.checked };
    if (style.value) body.style = style.value;
    if (duration.value) body.duration_s = Number(duration.value);
    if (callback.value.trim()) body.callback_url = callback.value.trim();
    const presets = [...presetBox.querySelectorAll('input:checked')].map((i) => i.value);
    if (presets.length) body.presets = presets;
    const p = await busy(submit, () => api('POST', '/v1/projects', body));
    if (p) location.hash = `#/p/${p.id}`;
  } },
  h('label', { for: 'prompt', text: 'What should the animation show?' }), prompt,
  h('div', { class: 'row3' },
    h('div', {}, h('label', { for: 'style', text: 'Style' }), style),
    h('div', {}, h('label', { for: 'duration', text: 'Duration (seconds)' }), duration),
    h('div', {}, h('label', { for: 'callback', text: 'Callback URL (webhooks)' }), callback)),
  h('label', { text: 'Final videos' }), presetBox,
  h('label', { class: 'check' }, auto, ' Auto-approve: skip the question, plan and preview approvals'),
  h('div', { class: 'actions' }, submit));
  replace(main, h('div', { class: 'page narrow' },
    h('div', { class: 'page-head' }, h('h1', { text: 'New animation' })),
    card(null, {}, form)));
  prompt.focus();
  try {
    const { presets } = await api('GET', '/v1/presets');
    replace(presetBox, presetChips(presets, []), h('span', { class: 'hint', text: 'None ticked: 1080p at 60 fps.' }));
  } catch (err) {
    replace(presetBox, h('span', { class: 'error-text', text: err.message }));
  }
}

function showList() {
  const phase = h('select', { id: 'filter-phase', 'aria-label': 'Phase' },
    h('option', { value: '', text: 'All phases' }), PHASES.map((p) => h('option', { value: p, text: p })));
  const since = h('input', { id: 'filter-since', type: 'date', 'aria-label': 'Created after' });
  const body = h('tbody', {});
  const more = h('button', { class: 'btn', id: 'more', text: 'Load more', hidden: true });
  const empty = h('div', { class: 'empty', hidden: true },
    h('p', { text: 'No projects yet.' }),
    h('a', { class: 'btn primary', href: '#/new', text: 'Create your first animation' }));
  let cursor = '';

  async function load(reset) {
    if (reset) { cursor = ''; body.replaceChildren(); }
    const q = new URLSearchParams({ limit: '20' });
    if (phase.value) q.set('phase', phase.value);
    if (since.value) q.set('created_after', new Date(since.value).toISOString());
    if (cursor) q.set('cursor', cursor);
    try {
      const r = await api('GET', `/v1/projects?${q}`);
      for (const p of r.projects) body.append(row(p));
      cursor = r.next_cursor || '';
      more.hidden = !cursor;
      empty.hidden = body.children.length > 0;
      table.hidden = body.children.length === 0;
    } catch (err) {
      toast(err.message, 'error');
    }
  }
  function row(p) {
    const tr = h('tr', { class: 'clickable', 'data-id': p.id, onclick: () => { location.hash = `#/p/${p.id}`; } },
      h('td', { class: 'prompt-cell' }, h('a', { href: `#/p/${p.id}`, text: p.prompt })),
      h('td', {}, phaseBadge(p.phase)),
      h('td', { class: 'muted', text: p.style || '—' }),
      h('td', { class: 'muted', text: fmtAgo(p.created_at) }),
      h('td', { class: 'mono muted', text: p.id }));
    return tr;
  }
  const table = h('table', { class: 'table', id: 'projects', hidden: true },
    h('thead', {}, h('tr', {}, ['Prompt', 'Phase', 'Style', 'Created', 'ID'].map((t) => h('th', { text: t })))), body);
  phase.addEventListener('change', () => load(true));
  since.addEventListener('change', () => load(true));
  more.addEventListener('click', () => load(false));
  replace(main, h('div', { class: 'page' },
    h('div', { class: 'page-head' }, h('h1', { text: 'Projects' }),
      h('div', { class: 'filters' }, phase, since, h('a', { class: 'btn primary', href: '#/new', text: 'New animation' }))),
    card(null, { class: 'card flush' }, table, empty), h('div', { class: 'actions center-row' }, more)));
  load(true);
}
