// The schema modal's profile: per column its nulls, min, max and distinct values (an estimate), and whether the
// footer's statistics gave them with no scan; a column's most frequent values and histogram on demand; and the
// table's first rows, through the ordinary query path.
import { api } from './api.js';
import { elements } from './elements.js';

const $ = elements(['schema-profile-status', 'schema-top', 'schema-top-title', 'schema-top-values',
  'schema-histogram', 'schema-first-head', 'schema-first-rows']);

const FIRST_ROWS = 10;

function cell(text) {
  const td = document.createElement('td');
  td.textContent = text === null || text === undefined ? '—' : String(text);
  return td;
}

/** A table's name quoted for SQL. */
function quoted(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

export class SchemaProfile {
  constructor() {
    this.profile = null;
    this.asked = 0;
  }

  /** A dataset opened: its profile and first rows are asked for; what arrives for another one is dropped. */
  load(conversationId, dataset, redraw) {
    const ask = ++this.asked;
    this.conversationId = conversationId;
    this.dataset = dataset;
    this.profile = null;
    $('schema-top').hidden = true;
    $('schema-profile-status').textContent = 'Profiling columns…';
    $('schema-first-head').replaceChildren();
    $('schema-first-rows').replaceChildren();
    api.datasetProfile(conversationId, dataset.id).then((profile) => {
      if (ask !== this.asked) return;
      this.profile = profile;
      $('schema-profile-status').textContent = this.said(profile);
      redraw();
    }).catch((e) => {
      if (ask === this.asked) $('schema-profile-status').textContent = `No profile: ${e.message}`;
    });
    api.query(conversationId, { sql: `SELECT * FROM ${quoted(dataset.name)} LIMIT ${FIRST_ROWS}` }).then((result) => {
      if (ask === this.asked) this.firstRows(result);
    }).catch(() => {});
  }

  said(profile) {
    const footer = profile.columns.filter((c) => c.from_statistics).length;
    return `${Number(profile.rows).toLocaleString()} rows. Distinct counts are estimates.`
      + (footer ? ` Nulls, min and max of ${footer} of ${profile.columns.length} columns were read from the file's`
        + ' footer statistics, with no scan.' : '')
      + (profile.note ? ` ${profile.note}.` : '');
  }

  /** The profile's cells of one column, and its button for the most frequent values. */
  cells(name) {
    const c = this.profile?.columns.find((each) => each.name === name);
    if (!c) return Array.from({ length: 6 }, () => document.createElement('td'));
    const distinct = cell(c.distinct === null ? null : `≈ ${Number(c.distinct).toLocaleString()}`);
    const from = cell(c.from_statistics ? 'footer' : 'scan');
    from.title = c.from_statistics ? "Nulls, min and max from the file's footer statistics, no scan" : 'Computed by a query';
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Top values';
    button.setAttribute('aria-label', `Top values of ${name}`);
    button.addEventListener('click', () => this.top(name));
    const action = document.createElement('td');
    action.append(button);
    return [cell(c.nulls === null ? null : Number(c.nulls).toLocaleString()), cell(c.min), cell(c.max), distinct, from,
      action];
  }

  async top(name) {
    const ask = this.asked;
    $('schema-profile-status').textContent = `Counting the values of ${name}…`;
    try {
      const top = (await api.datasetProfile(this.conversationId, this.dataset.id, name)).top;
      if (ask !== this.asked) return;
      $('schema-top-title').textContent = `Most frequent values of ${name}`;
      $('schema-top-values').replaceChildren(...top.values.map((v) => {
        const tr = document.createElement('tr');
        tr.append(cell(v.value === null ? 'NULL' : v.value), cell(Number(v.count).toLocaleString()));
        return tr;
      }));
      const most = Math.max(1, ...top.histogram.map((b) => b.count));
      $('schema-histogram').replaceChildren(...top.histogram.map((b) => {
        const li = document.createElement('li');
        const bar = document.createElement('span');
        bar.className = 'bar';
        bar.style.width = `${Math.round((b.count / most) * 160)}px`;
        li.append(bar, `≤ ${b.upper}: ${Number(b.count).toLocaleString()}`);
        return li;
      }));
      $('schema-top').hidden = false;
      $('schema-profile-status').textContent = this.said(this.profile);
    } catch (e) {
      if (ask === this.asked) $('schema-profile-status').textContent = e.message;
    }
  }

  firstRows(result) {
    const head = document.createElement('tr');
    for (const c of result.columns) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = c.name;
      head.append(th);
    }
    $('schema-first-head').replaceChildren(head);
    $('schema-first-rows').replaceChildren(...result.rows.map((row) => {
      const tr = document.createElement('tr');
      tr.append(...row.map((v) => cell(v !== null && typeof v === 'object' ? JSON.stringify(v) : v)));
      return tr;
    }));
  }
}
