// Templates: the list, a template's page (its fields to edit, and a CSV of rows to
// render as a batch) and a batch's progress, one line per row and preset. The CSV is
// read here (csv.js), so its rows and how they meet the fields are seen, and the
// obvious mistakes flagged, before anything is sent; the server still checks each row.

import { api, session } from './api.js';
import { h, replace, card, presetChips, fmtAgo, fmtTime, fmtSeconds, toast, busy } from './dom.js';
import { parseCSV, batchRows, mapColumns, cellProblem } from './csv.js';

const PREVIEW_ROWS = 5;
const MAX_ROWS = 1000; // koda.MaxBatchRows
const POLL_MS = 1500;

let presetCache;
function loadPresets() {
  presetCache ||= api('GET', '/v1/presets').then((r) => r.presets).catch((err) => { presetCache = null; throw err; });
  return presetCache;
}

// scroller holds a table that may be wider than a phone: it scrolls in its own box,
// never the page.
function scroller(table) {
  return h('div', { class: 'table-scroll' }, table);
}

export function showTemplates(main) {
  const body = h('tbody', {});
  const more = h('button', { class: 'btn', id: 'more-templates', text: 'Load more', hidden: true });
  const empty = h('div', { class: 'empty', hidden: true },
    h('p', { text: 'No templates yet.' }),
    h('p', { class: 'muted', text: 'Open a finished project and choose “Use as template”: its texts, numbers, charts and colours become fields you can fill from a CSV.' }),
    h('a', { class: 'btn', href: '#/', text: 'Projects' }));
  const table = h('table', { class: 'table', id: 'templates', hidden: true },
    h('thead', {}, h('tr', {}, ['Name', 'Fields', 'Version', 'Length', 'Updated', 'ID'].map((t) => h('th', { text: t })))), body);
  let cursor = '';
  let closed = false;

  async function load() {
    const q = new URLSearchParams({ limit: '20' });
    if (cursor) q.set('cursor', cursor);
    try {
      const r = await api('GET', `/v1/templates?${q}`);
      if (closed) return;
      for (const t of r.templates) {
        body.append(h('tr', { class: 'clickable', 'data-id': t.id, onclick: () => { location.hash = `#/t/${t.id}`; } },
          h('td', {}, h('a', { href: `#/t/${t.id}`, class: 'strong', text: t.name })),
          h('td', { class: 'muted', text: t.fields.map((f) => f.name).join(', ') || '—' }),
          h('td', {}, h('span', { class: 'badge', text: `v${t.version}` })),
          h('td', { class: 'muted nowrap', text: fmtSeconds(t.duration_s) }),
          h('td', { class: 'muted nowrap', text: fmtAgo(t.updated_at) }),
          h('td', { class: 'mono muted', text: t.id })));
      }
      cursor = r.next_cursor || '';
      more.hidden = !cursor;
      empty.hidden = body.children.length > 0;
      table.hidden = body.children.length === 0;
    } catch (err) {
      if (!closed) toast(err.message, 'error');
    }
  }
  more.addEventListener('click', () => load());
  replace(main, h('div', { class: 'page' },
    h('div', { class: 'page-head' }, h('h1', { text: 'Templates' })),
    card(null, { class: 'card flush' }, scroller(table), empty),
    h('div', { class: 'actions center-row' }, more)));
  load();
  return () => { closed = true; };
}

// fieldValueText shows a field's value as a person types it: a series as 4;5;6.
function fieldValueText(f) {
  if (Array.isArray(f.value)) return f.value.join(';');
  if (f.value === null || f.value === undefined) return '';
  return String(f.value);
}

// parseFieldValue turns typed text into the JSON value PATCH takes for the field's type.
function parseFieldValue(f, text) {
  const t = text.trim();
  switch (f.type) {
    case 'number': {
      const n = Number(t.replace(/,/g, ''));
      if (t === '' || !Number.isFinite(n)) throw new Error(`${f.name} takes a number`);
      return n;
    }
    case 'series': {
      const vs = t.split(';').map((s) => Number(s.trim().replace(/,/g, '')));
      if (!t || vs.some((v) => !Number.isFinite(v))) throw new Error(`${f.name} takes numbers separated by ;`);
      return vs;
    }
    default:
      return t;
  }
}

