// Koda Studio: sign-in, navigation and the project list and form. The project page is
// project.js; templates and their batches are templates.js; the asset library is
// assets.js and the brand kit brand.js; the account's operations are ops.js.

import { api, listAll, session, setUnauthorizedHandler } from './api.js';
import { h, replace, phaseBadge, presetChips, fmtAgo, toast, busy, card } from './dom.js';
import { showProject } from './project.js';
import { showOps } from './ops.js';
import { showTemplates, showTemplate, showBatch } from './templates.js';
import { showAssets, errorNote, assetMeta } from './assets.js';
import { showBrand } from './brand.js';

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
  else if (hash === '/new') leave = showForm();
  else if (hash === '/assets') leave = showAssets(main);
  else if (hash === '/brand') leave = showBrand(main);
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

// showForm is the new animation form; its file pickers fill the request's assets with
// the library's files, and "Use brand kit" unticked sends "brand": false.
function showForm() {
  let closed = false;
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
  const files = assetPickers();
  const submit = h('button', { class: 'btn primary', type: 'submit', text: 'Create animation' });
  const form = h('form', { id: 'new-project', class: 'form', onsubmit: async (e) => {
    e.preventDefault();
    const body = { prompt: prompt.value.trim(), auto_approve: auto.checked };
    if (style.value) body.style = style.value;
    if (duration.value) body.duration_s = Number(duration.value);
    if (callback.value.trim()) body.callback_url = callback.value.trim();
    const presets = [...presetBox.querySelectorAll('input:checked')].map((i) => i.value);
    if (presets.length) body.presets = presets;
    Object.assign(body, files.request());
    files.clearError();
    submit.disabled = true;
    try {
      const p = await api('POST', '/v1/projects', body);
      location.hash = `#/p/${p.id}`;
    } catch (err) {
      // A refusal of a picked file is shown beside the pickers; others as a toast.
      if (!files.showError(err)) toast(err.message, 'error');
    } finally {
      submit.disabled = false;
    }
  } },
  h('label', { for: 'prompt', text: 'What should the animation show?' }), prompt,
  h('div', { class: 'row3' },
    h('div', {}, h('label', { for: 'style', text: 'Style' }), style),
    h('div', {}, h('label', { for: 'duration', text: 'Duration (seconds)' }), duration),
    h('div', {}, h('label', { for: 'callback', text: 'Callback URL (webhooks)' }), callback)),
  files.el,
  h('label', { text: 'Final videos' }), presetBox,
  h('label', { class: 'check' }, auto, ' Auto-approve: skip the question, plan and preview approvals'),
  h('div', { class: 'actions' }, submit));
  replace(main, h('div', { class: 'page narrow' },
    h('div', { class: 'page-head' }, h('h1', { text: 'New animation' })),
    card(null, {}, form)));
  prompt.focus();
  api('GET', '/v1/presets').then(({ presets }) => {
    if (!closed) replace(presetBox, presetChips(presets, []), h('span', { class: 'hint', text: 'None ticked: 1080p at 60 fps.' }));
  }, (err) => { if (!closed) replace(presetBox, h('span', { class: 'error-text', text: err.message })); });
  files.load(() => closed);
  return () => { closed = true; };
}

// ROLES are the parts a library file can play in an animation, as the API names them.
const ROLES = [
  ['logo', 'image', 'Logo'],
  ['font', 'font', 'Font'],
  ['soundtrack', 'audio', 'Soundtrack'],
];

// assetPickers is the form's "Your files" box: a logo, a font and a soundtrack picked
// from the library, pictures ticked, and whether the brand kit applies.
function assetPickers() {
  const selects = {};
  for (const [role, , label] of ROLES) {
    selects[role] = h('select', { id: `pick-${role}`, 'data-role': role, 'aria-label': label }, h('option', { value: '', text: 'Loading…' }));
  }
  const images = h('div', { class: 'chips', id: 'pick-images' });
  const useBrand = h('input', { id: 'use-brand', type: 'checkbox', checked: true });
  const brandNote = h('span', { class: 'hint', id: 'brand-note' });
  const error = h('div', { id: 'assets-error' });
  let kit = null;
  let byID = new Map();

  function defaults() {
    // What "None" means depends on the kit: its file, when it applies and has one.
    for (const [role] of ROLES) {
      const first = selects[role].options[0];
      const fromKit = useBrand.checked && kit && kit[role] && byID.get(kit[role]);
      first.textContent = fromKit ? `Brand kit’s: ${fromKit.name}` : 'None';
    }
  }
  useBrand.addEventListener('change', defaults);

  const el = h('fieldset', { class: 'files-box', id: 'form-assets' },
    h('legend', { text: 'Your files (optional)' }),
    h('div', { class: 'row3' }, ROLES.map(([role, , label]) => h('div', {}, h('label', { for: `pick-${role}`, text: label }), selects[role]))),
    h('label', { text: 'Pictures the prompt can refer to' }), images,
    h('label', { class: 'check' }, useBrand, ' Use brand kit'), brandNote,
    error,
    h('p', { class: 'hint' }, 'Upload files on the ', h('a', { href: '#/assets', text: 'Assets' }), ' page; set the kit on the ',
      h('a', { href: '#/brand', text: 'Brand kit' }), ' page.'));

  return {
    el,
    async load(isClosed) {
      let lists;
      try {
        [kit, ...lists] = await Promise.all([
          api('GET', '/v1/brand').catch((err) => { if (err.status === 404 || err.status === 503) return null; throw err; }),
          ...['image', 'font', 'audio'].map((k) => listAll(`/v1/assets?kind=${k}`, 'assets').catch((err) => {
            if (err.status === 503) return [];
            throw err;
          })),
        ]);
      } catch (err) {
        if (!isClosed()) replace(error, errorNote(err));
        return;
      }
      if (isClosed()) return;
      const lib = { image: lists[0], font: lists[1], audio: lists[2] };
      byID = new Map(lists.flat().map((a) => [a.id, a]));
      for (const [role, kind] of ROLES) {
        replace(selects[role], h('option', { value: '', text: 'None' }),
          lib[kind].map((a) => h('option', { value: a.id, text: `${a.name || a.id} (${assetMeta(a)})` })));
      }
      replace(images, lib.image.length ? lib.image.map((a) => h('label', { class: 'chip', title: assetMeta(a) },
        h('input', { type: 'checkbox', value: a.id }), h('span', { text: a.name || a.id })))
        : h('span', { class: 'muted', text: 'No pictures in the library yet.' }));
      const parts = kit ? [kit.logo && 'logo', kit.font && 'font', Object.values(kit.colors || {}).some(Boolean) && 'colours',
        kit.soundtrack && 'soundtrack', kit.end_card && 'end card'].filter(Boolean) : [];
      brandNote.textContent = kit ? `The kit’s ${parts.join(', ') || 'settings'} apply unless a file above replaces them.`
        : 'No brand kit yet.';
      defaults();
    },
    // request is the body's assets and brand fields.
    request() {
      const assets = [];
      for (const [role] of ROLES) if (selects[role].value) assets.push({ id: selects[role].value, role });
      for (const i of images.querySelectorAll('input:checked')) assets.push({ id: i.value, role: 'image' });
      const out = {};
      if (assets.length) out.assets = assets;
      if (!useBrand.checked) out.brand = false;
      return out;
    },
    clearError() { replace(error); },
    showError(err) {
      if (!['ASSET_NOT_FOUND', 'ASSET_ROLE_MISMATCH', 'TOO_MANY_ASSETS'].includes(err.code)) return false;
      replace(error, errorNote(err));
      return true;
    },
  };
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
