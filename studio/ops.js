// Operations for the account: usage against limits, webhook deliveries, the webhook
// secret and the tenant's API keys. Everything here is what the signed-in key may do.

import { api } from './api.js';
import { h, replace, card, fmtTime, fmtAgo, toast, busy } from './dom.js';

export function showOps(main) {
  const usage = h('div', { id: 'usage' });
  const secret = h('div', { id: 'secret' });
  const keys = h('div', { id: 'keys' });
  const deliveries = h('div', { id: 'deliveries' });
  replace(main, h('div', { class: 'page stack' },
    h('div', { class: 'page-head' }, h('h1', { text: 'Operations' }),
      h('a', { class: 'btn ghost', href: '/monitoring/', target: '_blank', rel: 'noopener', id: 'asynqmon',
        title: 'Queues, tasks and workers; asks for the admin key', text: 'Asynqmon (admins) ↗' })),
    usage,
    h('div', { class: 'grid2' }, secret, keys),
    deliveries));
  loadUsage(usage);
  loadSecret(secret);
  loadKeys(keys);
  loadDeliveries(deliveries);
  return () => {};
}

function meter(label, used, limit, unit = '') {
  const pct = limit > 0 ? Math.min(100, (100 * used) / limit) : 0;
  const fmt = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
  return h('div', { class: 'meter' },
    h('div', { class: 'meter-label' }, h('span', { text: label }),
      h('span', { class: 'mono', text: limit > 0 ? `${fmt(used)} / ${fmt(limit)}${unit}` : `${fmt(used)}${unit} · no limit` })),
    h('div', { class: `bar ${pct >= 90 ? 'hot' : ''}` }, h('span', { style: { width: `${pct}%` } })));
}

async function loadUsage(box) {
  try {
    const u = await api('GET', '/v1/usage');
    const l = u.limits || {};
    replace(box, card('Usage', { id: 'usage-card' },
      h('div', { class: 'meters' },
        meter('Projects in flight', u.projects_in_flight, l.concurrent_projects),
        meter('Final renders today', u.renders_today, l.renders_per_day),
        meter('Render time this month', u.month.finished.render_seconds, l.render_seconds_per_month, ' s')),
      h('div', { class: 'stats' },
        stat('Videos today', u.today.finished.renders), stat('Video seconds today', u.today.finished.duration_s.toFixed(1)),
        stat('Videos this month', u.month.finished.renders), stat('Frames this month', u.month.finished.frames)),
      h('p', { class: 'muted small', text: `Tenant ${u.tenant_id}` })));
  } catch (err) {
    replace(box, card('Usage', {}, h('p', { class: 'error-text', text: err.message })));
  }
}

function stat(label, value) {
  return h('div', { class: 'stat' }, h('div', { class: 'stat-value', text: String(value) }), h('div', { class: 'muted small', text: label }));
}

async function loadSecret(box) {
  const value = h('code', { class: 'secret', id: 'secret-value', text: '••••••••••••••••' });
  let plain = '';
  const reveal = h('button', { class: 'btn small', text: 'Reveal', onclick: () => {
    const shown = value.textContent === plain;
    value.textContent = shown ? '••••••••••••••••' : plain;
    reveal.textContent = shown ? 'Reveal' : 'Hide';
  } });
  const note = h('p', { class: 'muted small' });
  const rotate = h('button', { class: 'btn small', id: 'rotate-secret', text: 'Rotate', onclick: async () => {
    if (!confirm('Rotate the webhook secret? The old one keeps signing for 24 hours.')) return;
    const s = await busy(rotate, () => api('POST', '/v1/webhook-secret/rotate', {}));
    if (s) { show(s); toast('Webhook secret rotated'); }
  } });
  function show(s) {
    plain = s.secret;
    value.textContent = '••••••••••••••••';
    reveal.textContent = 'Reveal';
    note.textContent = s.previous_expires_at ? `The previous secret also signs until ${fmtTime(s.previous_expires_at)}.`
      : 'Receivers verify webhooks with this secret (Standard Webhooks).';
  }
  replace(box, card('Webhook secret', { id: 'secret-card' }, h('div', { class: 'secret-row' }, value, reveal, rotate), note));
  try {
    show(await api('GET', '/v1/webhook-secret'));
  } catch (err) {
    note.textContent = err.message;
  }
}

