// Small DOM helpers. Text from tenants and agents only ever becomes text nodes or
// attribute values, never markup, so a prompt or a file name cannot inject script.

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'style') for (const [p, pv] of Object.entries(v)) el.style.setProperty(p, pv);
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'value') el.value = v;
    else if (k === 'checked') el.checked = !!v;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

export function fmtBytes(n) {
  if (!n && n !== 0) return '';
  const units = ['B', 'KB', 'MB', 'GB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

export function fmtTime(s) {
  if (!s) return '';
  const d = new Date(s);
  if (isNaN(d)) return '';
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function fmtAgo(s) {
  const d = new Date(s);
  if (!s || isNaN(d)) return '';
  const sec = Math.round((Date.now() - d.getTime()) / 1000);
  if (sec < 45) return 'just now';
  if (sec < 3600) return `${Math.round(sec / 60)} min ago`;
  if (sec < 86400) return `${Math.round(sec / 3600)} h ago`;
  return fmtTime(s);
}

export function fmtSeconds(s) {
  return `${Number(s || 0).toFixed(s % 1 ? 1 : 0)} s`;
}

let toastTimer;
export function toast(message, kind = 'info') {
  const el = document.getElementById('toast');
  replace(el, h('div', { class: `toast ${kind}`, text: message }));
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 5000);
}

// phaseBadge shows a phase as a coloured pill.
export function phaseBadge(phase) {
  return h('span', { class: `badge phase-${phase}`, 'data-phase': phase, text: phase });
}

export function card(title, attrs, ...body) {
  return h('section', { class: 'card', ...attrs },
    title ? h('h2', { class: 'card-title' }, title) : null, ...body);
}

// busy disables a button while an action runs and reports its error.
export async function busy(button, fn) {
  button.disabled = true;
  try {
    return await fn();
  } catch (err) {
    toast(err.message || String(err), 'error');
    return undefined;
  } finally {
    button.disabled = false;
  }
}

// presetChips renders checkboxes for the named presets, with checked ones ticked.
export function presetChips(presets, checked) {
  return presets.filter((p) => p.name && p.name !== 'preview' && p.name !== 'final').map((p) =>
    h('label', { class: 'chip', title: `${p.width}×${p.height} ${p.fps} fps ${p.format}` },
      h('input', { type: 'checkbox', value: p.name, checked: checked.includes(p.name) }),
      h('span', {}, p.name, h('small', { text: ` ${p.width}×${p.height}` }))));
}
