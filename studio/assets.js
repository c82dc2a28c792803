// The asset library: the account's images, fonts and sounds, uploaded here by drag
// and drop or a file input with a progress bar per file, listed by kind a page at a
// time, and deleted. The uploader and the font loader are shared with the brand kit
// page (brand.js) and the pickers of the new animation form (app.js).

import { api, upload } from './api.js';
import { h, replace, card, fmtBytes, fmtAgo, toast } from './dom.js';

// KINDS are the accepted files, as the server's format table names them.
export const KINDS = {
  image: { label: 'Images', one: 'image', ext: ['.png', '.jpg', '.jpeg', '.jpe', '.jfif', '.webp', '.svg'], say: 'PNG, JPEG, WebP or SVG' },
  font: { label: 'Fonts', one: 'font', ext: ['.ttf', '.otf', '.woff2'], say: 'TTF, OTF or WOFF2' },
  audio: { label: 'Audio', one: 'sound', ext: ['.mp3', '.aac', '.m4a', '.mp4', '.m4b', '.wav', '.wave', '.ogg', '.oga', '.opus'], say: 'MP3, AAC/M4A, WAV or OGG/Opus' },
};

const PAGE = 24;

function extOf(name) {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i).toLowerCase();
}

// kindOfName is the kind a file's extension promises, or '' for none accepted.
function kindOfName(name) {
  const ext = extOf(name);
  return Object.keys(KINDS).find((k) => KINDS[k].ext.includes(ext)) || '';
}

function accepted(kinds) {
  return kinds.map((k) => KINDS[k].say).join('; ');
}

// plainError says in words what a refusal means for the person holding the file; the
// server's message, which names the exact limit or format, follows as the detail.
export function plainError(err) {
  const words = {
    ASSET_UNSUPPORTED_TYPE: 'This kind of file is not accepted.',
    ASSET_TYPE_MISMATCH: 'The file’s name or type does not match what is inside it.',
    ASSET_TOO_LARGE: 'The file is too big.',
    ASSET_MALFORMED: 'The file is damaged or not what it claims to be: it could not be read.',
    ASSET_DIMENSIONS_TOO_LARGE: 'The picture has too many pixels.',
    ASSET_DURATION_TOO_LONG: 'The sound is too long.',
    ASSET_UNSAFE_CONTENT: 'The file holds content that is not allowed.',
    LIMIT_ASSET_BYTES: 'Your file library is full: delete files you no longer need to make room.',
    ASSET_NOT_FOUND: 'That file is no longer in the library.',
    ASSET_ROLE_MISMATCH: 'That file cannot play this part (a sound as a logo, say).',
    TOO_MANY_ASSETS: 'Too many files for one animation.',
    NOT_FOUND: 'That file is no longer in the library.',
    NETWORK: 'The upload was cut off before Koda answered: the file may be bigger than Koda takes, or the connection dropped.',
    BODY_TOO_LARGE: 'The file is too big.',
  }[err.code] || (err.status === 413 ? 'The file is too big.' : '');
  const detail = err.code === 'NETWORK' ? '' : err.message || '';
  return { words: words || detail || 'Koda could not take this file.', detail: words ? detail : '' };
}

// errorNote is a refusal shown beside what it is about: the plain words, then the detail.
export function errorNote(err, attrs = {}) {
  const { words, detail } = plainError(err);
  return h('div', { class: 'field-error', role: 'alert', ...attrs },
    h('span', { class: 'why-words', text: words }),
    detail ? h('small', { class: 'why-detail', text: firstUpper(detail) }) : null);
}

