// The brand kit page: the account's logo, font, colours, end card and soundtrack,
// which every new animation takes unless it says otherwise. Files are picked from the
// library or uploaded right here; a sample card shows the kit as it is being edited.

import { api, listAll } from './api.js';
import { h, replace, card, toast, fmtTime } from './dom.js';
import { uploader, loadFont, errorNote, assetMeta } from './assets.js';

const COLORS = [
  ['primary', 'Primary', '#4f46e5', 'Accents, shapes and highlights'],
  ['secondary', 'Secondary', '#06b6d4', 'A second accent'],
  ['background', 'Background', '#12355b', 'Behind everything'],
  ['text', 'Text', '#ffffff', 'Headlines and captions'],
];
const END_CARD_MAX = 120; // koda.EndCardText

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

// normHex is a valid colour as #rrggbb in lower case, '' for an empty field and null
// for anything else; the server normalises the same way.
export function normHex(s) {
  const t = s.trim();
  if (!t) return '';
  if (!HEX.test(t)) return null;
  const v = t.toLowerCase();
  return v.length === 4 ? `#${v[1]}${v[1]}${v[2]}${v[2]}${v[3]}${v[3]}` : v;
}

// picker is a select of the library's files of one kind, "None" first.
function picker(id, assets, value) {
  const sel = h('select', { id, class: 'asset-select' },
    h('option', { value: '', text: 'None' }),
    assets.map((a) => h('option', { value: a.id, text: `${a.name || a.id} (${assetMeta(a)})`, selected: a.id === value })));
  sel.value = value || '';
  return sel;
}

