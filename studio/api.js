// The Studio's only way to Koda: the public API with the signed-in key. The key lives
// in sessionStorage, so it ends with the browser tab and is never sent as a cookie.

const KEY = 'koda.apiKey';

export const session = {
  get key() { return sessionStorage.getItem(KEY) || ''; },
  set(key) { sessionStorage.setItem(KEY, key); },
  clear() { sessionStorage.removeItem(KEY); },
};

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// onUnauthorized is called when the API refuses the key, so the page can sign out.
let onUnauthorized = () => {};
export function setUnauthorizedHandler(fn) { onUnauthorized = fn; }

function headers(extra) {
  return { Authorization: `Bearer ${session.key}`, ...extra };
}

// api calls one endpoint and returns its JSON; errors become APIError with the API's
// code and message. POSTs carry an Idempotency-Key so a retried click runs once.
export async function api(method, path, body) {
  const h = headers({ Accept: 'application/json' });
  const init = { method, headers: h, cache: 'no-store' };
  if (body !== undefined) {
    h['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (method === 'POST') h['Idempotency-Key'] = crypto.randomUUID();
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new APIError(0, 'NETWORK', `Koda is not reachable (${err.message})`);
  }
  if (res.status === 204) return null;
  let data = null;
  const text = await res.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    const e = (data && data.error) || {};
    if (res.status === 401) onUnauthorized();
    throw new APIError(res.status, e.code || `HTTP_${res.status}`, e.message || `${method} ${path} answered ${res.status}`);
  }
  return data;
}

// streamEvents follows a project's events over SSE. EventSource cannot send the
// Authorization header, so this reads the stream with fetch and parses it here; after
// a dropped connection it reconnects with Last-Event-ID, so no event is missed or seen
// twice. onStatus gets 'live', 'reconnecting' or 'closed'.
export function streamEvents(projectID, { onEvent, onStatus = () => {} }) {
  const ctrl = new AbortController();
  let lastID = '';
  let delay = 500;

  async function connect() {
    const h = headers({ Accept: 'text/event-stream' });
    if (lastID) h['Last-Event-ID'] = lastID;
    const res = await fetch(`/v1/projects/${encodeURIComponent(projectID)}/events`,
      { headers: h, signal: ctrl.signal, cache: 'no-store' });
    if (res.status === 401) { onUnauthorized(); return false; }
    if (res.status === 404) return false;
    if (!res.ok || !res.body) throw new Error(`event stream answered ${res.status}`);
    onStatus('live');
    delay = 500;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    let ev = { id: '', type: 'message', data: [] };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return true;
      buf += value;
      let nl;
      while ((nl = buf.search(/\r\n|\r|\n/)) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + (buf[nl] === '\r' && buf[nl + 1] === '\n' ? 2 : 1));
        if (line === '') {
          if (ev.data.length) {
            if (ev.id) lastID = ev.id;
            let data = ev.data.join('\n');
            try { data = JSON.parse(data); } catch { /* keep text */ }
            onEvent({ id: ev.id, type: ev.type, data });
          }
          ev = { id: '', type: 'message', data: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? '' : line.slice(colon + 1);
        if (val.startsWith(' ')) val = val.slice(1);
        if (field === 'data') ev.data.push(val);
        else if (field === 'event') ev.type = val;
        else if (field === 'id') ev.id = val;
      }
    }
  }

  (async () => {
    while (!ctrl.signal.aborted) {
      let again = true;
      try {
        again = await connect();
      } catch (err) {
        if (ctrl.signal.aborted) break;
      }
      if (!again || ctrl.signal.aborted) break;
      onStatus('reconnecting');
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 10000);
    }
    onStatus('closed');
  })();

  return {
    close() { ctrl.abort(); },
    get lastEventID() { return lastID; },
  };
}

// upload sends one file to POST /v1/assets as a multipart form, reporting the bytes
// sent as they go (fetch cannot report an upload's progress; XMLHttpRequest can). It
// resolves to the asset and rejects with an APIError like api(); code NETWORK when
// the connection ended before an answer (Koda closes it on a refused upload whose
// rest it does not read, so a browser may see that instead of the answer).
export function upload(file, onProgress = () => {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/assets');
    xhr.setRequestHeader('Authorization', `Bearer ${session.key}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    });
    xhr.addEventListener('load', () => {
      let data = null;
      try { data = xhr.responseText ? JSON.parse(xhr.responseText) : null; } catch { data = null; }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data);
      const e = (data && data.error) || {};
      if (xhr.status === 401) onUnauthorized();
      reject(new APIError(xhr.status, e.code || `HTTP_${xhr.status}`, e.message || `the upload answered ${xhr.status}`));
    });
    const cut = () => reject(new APIError(0, 'NETWORK', 'the connection ended before Koda answered'));
    xhr.addEventListener('error', cut);
    xhr.addEventListener('abort', cut);
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

// listAll reads every page of a list endpoint (bounded: a picker needs no more).
export async function listAll(path, field, max = 1000) {
  const out = [];
  let cursor = '';
  do {
    const sep = path.includes('?') ? '&' : '?';
    const r = await api('GET', `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    out.push(...r[field]);
    cursor = r.next_cursor || '';
  } while (cursor && out.length < max);
  return out;
}