function firstUpper(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

export function fmtDuration(s) {
  const t = Math.round(Number(s) || 0);
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
}

// assetMeta is one line of what a file is: its format, size, and pixels or length.
export function assetMeta(a) {
  const parts = [a.format.toUpperCase(), fmtBytes(a.size)];
  if (a.width && a.height) parts.push(`${a.width}×${a.height} px`);
  if (a.duration_s) parts.push(fmtDuration(a.duration_s));
  return parts.join(' · ');
}

// loadFont makes an uploaded font usable on this page under a family of its own,
// loaded from the asset's download link with FontFace; it resolves to the family.
const fonts = new Map();
export function loadFont(a) {
  if (!fonts.has(a.id)) {
    const family = `koda-${a.id}`;
    const src = `url("${a.url.replace(/["\\]/g, (c) => `\\${c}`)}")`;
    const p = new FontFace(family, src).load().then((face) => { document.fonts.add(face); return family; });
    p.catch(() => fonts.delete(a.id));
    fonts.set(a.id, p);
  }
  return fonts.get(a.id);
}

// uploader is a drop zone with a file input beside it. Each file gets a line with a
// progress bar, then either "added" or why it was refused; files the zone does not
// take are refused here, before sending. onAdded gets each asset Koda kept.
export function uploader({ id, kinds = Object.keys(KINDS), multiple = true, onAdded = () => {} }) {
  const exts = kinds.flatMap((k) => KINDS[k].ext);
  const input = h('input', { type: 'file', id: `${id}-input`, class: 'file-input', multiple, accept: exts.join(',') });
  const list = h('ul', { class: 'uploads', id: `${id}-list`, 'aria-live': 'polite' });
  const zone = h('div', { class: 'dropzone', id, 'data-kinds': kinds.join(' ') },
    h('p', { class: 'drop-title' }, h('strong', { text: multiple ? 'Drop files here' : 'Drop a file here' }), ' or ',
      h('label', { class: 'btn small', for: input.id, text: multiple ? 'Choose files' : 'Choose a file' }), input),
    h('p', { class: 'hint', text: accepted(kinds) }));
  let depth = 0;
  zone.addEventListener('dragenter', (e) => { e.preventDefault(); depth++; zone.classList.add('over'); });
  zone.addEventListener('dragover', (e) => { e.preventDefault(); if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'; });
  zone.addEventListener('dragleave', () => { if (--depth <= 0) { depth = 0; zone.classList.remove('over'); } });
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    zone.classList.remove('over');
    const files = [...((e.dataTransfer && e.dataTransfer.files) || [])];
    send(multiple ? files : files.slice(0, 1));
  });
  input.addEventListener('change', () => {
    const files = [...input.files];
    input.value = '';
    send(files);
  });

  function send(files) {
    for (const f of files) one(f);
  }

  async function one(file) {
    const bar = h('span', { style: { width: '0%' } });
    const barBox = h('div', { class: 'bar', role: 'progressbar', 'aria-valuenow': 0, 'aria-valuemin': 0, 'aria-valuemax': 100 }, bar);
    const state = h('span', { class: 'upload-state muted small', text: 'waiting' });
    const note = h('div', { class: 'upload-note' });
    const li = h('li', { class: 'upload', 'data-name': file.name, 'data-state': 'sending' },
      h('div', { class: 'upload-head' }, h('span', { class: 'upload-name', text: file.name }),
        h('span', { class: 'muted small nowrap', text: fmtBytes(file.size) }), state),
      barBox, note);
    list.prepend(li);
    const kind = kindOfName(file.name);
    if (!kind || !kinds.includes(kind)) {
      li.dataset.state = 'refused';
      barBox.remove();
      state.textContent = 'not sent';
      replace(note, h('div', { class: 'field-error', role: 'alert' },
        h('span', { class: 'why-words', text: kind ? `A ${KINDS[kind].one} does not belong here.` : 'This kind of file is not accepted.' }),
        h('small', { class: 'why-detail', text: `Here: ${accepted(kinds)}.` })));
      return;
    }
    let events = 0;
    try {
      const a = await upload(file, (sent, total) => {
        events++;
        const pct = total ? Math.round((100 * sent) / total) : 0;
        bar.style.setProperty('width', `${pct}%`);
        barBox.setAttribute('aria-valuenow', pct);
        li.dataset.progress = String(pct);
        li.dataset.events = String(events);
        state.textContent = pct < 100 ? `${pct}%` : 'checking…';
      });
      li.dataset.state = 'done';
      li.dataset.asset = a.id;
      bar.style.setProperty('width', '100%');
      barBox.setAttribute('aria-valuenow', 100);
      state.textContent = 'added';
      replace(note, h('span', { class: 'muted small', text: assetMeta(a) }));
      onAdded(a);
    } catch (err) {
      li.dataset.state = 'refused';
      li.dataset.code = err.code;
      state.textContent = 'refused';
      barBox.remove();
      replace(note, errorNote(err));
    }
  }

  return h('div', { class: 'uploader' }, zone, list);
}

// showAssets is the library page: the upload zone, a kind filter, and the files a
// page at a time, each with what it is and a delete button.
export function showAssets(main) {
  let cursor = '';
  let closed = false;
  const kind = h('select', { id: 'asset-kind', 'aria-label': 'Kind' },
    h('option', { value: '', text: 'All kinds' }),
    Object.entries(KINDS).map(([k, v]) => h('option', { value: k, text: v.label })));
  const grid = h('ul', { class: 'asset-grid', id: 'assets' });
  const more = h('button', { class: 'btn', id: 'more-assets', text: 'Load more', hidden: true });
  const empty = h('div', { class: 'empty', id: 'assets-empty', hidden: true },
    h('p', { text: 'No files here yet.' }),
    h('p', { class: 'muted', text: 'Upload your logo, pictures, fonts and soundtracks above; animations and the brand kit use them.' }));
  const listError = h('div', { id: 'assets-error' });

  async function load(reset) {
    if (reset) { cursor = ''; grid.replaceChildren(); }
    const q = new URLSearchParams({ limit: String(PAGE) });
    if (kind.value) q.set('kind', kind.value);
    if (cursor) q.set('cursor', cursor);
    const want = kind.value;
    try {
      const r = await api('GET', `/v1/assets?${q}`);
      if (closed || want !== kind.value) return;
      replace(listError);
      for (const a of r.assets) if (!grid.querySelector(`[data-id="${CSS.escape(a.id)}"]`)) grid.append(tile(a));
      cursor = r.next_cursor || '';
      more.hidden = !cursor;
      empty.hidden = grid.children.length > 0;
    } catch (err) {
      if (!closed) replace(listError, errorNote(err));
    }
  }

  function tile(a) {
    const note = h('div', { class: 'tile-note' });
    let preview;
    if (a.kind === 'image') {
      preview = h('img', { src: a.url, alt: '', loading: 'lazy', decoding: 'async' });
    } else if (a.kind === 'font') {
      preview = h('span', { class: 'font-sample', text: 'Aa' });
      loadFont(a).then((family) => preview.style.setProperty('font-family', `"${family}", system-ui`), () => {
        preview.classList.add('muted');
      });
    } else {
      preview = h('audio', { src: a.url, controls: true, preload: 'none' });
    }
    const del = h('button', { class: 'btn small ghost danger delete-asset', type: 'button', text: 'Delete', onclick: async () => {
      if (!confirm(`Delete “${a.name || a.id}” from the library? Animations already made with it keep their copy.`)) return;
      del.disabled = true;
      try {
        await api('DELETE', `/v1/assets/${encodeURIComponent(a.id)}`);
        li.remove();
        empty.hidden = grid.children.length > 0;
        toast(`Deleted ${a.name || a.id}`);
      } catch (err) {
        if (err.status === 404) { li.remove(); return; }
        replace(note, errorNote(err));
      } finally {
        del.disabled = false;
      }
    } });
    const li = h('li', { class: `asset-tile kind-${a.kind}`, 'data-id': a.id, 'data-kind': a.kind },
      h('div', { class: `tile-preview kind-${a.kind}` }, preview),
      h('div', { class: 'tile-body' },
        h('div', { class: 'tile-name', title: a.name, text: a.name || a.id }),
        h('div', { class: 'muted small tile-meta', text: assetMeta(a) }),
        h('div', { class: 'tile-foot' },
          h('span', { class: `badge type-${a.kind}`, text: a.kind }),
          h('span', { class: 'muted small', text: fmtAgo(a.created_at) }),
          del),
        note));
    return li;
  }

  const up = uploader({ id: 'asset-drop', onAdded: (a) => {
    if (closed) return;
    if (kind.value && kind.value !== a.kind) return;
    grid.querySelector(`[data-id="${CSS.escape(a.id)}"]`)?.remove();
    grid.prepend(tile(a));
    empty.hidden = true;
  } });
  kind.addEventListener('change', () => load(true));
  more.addEventListener('click', () => load(false));
  replace(main, h('div', { class: 'page assets-page' },
    h('div', { class: 'page-head' }, h('h1', { text: 'Assets' }),
      h('div', { class: 'filters' }, kind, h('a', { class: 'btn', href: '#/brand', text: 'Brand kit' }))),
    card('Upload', { id: 'upload-card' }, up),
    card(null, { id: 'library' }, listError, grid, empty),
    h('div', { class: 'actions center-row' }, more)));
  load(true);
  return () => { closed = true; };
}