export function showBrand(main) {
  let closed = false;
  const body = h('div', { id: 'brand-body' }, h('p', { class: 'muted', text: 'Loading the brand kit…' }));
  replace(main, h('div', { class: 'page brand-page' },
    h('div', { class: 'page-head' }, h('h1', { text: 'Brand kit' }),
      h('a', { class: 'btn', href: '#/assets', text: 'Asset library' })),
    body));

  (async () => {
    let kit = null;
    let lib;
    try {
      [kit, lib] = await Promise.all([
        api('GET', '/v1/brand').catch((err) => { if (err.status === 404) return null; throw err; }),
        Promise.all(['image', 'font', 'audio'].map((k) => listAll(`/v1/assets?kind=${k}`, 'assets'))),
      ]);
    } catch (err) {
      if (!closed) replace(body, card(null, { class: 'card error-card' }, errorNote(err)));
      return;
    }
    if (!closed) form(kit, { image: lib[0], font: lib[1], audio: lib[2] });
  })();

  function form(kit, lib) {
    const byID = new Map(Object.values(lib).flat().map((a) => [a.id, a]));
    const errors = {};
    const fieldError = (name) => (errors[name] = h('div', { class: 'field-slot', id: `brand-${name}-error` }));
    const pickers = {};
    const pickRow = (role, kind, label, hint) => {
      const sel = picker(`brand-${role}`, lib[kind], kit && kit[role]);
      pickers[role] = sel;
      const up = uploader({ id: `brand-${role}-drop`, kinds: [kind], multiple: false, onAdded: (a) => {
        byID.set(a.id, a);
        lib[kind].push(a);
        sel.append(h('option', { value: a.id, text: `${a.name || a.id} (${assetMeta(a)})` }));
        sel.value = a.id;
        sel.dispatchEvent(new Event('change'));
      } });
      const slot = fieldError(role);
      if (kit && kit[role] && !byID.has(kit[role])) {
        // The kit outlives its files: say so rather than show "None" as if it were set.
        replace(slot, h('div', { class: 'field-error', role: 'alert' },
          h('span', { class: 'why-words', text: `The kit’s ${role} is no longer in the library.` }),
          h('small', { class: 'why-detail', text: 'Videos leave it out. Pick another, or save to remove it from the kit.' })));
      }
      return h('div', { class: 'brand-field', 'data-field': role },
        h('label', { for: sel.id, text: label }), sel, slot,
        h('details', { class: 'upload-here' }, h('summary', { text: 'Upload a new one here' }), up),
        hint ? h('p', { class: 'hint', text: hint }) : null);
    };

    const colorInputs = {};
    const colorRows = COLORS.map(([name, label, fallback, hint]) => {
      const set = (kit && kit.colors && kit.colors[name]) || '';
      const hex = h('input', { id: `brand-${name}-hex`, class: 'hex mono', value: set, maxlength: 7, spellcheck: 'false',
        autocomplete: 'off', placeholder: 'not set', 'aria-label': `${label} colour as hex` });
      const pick = h('input', { id: `brand-${name}`, type: 'color', value: set || fallback, 'aria-label': `${label} colour` });
      pick.addEventListener('input', () => { hex.value = pick.value; check(name); paint(); });
      hex.addEventListener('input', () => {
        const v = normHex(hex.value);
        if (v) pick.value = v;
        if (v !== null) replace(errors[name]);
        paint();
      });
      hex.addEventListener('change', () => check(name));
      colorInputs[name] = { hex, pick, fallback };
      return h('div', { class: 'color-row', 'data-color': name },
        h('label', { for: hex.id, text: label }),
        h('div', { class: 'color-inputs' }, pick, hex),
        fieldError(name),
        h('p', { class: 'hint', text: `${hint}; empty: Koda picks.` }));
    });

    const endCard = h('input', { id: 'brand-end-card', maxlength: END_CARD_MAX, value: (kit && kit.end_card) || '',
      placeholder: 'e.g. acme.com — fresh every day' });
    const endCount = h('span', { class: 'hint', id: 'brand-end-count' });
    endCard.addEventListener('input', () => { endCount.textContent = `${endCard.value.length} / ${END_CARD_MAX}`; paint(); });
    endCount.textContent = `${endCard.value.length} / ${END_CARD_MAX}`;

    // The sample: a title card and, when there is an end card, the closing card.
    const pvLogo = h('img', { class: 'bp-logo', id: 'bp-logo', alt: 'Logo', hidden: true });
    const pvEndLogo = h('img', { class: 'bp-end-logo', alt: '', hidden: true });
    const pvTitle = h('div', { class: 'bp-title', id: 'bp-title', text: 'Fresh every day' });
    const pvSub = h('div', { class: 'bp-sub', id: 'bp-sub', text: 'Your words, your colours, your font' });
    const pvChip = h('span', { class: 'bp-chip', id: 'bp-chip', text: 'Learn more' });
    const pvEndText = h('div', { class: 'bp-end-text', id: 'bp-end-text' });
    const pvFont = h('p', { class: 'hint', id: 'bp-font-note' });
    const preview = h('div', { class: 'brand-preview', id: 'brand-preview', role: 'img', 'aria-label': 'Sample card in the brand kit' },
      h('div', { class: 'bp-shape bp-shape-1' }), h('div', { class: 'bp-shape bp-shape-2' }),
      pvLogo, h('div', { class: 'bp-body' }, pvTitle, pvSub, pvChip));
    const endPreview = h('div', { class: 'brand-preview bp-end', id: 'brand-end-preview', hidden: true }, pvEndLogo, pvEndText);

    let fontWanted = '';
    function paint() {
      const c = {};
      for (const [name, , fallback] of COLORS) c[name] = normHex(colorInputs[name].hex.value) || fallback;
      for (const el of [preview, endPreview]) {
        for (const [name] of COLORS) el.style.setProperty(`--b-${name}`, c[name]);
        el.dataset.background = c.background;
      }
      const logo = byID.get(pickers.logo.value);
      for (const img of [pvLogo, pvEndLogo]) {
        img.hidden = !logo;
        if (logo && img.getAttribute('src') !== logo.url) img.src = logo.url;
        if (!logo) img.removeAttribute('src');
      }
      preview.dataset.logo = logo ? logo.id : '';
      pvEndText.textContent = endCard.value.trim();
      endPreview.hidden = !endCard.value.trim();
      const font = byID.get(pickers.font.value);
      fontWanted = font ? font.id : '';
      if (!font) {
        for (const el of [preview, endPreview]) el.style.removeProperty('--b-font');
        preview.dataset.font = '';
        pvFont.textContent = 'No font: Koda picks one.';
        return;
      }
      pvFont.textContent = `Loading ${font.name}…`;
      loadFont(font).then((family) => {
        if (fontWanted !== font.id || closed) return;
        for (const el of [preview, endPreview]) el.style.setProperty('--b-font', `"${family}"`);
        preview.dataset.font = font.id;
        pvFont.textContent = `Set in ${font.name}.`;
      }, () => {
        if (fontWanted !== font.id) return;
        pvFont.textContent = `${font.name} could not be shown here; Koda still uses it in videos.`;
      });
    }

    function check(name) {
      const v = normHex(colorInputs[name].hex.value);
      if (v === null) {
        replace(errors[name], h('div', { class: 'field-error', role: 'alert' },
          h('span', { class: 'why-words', text: 'Write the colour as # and six hex digits, like #ff6600, or leave it empty.' })));
        return false;
      }
      replace(errors[name]);
      if (v) colorInputs[name].hex.value = v;
      return true;
    }

    const save = h('button', { class: 'btn primary', id: 'save-brand', type: 'submit', text: 'Save brand kit' });
    const saved = h('span', { class: 'hint grow', id: 'brand-saved', text: kit ? `Saved ${fmtTime(kit.updated_at)}` : 'No brand kit yet.' });
    const formError = h('div', { id: 'brand-error' });
    const f = h('form', { id: 'brand-form', class: 'brand-form', onsubmit: async (e) => {
      e.preventDefault();
      replace(formError);
      for (const role of ['logo', 'font', 'soundtrack']) replace(errors[role]);
      const bad = COLORS.map(([name]) => name).filter((name) => !check(name));
      if (bad.length) { colorInputs[bad[0]].hex.focus(); return; }
      const colors = {};
      for (const [name] of COLORS) colors[name] = normHex(colorInputs[name].hex.value);
      const req = { logo: pickers.logo.value, font: pickers.font.value, soundtrack: pickers.soundtrack.value,
        colors, end_card: endCard.value.trim() };
      save.disabled = true;
      try {
        const out = await api('PUT', '/v1/brand', req);
        if (closed) return;
        saved.textContent = `Saved ${fmtTime(out.updated_at)}`;
        toast('Brand kit saved');
      } catch (err) {
        if (closed) return;
        await place(err, req);
      } finally {
        save.disabled = false;
      }
    } },
    h('div', { class: 'brand-grid' },
      h('div', { class: 'brand-fields' },
        card('Logo and font', {},
          pickRow('logo', 'image', 'Logo', 'A PNG with a transparent background or an SVG looks best.'),
          pickRow('font', 'font', 'Font', 'Used for every text in your videos.')),
        card('Colours', { id: 'brand-colors' }, colorRows),
        card('End card and sound', {},
          h('label', { for: endCard.id, text: 'End card line (optional)' }), endCard, endCount, fieldError('end_card'),
          h('p', { class: 'hint', text: 'Shown under the logo on a closing card; empty: no end card unless the prompt asks for one.' }),
          pickRow('soundtrack', 'audio', 'Soundtrack (optional)', 'Trimmed or looped to each video, faded in and out.'))),
      h('div', { class: 'brand-side' },
        card('Preview', { id: 'brand-preview-card' }, preview, endPreview, pvFont,
          h('p', { class: 'hint', text: 'A sample: your videos place the logo, colours and font by what each prompt asks.' })))),
    formError,
    h('div', { class: 'actions batch-actions' }, saved, save));
    for (const sel of Object.values(pickers)) sel.addEventListener('change', () => { replace(errors[sel.id.slice(6)]); paint(); });
    replace(body, f);
    paint();

    // place shows a refusal beside the field it is about. An asset the server no
    // longer finds is found by asking for each picked one.
    async function place(err, req) {
      if (err.code === 'ASSET_NOT_FOUND' || err.code === 'ASSET_ROLE_MISMATCH') {
        for (const role of ['logo', 'font', 'soundtrack']) {
          if (!req[role]) continue;
          const gone = await api('GET', `/v1/assets/${encodeURIComponent(req[role])}`).then(() => false, (e) => e.status === 404);
          if (gone || (err.code === 'ASSET_ROLE_MISMATCH' && byID.get(req[role]) && byID.get(req[role]).kind !== { logo: 'image', font: 'font', soundtrack: 'audio' }[role])) {
            replace(errors[role], errorNote(err));
            pickers[role].focus();
            return;
          }
        }
      }
      replace(formError, errorNote(err, { id: 'brand-error-note' }));
    }
  }

  return () => { closed = true; };
}
