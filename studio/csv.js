// CSV for template batches, read in the browser so a person sees the rows, and how
// their columns map to the template's fields, before anything is sent. It reads as the
// server's reader does (Go's encoding/csv with TrimLeadingSpace): quoted fields may hold
// commas, doubled quotes and line breaks, blank lines are skipped, and every record has
// the first one's number of fields. The rows sent are what the preview shows.

export class CSVError extends Error {
  constructor(line, message) {
    super(`CSV line ${line}: ${message}`);
    this.line = line;
  }
}

// SPACE is what Go's unicode.IsSpace takes as space, line breaks aside (they end records).
const SPACE = /[ \t\v\f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

// parseCSV returns the records of text, each {line, fields} (line: where it starts,
// from 1), or throws CSVError at the first malformed record.
export function parseCSV(text) {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const n = text.length;
  const eol = (j) => text[j] === '\n' || (text[j] === '\r' && text[j + 1] === '\n');
  const records = [];
  let i = 0;
  let line = 1;
  while (i < n) {
    if (eol(i)) { // a blank line is no record
      i += text[i] === '\r' ? 2 : 1;
      line++;
      continue;
    }
    const start = line;
    const fields = [];
    for (;;) {
      while (i < n && SPACE.test(text[i])) i++;
      if (text[i] === '"') {
        let f = '';
        i++;
        for (;;) {
          if (i >= n) throw new CSVError(start, 'a quoted field is not closed');
          if (text[i] === '"') {
            if (text[i + 1] === '"') { f += '"'; i += 2; continue; }
            i++;
            break;
          }
          if (eol(i)) { // a line break inside quotes is part of the field, as \n
            f += '\n';
            i += text[i] === '\r' ? 2 : 1;
            line++;
            continue;
          }
          f += text[i++];
        }
        if (i < n && text[i] !== ',' && !eol(i)) throw new CSVError(line, 'text after a closing quote (write a quote inside a quoted field as "")');
        fields.push(f);
      } else {
        let j = i;
        while (j < n && text[j] !== ',' && !eol(j)) j++;
        const f = text.slice(i, j);
        if (f.includes('"')) throw new CSVError(line, 'a quote in a field that does not start with one (quote the whole field)');
        fields.push(f);
        i = j;
      }
      if (text[i] === ',') { i++; continue; }
      if (i < n) i += text[i] === '\r' ? 2 : 1;
      line++;
      break;
    }
    if (records.length && fields.length !== records[0].fields.length) {
      throw new CSVError(start, `${fields.length} fields where the first line has ${records[0].fields.length}`);
    }
    records.push({ line: start, fields });
  }
  return records;
}

// batchRows turns parsed records into the header (field names, trimmed) and the rows of
// a batch request: every cell is text, and an empty cell is left out, so the row keeps
// the field's value (as the server does with an uploaded CSV). Each row keeps its CSV
// line and its cells for the preview.
export function batchRows(records) {
  if (!records.length) throw new CSVError(1, 'the file is empty; its first line names the fields');
  const header = records[0].fields.map((h) => h.trim());
  const rows = records.slice(1).map((r) => {
    const values = {};
    r.fields.forEach((cell, i) => { if (cell.trim() !== '') values[header[i]] = cell; });
    return { line: r.line, cells: r.fields, values };
  });
  return { header, rows };
}

// mapColumns says how a CSV's columns meet a template's fields: each column with its
// field (or null: unknown to the template), columns named twice, and the fields no
// column names (they keep the template's value).
export function mapColumns(header, fields) {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const seen = new Set();
  const twice = [];
  const columns = header.map((name) => {
    if (seen.has(name)) twice.push(name);
    seen.add(name);
    return { name, field: byName.get(name) || null };
  });
  return { columns, twice, missing: fields.filter((f) => !seen.has(f.name)).map((f) => f.name) };
}

const COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

// num reads a number as the server reads a cell: thousands commas are dropped.
function num(s) {
  const t = s.trim().replace(/,/g, '');
  return t === '' ? NaN : Number(t);
}

// cellProblem says why the server will refuse a cell for its field, or '' (the server
// has the last word: a text's limit depends on the presets it is measured in).
export function cellProblem(field, cell) {
  const v = cell.trim();
  if (!field || v === '') return '';
  const limit = field.limit || {};
  switch (field.type) {
    case 'text':
      if (/[\u0000-\u001f]/.test(v)) return 'takes one line: no line breaks';
      return limit.max_length && [...v].length > limit.max_length ? `${[...v].length} characters, at most ${limit.max_length} fit` : '';
    case 'number':
      return Number.isFinite(num(v)) ? '' : 'not a number';
    case 'series': {
      const vs = v.split(';').map(num);
      if (vs.some((x) => !Number.isFinite(x) || x < 0)) return 'not numbers separated by ;';
      return limit.count && vs.length !== limit.count ? `${vs.length} values, the chart has ${limit.count}` : '';
    }
    case 'color':
      return COLOR.test(v) ? '' : 'not a colour like #1e293b';
    case 'image':
    case 'audio':
      // As koda.MediaValue reads it: an asset id, or an http(s) URL the server fetches;
      // whether the asset exists and is of the field's kind is the server's to say.
      if (v === field.value || /^ast_[^\s/:.]+$/.test(v) || /^https?:\/\/\S+$/i.test(v)) return '';
      return `not an ${field.type} asset id (ast_…) or an http(s) URL`;
    default:
      return '';
  }
}