function limitText(f) {
  const l = f.limit || {};
  if (l.max_length) return `at most ${l.max_length} characters`;
  if (l.count) return `${l.count} values`;
  return { color: '#rgb or #rrggbb', number: 'a number', image: 'in a row: an image asset id or URL', audio: 'in a row: an audio asset id or URL' }[f.type] || '—';
}

export function showTemplate(main, id) {
  let tpl = null; // as last read or saved: the fields being edited are its
  let measured = null; // the fields with limits measured for the ticked presets
  let csv = null; // {name, header, rows} of the chosen file
  let csvError = '';
  let closed = false;
  let limitsTimer;

  const head = h('div', { id: 'template-head' });
  const fieldsBox = h('div', { id: 'template-fields' });
  const chips = h('div', { class: 'chips', id: 'batch-presets' }, h('span', { class: 'muted', text: 'Loading presets…' }));
  const file = h('input', { type: 'file', id: 'csv-file', accept: '.csv,text/csv', 'aria-describedby': 'csv-hint' });
  const csvBox = h('div', { id: 'csv-preview' });
  const submitNote = h('p', { class: 'hint', id: 'batch-note' });
  const submit = h('button', { class: 'btn primary', id: 'render-batch', type: 'button', text: 'Render batch', disabled: true });
  const refused = h('div', { id: 'batch-refused' });

  replace(main, h('div', { class: 'page stack template-page', 'data-template': id },
    head, fieldsBox,
    card('Render a batch', { id: 'batch-form' },
      h('p', { class: 'muted', text: 'One video per row and preset, made from this template without running the agent again.' }),
      h('label', { text: 'Presets' }), chips,
      h('label', { for: 'csv-file', text: 'Rows (CSV file)' }), file,
      h('p', { class: 'hint', id: 'csv-hint', text: 'The first line names the fields (as in the table above). An empty cell keeps the template’s value. Quote a cell that holds a comma.' }),
      csvBox, refused,
      h('div', { class: 'actions batch-actions' }, submitNote, submit))));

  function ticked() {
    return [...chips.querySelectorAll('input:checked')].map((i) => i.value);
  }

  async function load() {
    try {
      tpl = await api('GET', `/v1/templates/${id}`);
    } catch (err) {
      if (closed) return;
      replace(head, card('Template not found', { class: 'card error-card' }, h('p', { text: err.message }),
        h('a', { href: '#/templates', text: '← Templates' })));
      fieldsBox.hidden = true;
      return;
    }
    if (closed) return;
    measured = tpl.fields;
    show();
    measure();
  }

  function show() {
    replace(head, h('div', { class: 'page-head project-head' },
      h('div', {},
        h('a', { class: 'back', href: '#/templates', text: '← Templates' }),
        h('h1', { class: 'prompt-title', id: 'template-name', text: tpl.name }),
        h('div', { class: 'meta' },
          h('span', { class: 'badge', id: 'template-version', text: `version ${tpl.version}` }),
          h('span', { class: 'mono', text: tpl.id }),
          h('span', { text: fmtSeconds(tpl.duration_s) }),
          h('span', { text: `${tpl.fields.length} field${tpl.fields.length === 1 ? '' : 's'}` }),
          tpl.project_id ? h('a', { href: `#/p/${tpl.project_id}`, text: 'from its project' }) : null,
          h('span', { text: `edited ${fmtTime(tpl.updated_at)}` }))),
      h('button', { class: 'btn ghost danger', id: 'delete-template', text: 'Delete', onclick: async (e) => {
        if (!confirm('Delete this template? Videos and batches made from it stay.')) return;
        const ok = await busy(e.currentTarget, () => api('DELETE', `/v1/templates/${id}`).then(() => true));
        if (ok) { toast('Template deleted'); location.hash = '#/templates'; }
      } })));
    fieldsView();
    csvView();
  }

  function fieldsView() {
    const rows = tpl.fields.map((f) => {
      const name = h('input', { class: 'field-name mono', value: f.name, 'aria-label': `Name of ${f.name}`, maxlength: 40, spellcheck: 'false' });
      const fixed = f.type === 'image' || f.type === 'audio';
      const value = h('input', { class: 'field-value', value: fieldValueText(f), 'aria-label': `Value of ${f.name}`, readonly: fixed,
        title: fixed ? 'The template’s own file; each row of a batch may give an asset id or a URL instead' : null });
      const swatch = f.type === 'color' ? h('span', { class: 'swatch', 'aria-hidden': 'true' }) : null;
      const paint = () => { if (swatch) swatch.style.setProperty('background', /^#[0-9a-f]{3,6}$/i.test(value.value.trim()) ? value.value.trim() : 'transparent'); };
      value.addEventListener('input', paint);
      paint();
      return h('tr', { 'data-field': f.name },
        h('td', {}, name),
        h('td', {}, h('span', { class: `badge type-${f.type}`, text: f.type })),
        h('td', {}, h('div', { class: 'value-cell' }, swatch, value)),
        h('td', { class: 'muted small limit', text: limitText(f) }));
    });
    const save = h('button', { class: 'btn primary', id: 'save-fields', type: 'submit', text: 'Save as new version' });
    const form = h('form', { onsubmit: async (e) => {
      e.preventDefault();
      const fields = {};
      try {
        for (const tr of form.querySelectorAll('tr[data-field]')) {
          const f = tpl.fields.find((x) => x.name === tr.dataset.field);
          const patch = {};
          const name = tr.querySelector('.field-name').value.trim();
          if (name !== f.name) patch.name = name;
          const text = tr.querySelector('.field-value').value;
          if (text.trim() !== fieldValueText(f).trim()) patch.value = parseFieldValue(f, text);
          if (Object.keys(patch).length) fields[f.name] = patch;
        }
      } catch (err) {
        return toast(err.message, 'error');
      }
      if (!Object.keys(fields).length) return toast('Nothing changed.');
      const t = await busy(save, () => api('PATCH', `/v1/templates/${id}`, { version: tpl.version, fields }));
      if (!t || closed) return;
      tpl = t;
      measured = t.fields;
      toast(`Saved as version ${t.version}`);
      show();
      measure();
    } },
    scroller(h('table', { class: 'table fields', id: 'fields' },
      h('thead', {}, h('tr', {}, ['Field', 'Type', 'Value', 'Limit'].map((t) => h('th', { text: t })))),
      h('tbody', {}, rows))),
    h('div', { class: 'actions' },
      h('p', { class: 'hint grow', id: 'limits-for', text: 'Limits where each text stands in the template’s own frame.' }), save));
    replace(fieldsBox, card(null, { id: 'fields-card' },
      h('div', { class: 'card-head' }, h('h2', { class: 'card-title', text: 'Fields' }),
        h('span', { class: 'muted small', text: 'Edits make a new version; videos already made keep theirs.' })),
      tpl.fields.length ? form : h('p', { class: 'muted', text: 'This template has no fields.' })));
  }

  // measure reads the limits for the ticked presets (a vertical frame fits fewer
  // characters on a line) and shows them, without touching edits being typed.
  async function measure() {
    if (!tpl) return;
    const presets = ticked();
    try {
      const t = presets.length ? await api('GET', `/v1/templates/${id}?presets=${encodeURIComponent(presets.join(','))}`) : tpl;
      if (closed || t.version !== tpl.version) return;
      measured = t.fields;
    } catch (err) {
      if (!closed) toast(err.message, 'error');
      return;
    }
    for (const f of measured) {
      const cell = fieldsBox.querySelector(`tr[data-field="${CSS.escape(f.name)}"] .limit`);
      if (cell) cell.textContent = limitText(f);
    }
    const note = fieldsBox.querySelector('#limits-for');
    if (note) note.textContent = presets.length ? `Limits measured in the frames of ${presets.join(', ')}.` : 'Limits where each text stands in the template’s own frame.';
    csvView();
  }

  file.addEventListener('change', async () => {
    csv = null;
    csvError = '';
    replace(refused);
    const f = file.files[0];
    if (f) {
      try {
        const { header, rows } = batchRows(parseCSV(await f.text()));
        csv = { name: f.name, header, rows };
      } catch (err) {
        csvError = err.message;
      }
    }
    csvView();
  });

  // csvView shows the chosen file: how its columns meet the fields, its first rows with
  // the cells the server would refuse marked, and whether it can be sent.
  function csvView() {
    const presets = ticked();
    let blocker = '';
    if (csvError) {
      replace(csvBox, h('p', { class: 'error-text', id: 'csv-error', text: csvError }));
      blocker = 'Fix the CSV file first.';
    } else if (!csv) {
      replace(csvBox);
      blocker = 'Choose a CSV file of rows.';
    } else {
      const fields = measured || (tpl ? tpl.fields : []);
      const byName = new Map(fields.map((f) => [f.name, f]));
      const map = mapColumns(csv.header, fields);
      const unknown = map.columns.filter((c) => !c.field).map((c) => c.name);
      const problems = [];
      csv.rows.forEach((r, i) => {
        r.cells.forEach((cell, j) => {
          const why = cellProblem(byName.get(csv.header[j]), cell);
          if (why) problems.push({ row: i + 1, line: r.line, field: csv.header[j], why });
        });
      });
      const mapping = h('ul', { class: 'mapping', id: 'csv-mapping' },
        map.columns.map((c) => h('li', { class: c.field ? 'ok' : 'bad', 'data-column': c.name },
          h('span', { class: 'mono', text: c.name || '(no name)' }),
          c.field ? h('span', { class: 'muted', text: ` → ${c.field.type}` }) : h('span', { text: ' not a field of this template' }))),
        map.missing.map((name) => h('li', { class: 'warn', 'data-missing': name },
          h('span', { class: 'mono', text: name }), h('span', { text: ' no column: keeps its value' }))));
      const shown = csv.rows.slice(0, PREVIEW_ROWS);
      const table = h('table', { class: 'table preview', id: 'csv-table' },
        h('thead', {}, h('tr', {}, h('th', { text: 'Row' }), csv.header.map((c) => h('th', { class: byName.has(c) ? '' : 'bad', text: c || '(no name)' })))),
        h('tbody', {}, shown.map((r, i) => h('tr', { 'data-row': i + 1 },
          h('td', { class: 'num', text: String(i + 1) }),
          r.cells.map((cell, j) => {
            const why = cellProblem(byName.get(csv.header[j]), cell);
            return h('td', { class: why ? 'cell bad' : cell.trim() ? 'cell' : 'cell blank', title: why || null },
              cell.trim() ? cell : 'keeps value', why ? h('small', { class: 'why', text: why }) : null);
          })))));
      replace(csvBox, h('div', { class: 'csv' },
        h('div', { class: 'label', text: `${csv.name}: ${csv.rows.length} row${csv.rows.length === 1 ? '' : 's'}` }),
        mapping,
        csv.rows.length ? scroller(table) : null,
        csv.rows.length > PREVIEW_ROWS ? h('p', { class: 'hint', text: `The first ${PREVIEW_ROWS} of ${csv.rows.length} rows.` }) : null,
        problems.length ? h('div', { class: 'problems', id: 'csv-problems' },
          h('p', { class: 'warn-text', text: `${problems.length} cell${problems.length === 1 ? '' : 's'} will likely be refused; those rows are reported and the others render:` }),
          h('ul', {}, problems.slice(0, 8).map((p) => h('li', {}, `Row ${p.row}, `, h('span', { class: 'mono', text: p.field }), `: ${p.why}`))),
          problems.length > 8 ? h('p', { class: 'hint', text: `and ${problems.length - 8} more` }) : null) : null));
      if (unknown.length) blocker = `Rename or remove the column${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}: ${unknown.length === 1 ? 'it is' : 'they are'} not a field of this template.`;
      else if (map.twice.length) blocker = `The column ${map.twice.join(', ')} appears twice.`;
      else if (!csv.rows.length) blocker = 'The file has a header but no rows.';
      else if (csv.rows.length > MAX_ROWS) blocker = `A batch takes at most ${MAX_ROWS} rows; this file has ${csv.rows.length}.`;
    }
    if (!blocker && !presets.length) blocker = 'Tick at least one preset.';
    submit.disabled = !!blocker;
    submitNote.textContent = blocker || `${csv.rows.length} row${csv.rows.length === 1 ? '' : 's'} × ${presets.length} preset${presets.length === 1 ? '' : 's'}`;
    submitNote.classList.toggle('warn-text', !!blocker && !!csv);
  }

  submit.addEventListener('click', async () => {
    if (!csv) return;
    replace(refused);
    const body = { rows: csv.rows.map((r) => r.values), presets: ticked() };
    try {
      submit.disabled = true;
      const b = await api('POST', `/v1/templates/${id}/batches`, body);
      const bad = b.rows.filter((r) => r.status === 'invalid').length;
      toast(bad ? `Batch started; ${bad} row${bad === 1 ? '' : 's'} refused` : `Batch started: ${b.total} videos`);
      location.hash = `#/b/${b.id}`;
    } catch (err) {
      // A batch whose rows are all bad is refused whole; the message names the rows.
      replace(refused, h('div', { class: 'refused', id: 'batch-error' },
        h('strong', { class: 'mono', text: err.code }), ' ', err.message));
      csvView();
    }
  });

  chips.addEventListener('change', () => {
    csvView();
    clearTimeout(limitsTimer);
    limitsTimer = setTimeout(measure, 250);
  });
  loadPresets().then((list) => { if (!closed) { replace(chips, presetChips(list, [])); csvView(); } },
    (err) => replace(chips, h('span', { class: 'error-text', text: err.message })));
  load();
  return () => { closed = true; clearTimeout(limitsTimer); };
}

// showBatch is a batch's progress: one line per row and preset with its status, its
// video when done, and why a row was refused or a render failed; refreshed while it runs.
export function showBatch(main, id) {
  let closed = false;
  let timer;
  const head = h('div', { id: 'batch-head' });
  const rejected = h('div', { id: 'batch-rejected' });
  const lines = h('div', { id: 'batch-lines' });
  replace(main, h('div', { class: 'page stack batch-page', 'data-batch': id }, head, rejected, lines));

  async function refresh() {
    let b;
    let m;
    try {
      [b, m] = await Promise.all([api('GET', `/v1/batches/${id}`), api('GET', `/v1/batches/${id}/manifest`)]);
    } catch (err) {
      if (closed) return;
      if (err.status === 404) {
        replace(head, card('Batch not found', { class: 'card error-card' }, h('p', { text: err.message })));
        return;
      }
      toast(err.message, 'error');
      timer = setTimeout(refresh, POLL_MS * 2);
      return;
    }
    if (closed) return;
    show(b, m.lines);
    if (b.status === 'running') timer = setTimeout(refresh, POLL_MS);
  }

  function show(b, ls) {
    const renders = new Map(b.renders.map((r) => [r.id, r]));
    const invalid = b.rows.filter((r) => r.status === 'invalid');
    const done = b.succeeded + b.failed;
    const pct = b.total ? Math.round(b.renders.reduce((s, r) => s + (r.status === 'succeeded' || r.status === 'failed' ? 100 : r.progress.percent || 0), 0) / b.total) : 100;
    replace(head, h('div', {},
      h('div', { class: 'page-head project-head' },
        h('div', {},
          h('a', { class: 'back', href: '#/templates', text: '← Templates' }),
          h('h1', { text: 'Batch' }),
          h('div', { class: 'meta' },
            h('span', { class: `badge batch-${b.status}`, id: 'batch-status', text: b.status }),
            h('span', { class: 'mono', text: b.id }),
            h('span', { text: `${b.rows.length} row${b.rows.length === 1 ? '' : 's'}` }),
            h('span', { text: `${done} of ${b.total} video${b.total === 1 ? '' : 's'} done` }),
            b.failed ? h('span', { class: 'error-text', text: `${b.failed} failed` }) : null,
            invalid.length ? h('span', { class: 'warn-text', text: `${invalid.length} row${invalid.length === 1 ? '' : 's'} refused` }) : null,
            h('span', { text: fmtTime(b.created_at) }))),
        h('div', { class: 'head-actions' },
          h('button', { class: 'btn', id: 'manifest-csv', text: 'Manifest CSV', onclick: (e) => busy(e.currentTarget, () => downloadManifest(id)) }),
          b.status === 'running' ? h('button', { class: 'btn ghost danger', id: 'cancel-batch', text: 'Cancel', onclick: async (e) => {
            if (!confirm('Cancel the renders of this batch that have not finished?')) return;
            if (await busy(e.currentTarget, () => api('POST', `/v1/batches/${id}/cancel`, {}))) { clearTimeout(timer); refresh(); }
          } }) : null)),
      h('div', { class: `bar big ${b.failed ? 'has-failed' : b.status === 'completed' ? 'all-done' : ''}`, role: 'progressbar', 'aria-valuenow': pct, 'aria-valuemin': 0, 'aria-valuemax': 100 },
        h('span', { style: { width: `${pct}%` } }))));

    replace(rejected, invalid.length ? card('Rows refused at submission', { id: 'rejected', class: 'card flush' },
      h('p', { class: 'muted pad', text: 'These rows were checked before anything rendered and made no video; the other rows went on.' }),
      scroller(h('table', { class: 'table' },
        h('thead', {}, h('tr', {}, ['Row', 'Field', 'Problem'].map((t) => h('th', { text: t })))),
        h('tbody', {}, invalid.flatMap((r) => (r.errors || []).map((e) => h('tr', { 'data-row': r.row },
          h('td', { class: 'num', text: String(r.row) }),
          h('td', { class: 'mono', text: e.field || '—' }),
          h('td', {}, e.message, ' ', h('span', { class: 'mono muted small', text: e.code }))))))))) : null);

    replace(lines, card(null, { id: 'lines', class: 'card flush' },
      h('div', { class: 'card-head pad' }, h('h2', { class: 'card-title', text: 'Videos' }),
        h('span', { class: 'muted small', text: b.status === 'running' ? 'Updating while it runs' : `Batch ${b.status}` })),
      scroller(h('table', { class: 'table lines' },
        h('thead', {}, h('tr', {}, ['Row', 'Preset', 'Status', 'Progress', ''].map((t) => h('th', { text: t })))),
        h('tbody', {}, ls.map((l) => line(l, renders.get(l.render_id), b.rows.find((r) => r.row === l.row))))))));
  }

  function line(l, r, row) {
    const pct = l.status === 'succeeded' ? 100 : r ? Math.round(r.progress.percent || 0) : 0;
    const format = (r && r.preset && r.preset.format) || 'mp4';
    let detail;
    if (l.video_url) {
      detail = h('a', { class: 'btn small primary download', href: l.video_url, download: `row-${l.row}_${l.preset}.${format}`, text: 'Download' });
    } else if (l.status === 'invalid' && row && row.errors) {
      detail = h('span', { class: 'error-text small' }, row.errors.map((e, i) => [i ? '; ' : '', h('span', { class: 'mono', text: e.field || '' }), e.field ? ': ' : '', e.message]));
    } else if (l.error) {
      detail = h('span', { class: 'error-text small', text: l.error });
    } else {
      detail = h('span', { class: 'muted small', text: r && r.progress.stage ? r.progress.stage : '' });
    }
    return h('tr', { class: `line status-${l.status}`, 'data-row': l.row, 'data-preset': l.preset, 'data-render': l.render_id || null },
      h('td', { class: 'num', text: String(l.row) }),
      h('td', { class: 'nowrap', text: l.preset }),
      h('td', {}, h('span', { class: `badge render-${l.status}`, text: l.status })),
      h('td', { class: 'progress-cell' }, l.status === 'invalid' ? null : h('div', { class: 'bar', role: 'progressbar', 'aria-valuenow': pct, 'aria-valuemin': 0, 'aria-valuemax': 100 },
        h('span', { style: { width: `${pct}%` } }))),
      h('td', { class: 'detail-cell' }, detail));
  }

  refresh();
  return () => { closed = true; clearTimeout(timer); };
}

// downloadManifest saves the manifest as CSV. A link cannot send the key, so it is
// fetched with it and handed to the browser as a file.
async function downloadManifest(id) {
  const res = await fetch(`/v1/batches/${encodeURIComponent(id)}/manifest?format=csv`,
    { headers: { Authorization: `Bearer ${session.key}`, Accept: 'text/csv' }, cache: 'no-store' });
  if (!res.ok) throw new Error(`the manifest answered ${res.status}`);
  const url = URL.createObjectURL(await res.blob());
  const a = h('a', { href: url, download: `${id}-manifest.csv`, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