async function loadKeys(box) {
  const list = h('ul', { class: 'keys', id: 'key-list' });
  const name = h('input', { id: 'key-name', placeholder: 'Key name, e.g. ci', maxlength: 100, 'aria-label': 'Key name' });
  const created = h('div', { id: 'key-created' });
  const add = h('button', { class: 'btn small primary', id: 'create-key', type: 'submit', text: 'Create key' });
  async function refresh() {
    try {
      // Keys come in pages; the list shows them all, following next_cursor.
      const ks = [];
      let cursor = '';
      do {
        const r = await api('GET', `/v1/keys?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        ks.push(...(r.data || []));
        cursor = r.next_cursor || '';
      } while (cursor);
      if (!ks.length) { replace(list, h('li', { class: 'muted', text: 'No keys made here yet. Keys you create are listed with their use.' })); return; }
      replace(list, ks.map((k) => h('li', { 'data-key': k.id, class: k.revoked_at ? 'revoked' : '' },
        h('div', {}, h('strong', { text: k.name || '(unnamed)' }), ' ', h('span', { class: 'mono muted', text: `${k.prefix}…` })),
        h('div', { class: 'muted small', text: k.revoked_at ? `revoked ${fmtAgo(k.revoked_at)}`
          : `created ${fmtAgo(k.created_at)}${k.last_used_at ? `, used ${fmtAgo(k.last_used_at)}` : ''}` }),
        k.revoked_at ? null : h('button', { class: 'btn small ghost danger', text: 'Revoke', onclick: async (e) => {
          if (!confirm(`Revoke the key “${k.name}”? Clients using it stop working at once.`)) return;
          const ok = await busy(e.currentTarget, () => api('POST', `/v1/keys/${k.id}/revoke`, {}));
          if (ok) refresh();
        } }))));
    } catch (err) {
      replace(list, h('li', { class: 'muted', text: err.status === 404 ? 'This server does not manage keys from the Studio.' : err.message }));
    }
  }
  replace(box, card('API keys', { id: 'keys-card' }, list,
    h('form', { class: 'inline', onsubmit: async (e) => {
      e.preventDefault();
      if (!name.value.trim()) return;
      const k = await busy(add, () => api('POST', '/v1/keys', { name: name.value.trim() }));
      if (!k) return;
      name.value = '';
      replace(created, h('div', { class: 'once' },
        h('p', { text: 'Copy this key now; it is not shown again:' }), h('code', { class: 'secret', id: 'new-key', text: k.key || k.secret || '' })));
      refresh();
    } }, name, add), created));
  refresh();
}

async function loadDeliveries(box) {
  const status = h('select', { id: 'delivery-status', 'aria-label': 'Status' },
    ['', 'pending', 'delivered', 'failed'].map((s) => h('option', { value: s, text: s || 'All deliveries' })));
  const body = h('tbody', {});
  const more = h('button', { class: 'btn small', text: 'Load more', hidden: true });
  let cursor = '';
  async function load(reset) {
    if (reset) { cursor = ''; body.replaceChildren(); }
    const q = new URLSearchParams({ limit: '20' });
    if (status.value) q.set('status', status.value);
    if (cursor) q.set('cursor', cursor);
    try {
      const r = await api('GET', `/v1/webhook-deliveries?${q}`);
      for (const d of r.deliveries) body.append(...row(d));
      cursor = r.next_cursor || '';
      more.hidden = !cursor;
      if (!body.children.length) body.append(h('tr', {}, h('td', { colspan: 6, class: 'muted', text: 'No webhook deliveries yet. Give a project a callback URL to get some.' })));
    } catch (err) {
      toast(err.message, 'error');
    }
  }
  function row(d) {
    const detail = h('tr', { class: 'detail', hidden: true }, h('td', { colspan: 6 }));
    const tr = h('tr', { 'data-delivery': d.id },
      h('td', { class: 'mono small', text: d.event_type }),
      h('td', {}, h('span', { class: `badge delivery-${d.status}`, text: d.status })),
      h('td', { class: 'num', text: String(d.attempts) }),
      h('td', { class: 'url small', text: d.url, title: d.url }),
      h('td', { class: 'muted small', text: fmtAgo(d.created_at) }),
      h('td', { class: 'nowrap' },
        h('button', { class: 'btn small ghost', text: 'Attempts', onclick: async () => {
          if (!detail.hidden) { detail.hidden = true; return; }
          try {
            const full = await api('GET', `/v1/webhook-deliveries/${d.id}`);
            const hist = full.attempt_history || [];
            replace(detail.firstChild, hist.length ? h('table', { class: 'table inner' },
              h('thead', {}, h('tr', {}, ['#', 'Status', 'Time', 'Duration', 'Error'].map((t) => h('th', { text: t })))),
              h('tbody', {}, hist.map((a) => h('tr', {},
                h('td', { text: String(a.attempt) }), h('td', { class: 'mono', text: a.status_code ? String(a.status_code) : '—' }),
                h('td', { class: 'small', text: fmtTime(a.at) }), h('td', { class: 'small', text: `${a.duration_ms} ms` }),
                h('td', { class: 'small error-text', text: a.error || '' }))))) : h('p', { class: 'muted', text: 'No attempt yet.' }));
            detail.hidden = false;
          } catch (err) { toast(err.message, 'error'); }
        } }),
        h('button', { class: 'btn small', text: 'Redeliver', onclick: async (e) => {
          const r = await busy(e.currentTarget, () => api('POST', `/v1/webhook-deliveries/${d.id}/redeliver`, {}));
          if (r) { toast('Queued for redelivery'); load(true); }
        } })));
    return [tr, detail];
  }
  status.addEventListener('change', () => load(true));
  more.addEventListener('click', () => load(false));
  replace(box, card(null, { id: 'deliveries-card', class: 'card flush' },
    h('div', { class: 'card-head pad' }, h('h2', { class: 'card-title', text: 'Webhook deliveries' }), status),
    h('table', { class: 'table' }, h('thead', {}, h('tr', {}, ['Event', 'Status', 'Attempts', 'URL', 'Created', ''].map((t) => h('th', { text: t })))), body),
    h('div', { class: 'actions center-row' }, more)));
  load(true);
}
